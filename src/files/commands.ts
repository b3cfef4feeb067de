/** Open Folder in Workspace, and the internal commands tests answer the large-file question and drop files through. */
import * as vscode from 'vscode';
import { command, type CommandEntry } from '../workbench/commandTable';
import { resolveContainers, splitArgs } from '../workbench/targets';
import type { FilesDeps } from './deps';
import { answerLargeFilesFor } from './largeFiles';
import type { FileRow, FileRows } from './rows';
import { transferCommands } from './transfer';
import { containerUri, locationOf } from './uri';

export function filesCommands(rows: FileRows): ReadonlyArray<CommandEntry<FilesDeps>> {
  return [
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
    // An upload tells the open folder row it went into, so the row lists the new files at once.
    ...transferCommands((target) => rows.contentsChanged(target)),
  ];
}
