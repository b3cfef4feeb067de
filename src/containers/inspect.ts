/** Inspect, Copy ID/Name for images: a container's or an image's JSON in a read-only editor. */
import * as vscode from 'vscode';
import type { EngineSession } from '../model/session';
import { command, type CommandEntry } from '../workbench/commandTable';
import type { CoreDeps } from '../workbench/deps';
import { containerRefOf, imageRefOf, resolveContainers, splitArgs } from '../workbench/targets';
import { inspectUri } from './inspectDocument';

export const inspectCommands: ReadonlyArray<CommandEntry<CoreDeps>> = [
  command('berth.inspect', 'Inspecting', (deps) => async (...args: unknown[]) => {
    const { target, options } = splitArgs(args);
    // The URI names the engine only when there are several, so it stays as documented with one.
    const engineOf = (session: EngineSession): string | undefined => (deps.engines.isMulti ? session.id : undefined);
    let uri: vscode.Uri | undefined;
    const isImageNode = typeof target === 'object' && target !== null && (target as { kind?: unknown }).kind === 'image';
    const container = isImageNode ? undefined : containerRefOf(deps, target, options.engine)[0];
    if (container?.record || (container && !container.session.model.image(container.id))) {
      uri = inspectUri('container', container.name, container.id, engineOf(container.session));
    } else {
      const image = imageRefOf(deps, target, options.engine);
      if (image) uri = inspectUri('image', image.record?.tags[0] ?? image.reference, image.id, engineOf(image.session));
    }
    if (!uri) {
      const picked = await resolveContainers(deps, [], { placeHolder: vscode.l10n.t('Container to inspect'), eligible: () => true, many: false });
      const ref = picked?.refs[0];
      if (!ref) return undefined;
      uri = inspectUri('container', ref.name, ref.id, engineOf(ref.session));
    }
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, 'json');
    await vscode.window.showTextDocument(document, { preview: true });
    return { uri: uri.toString() };
  }),
];
