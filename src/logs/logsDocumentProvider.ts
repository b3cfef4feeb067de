/**
 * Logs in an editor: a read-only virtual document (`berth-logs:/<name>.log?id=<id>`) that shows the last
 * `berth.logs.tail` lines and keeps appending, like the Show Logs terminal: across restarts of the container and
 * outages of the engine, each said in the document by a `[Berth] …` line. Changes are announced at most every
 * UPDATE_INTERVAL_MS while output flows; closing the document ends the following.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { Disposable } from '../common/lifecycle';
import type { LogDeps, SessionsDeps, SettingsDeps } from '../workbench/deps';
import { LogBuffer } from './logBuffer';
import { followContainerLogs, type LogsClient, type LogsClientSource } from './logFollower';

/** What logs documents need: the log, the logs settings, and the engine a URI names. */
export type LogsDocumentDeps = LogDeps & Pick<SettingsDeps, 'settings'> & Pick<SessionsDeps, 'sessionFor'>;

export const LOGS_SCHEME = 'berth-logs';
const UPDATE_INTERVAL_MS = 100;

/** `engine` (a session id) is added when the container is not necessarily on the current engine. */
export function logsUri(name: string, id: string, engine?: string): vscode.Uri {
  const safeName = name.replace(/[/\\:?#]/g, '_');
  const query = `id=${encodeURIComponent(id)}${engine === undefined ? '' : `&engine=${encodeURIComponent(engine)}`}`;
  return vscode.Uri.from({ scheme: LOGS_SCHEME, path: `/${safeName}.log`, query });
}

class LogDocument {
  readonly buffer: LogBuffer;
  readonly controller = new AbortController();
  readonly backlog: Promise<void>;
  private timer: NodeJS.Timeout | undefined;
  private toldAboutCap = false;

  constructor(
    private readonly deps: LogsDocumentDeps,
    private readonly uri: vscode.Uri,
    id: string,
    client: LogsClientSource,
    private readonly changed: (uri: vscode.Uri) => void,
  ) {
    this.buffer = new LogBuffer(deps.settings.logsMaxLines);
    let backlogDone: () => void = () => undefined;
    this.backlog = new Promise((resolve) => (backlogDone = resolve));
    const sink = {
      output: (stream: 'stdout' | 'stderr', text: string) => {
        this.buffer.append(stream, text);
        this.scheduleChange();
      },
      notice: (text: string) => {
        this.buffer.appendNotice(text);
        this.scheduleChange();
      },
    };
    followContainerLogs(client, id, sink, {
      tail: deps.settings.logsTail === 0 ? 'all' : deps.settings.logsTail,
      signal: this.controller.signal,
      followRestarts: true,
      onBacklog: backlogDone,
    })
      .catch((error: unknown) => {
        if (this.controller.signal.aborted) return;
        const message = errorMessage(error);
        deps.log.error(`Logs of ${id}: ${message}`);
        this.buffer.appendNotice(`logs failed: ${message}`);
        this.scheduleChange();
      })
      .finally(backlogDone);
  }

  dispose(): void {
    this.controller.abort();
    if (this.timer) clearTimeout(this.timer);
  }

  private scheduleChange(): void {
    if (this.timer || this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.changed(this.uri);
      this.tellAboutCap();
    }, UPDATE_INTERVAL_MS);
  }

  private tellAboutCap(): void {
    if (this.toldAboutCap || this.buffer.dropped === 0) return;
    this.toldAboutCap = true;
    const max = this.deps.settings.logsMaxLines;
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t('The logs document keeps the last {0} lines (berth.logs.maxLines); older lines are dropped to keep the editor responsive.', max),
        'Open Settings',
      )
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'berth.logs.maxLines');
      });
  }
}

export class LogsDocumentProvider extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly documents = new Map<string, LogDocument>();
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly deps: LogsDocumentDeps) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(LOGS_SCHEME, this));
    this._register(
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document.uri.scheme !== LOGS_SCHEME) return;
        const key = document.uri.toString();
        this.documents.get(key)?.dispose();
        this.documents.delete(key);
      }),
    );
    this._register({
      dispose: () => {
        for (const document of this.documents.values()) document.dispose();
        this.documents.clear();
      },
    });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const key = uri.toString();
    let document = this.documents.get(key);
    if (!document) {
      const query = new URLSearchParams(uri.query);
      const id = query.get('id') ?? uri.path.replace(/^\/|\.log$/g, '');
      // The engine by its id, its session asked again on each call: the document follows a session rebuilt after an outage.
      const engine = query.get('engine') ?? this.deps.sessionFor(undefined).id;
      const client = (): LogsClient => this.deps.sessionFor(engine).client;
      document = new LogDocument(this.deps, uri, id, client, (changed) => this._onDidChange.fire(changed));
      this.documents.set(key, document);
    }
    await document.backlog;
    return document.buffer.text();
  }
}
