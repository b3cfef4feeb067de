/**
 * What the Changes rows open: the A/C/D letters on their files, and the image's side of a diff, read-only and read each
 * time it is opened (nothing of the image is kept).
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { CHANGE_LETTERS, readImageFileOf, type ChangeKind } from '../engine';
import type { ChangesDeps } from './deps';
import { CHANGE_SCHEME, IMAGE_FILE_SCHEME, changeLocationOf } from './uris';

const DECORATION_COLORS: Readonly<Record<ChangeKind, string>> = {
  0: 'gitDecoration.modifiedResourceForeground',
  1: 'gitDecoration.addedResourceForeground',
  2: 'gitDecoration.deletedResourceForeground',
};

export function registerChangeDecorations(owner: DisposableStore): void {
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
}

export function registerImageFileContent(deps: Pick<ChangesDeps, 'sessionFor'>, owner: DisposableStore): void {
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
}
