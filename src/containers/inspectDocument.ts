/**
 * Read-only JSON of a container or an image: `berth-inspect:/container/<name>.json?id=<id>` or
 * `berth-inspect:/image/<name>.json?id=<id>`. Fetched from the engine each time VS Code asks.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { Disposable } from '../common/lifecycle';
import type { LogDeps, SessionsDeps } from '../workbench/deps';

export const INSPECT_SCHEME = 'berth-inspect';

/** `engine` (a session id) is added when the item is not necessarily on the current engine. */
export function inspectUri(kind: 'container' | 'image', name: string, id: string, engine?: string): vscode.Uri {
  const safeName = name.replace(/[/\\:?#]/g, '_');
  const query = `id=${encodeURIComponent(id)}${engine === undefined ? '' : `&engine=${encodeURIComponent(engine)}`}`;
  return vscode.Uri.from({ scheme: INSPECT_SCHEME, path: `/${kind}/${safeName}.json`, query });
}

export class InspectDocumentProvider extends Disposable implements vscode.TextDocumentContentProvider {
  constructor(private readonly deps: LogDeps & Pick<SessionsDeps, 'sessionFor'>) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(INSPECT_SCHEME, this));
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const query = new URLSearchParams(uri.query);
    const id = query.get('id') ?? '';
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      const client = this.deps.sessionFor(query.get('engine') ?? undefined).client;
      const data = uri.path.startsWith('/image/')
        ? await client.images.inspect(id, { signal: controller.signal })
        : await client.containers.inspect(id, { signal: controller.signal });
      return `${JSON.stringify(data, null, 2)}\n`;
    } catch (error) {
      // The document says what went wrong instead of showing stale or empty JSON.
      const message = errorMessage(error);
      this.deps.log.error(`Inspecting ${id} failed: ${message}`);
      return `// Inspecting ${id} failed: ${message}\n`;
    } finally {
      subscription.dispose();
    }
  }
}
