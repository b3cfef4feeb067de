/**
 * The Files feature: the `berth-container` file system (files of any container through the archive API) and
 * "Open Folder in Workspace", which adds a container's directory as a workspace folder so the Explorer, search and
 * Quick Open work inside it; Download and Upload between the host and a container. extension.ts calls `registerFiles` once.
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { command, registerCommandTable } from '../workbench/commandTable';
import type { CoreDeps } from '../workbench/deps';
import { resolveContainers, splitArgs } from '../workbench/targets';
import { ContainerFileSystemProvider } from './provider';
import { answerLargeFilesFor } from './largeFiles';
import { FileRows, type FileRow } from './rows';
import { transferCommands } from './transfer';
import { CONTAINER_SCHEME, containerUri, locationOf } from './uri';

export type FilesDeps = CoreDeps;

/** What other features get: the rows the Containers view hangs under each container ("Files"). */
export interface FilesFeature {
  readonly rows: FileRows;
}

export { CONTAINER_SCHEME, containerUri } from './uri';

export function registerFiles(deps: FilesDeps, owner: DisposableStore): FilesFeature {
  const provider = owner.add(new ContainerFileSystemProvider(deps));
  const rows = owner.add(new FileRows(deps));
  owner.add(vscode.workspace.registerFileSystemProvider(CONTAINER_SCHEME, provider, { isCaseSensitive: true }));
  registerCommandTable(
    [
      command('berth.files.openFolder', 'Opening the container folder', (d: FilesDeps) => async (...args: unknown[]) => {
        const resolved = await resolveContainers(d, args, { placeHolder: vscode.l10n.t('Container whose files to open'), eligible: () => true, many: false });
        const ref = resolved?.refs[0];
        if (ref === undefined) return undefined;
        const given = (splitArgs(args).options as { path?: unknown }).path;
        const path = typeof given === 'string' ? given : await vscode.window.showInputBox({ prompt: vscode.l10n.t('Folder in {0} to open', ref.name), value: '/' });
        if (path === undefined) return undefined;
        const uri = containerUri(ref.session.descriptor.id, ref.id, path);
        const count = vscode.workspace.workspaceFolders?.length ?? 0;
        vscode.workspace.updateWorkspaceFolders(count, 0, { uri, name: `${ref.name}:${path}` });
        return uri.toString();
      }),
      // For tests: answers the berth.files.maxOpenMB question (true/false), or lets it ask again (undefined).
      command('berth.internal.answerLargeFiles', 'Answering for large files', () => (answer?: unknown) => answerLargeFilesFor(typeof answer === 'boolean' ? answer : undefined)),
      // For tests: a drop of host files (a `text/uri-list`) on a folder row of the Files tree, as the view hands it over.
      command('berth.internal.dropOnFiles', 'Uploading into the container', () => async (folder?: unknown, uriList?: unknown) => {
        if (typeof folder !== 'string' || typeof uriList !== 'string') throw new Error('berth.internal.dropOnFiles takes a berth-container folder URI and a text/uri-list');
        const uri = vscode.Uri.parse(folder, true);
        const { engine, containerId, path } = locationOf(uri);
        const parent = { kind: 'container', engine, id: containerId } as const;
        const row: FileRow = { kind: 'child', engine, containerId, parent, path, name: path, type: vscode.FileType.Directory, uri };
        const data = new vscode.DataTransfer();
        data.set('text/uri-list', new vscode.DataTransferItem(uriList));
        const cancellation = new vscode.CancellationTokenSource();
        try {
          await rows.handleDrop(row, data, cancellation.token);
        } finally {
          cancellation.dispose();
        }
      }),
    ],
    deps,
    owner,
  );
  registerCommandTable(transferCommands, { ...deps, uploadedInto: (target: unknown) => rows.contentsChanged(target) }, owner);
  return { rows };
}
