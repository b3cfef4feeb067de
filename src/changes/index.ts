/**
 * The Changes feature: what a container changed against its image (docker diff) as rows under each container row,
 * with A/C/D decorations; a changed file opens in a diff editor, the image's version on the left (read through a
 * helper container that is never started, so images without a shell work) and the container's on the right (the
 * berth-container file system). Revert File writes the image's version back after a confirmation. extension.ts calls
 * `registerChanges` once and hangs the rows it returns under the container rows (after Files).
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { CHANGE_LETTERS, readImageFileOf, type ChangeKind } from '../engine';
import { registerCommandTable } from '../workbench/commandTable';
import { changesCommands } from './commands';
import type { ChangesDeps, ChangesFeature } from './deps';
import { ChangeRows } from './rows';
import { CHANGE_SCHEME, IMAGE_FILE_SCHEME, changeLocationOf } from './uris';

export type { ChangesDeps, ChangesFeature } from './deps';

const DECORATION_COLORS: Readonly<Record<ChangeKind, string>> = {
  0: 'gitDecoration.modifiedResourceForeground',
  1: 'gitDecoration.addedResourceForeground',
  2: 'gitDecoration.deletedResourceForeground',
};

export function registerChanges(deps: ChangesDeps, owner: DisposableStore): ChangesFeature {
  const treeView = deps.containersView.treeView;
  const rows = owner.add(new ChangeRows(deps, { get visible() { return treeView.visible; }, onDidChangeVisibility: treeView.onDidChangeVisibility }));

  owner.add(
    vscode.window.registerFileDecorationProvider({
      provideFileDecoration: (uri) => {
        if (uri.scheme !== CHANGE_SCHEME) return undefined;
        const kind = changeLocationOf(uri)?.kind;
        if (kind === undefined) return undefined;
        return new vscode.FileDecoration(CHANGE_LETTERS[kind], undefined, new vscode.ThemeColor(DECORATION_COLORS[kind]));
      },
    }),
  );

  // The image's side of a diff: read-only, read each time it is opened (nothing of the image is kept).
  owner.add(
    vscode.workspace.registerTextDocumentContentProvider(IMAGE_FILE_SCHEME, {
      provideTextDocumentContent: async (uri, token) => {
        const location = changeLocationOf(uri);
        if (location === undefined) throw vscode.FileSystemError.FileNotFound(uri);
        const controller = new AbortController();
        const subscription = token.onCancellationRequested(() => controller.abort());
        try {
          const bytes = await readImageFileOf(deps.sessionFor(location.engine).client, location.containerId, location.path, controller.signal);
          // A file the container added has no image version: the left side is empty, as in a source control diff.
          return bytes === undefined ? '' : bytes.toString('utf8');
        } finally {
          subscription.dispose();
        }
      },
    }),
  );

  registerCommandTable(changesCommands(rows), deps, owner);
  return { rows };
}
