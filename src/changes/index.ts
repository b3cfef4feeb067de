/**
 * The Changes feature: what a container changed against its image (docker diff) as rows under each container row,
 * with A/C/D decorations; a changed file opens in a diff editor, the image's version on the left (read through a
 * helper container that is never started, so images without a shell work) and the container's on the right (the
 * berth-container file system). Revert File writes the image's version back after a confirmation. extension.ts calls
 * `registerChanges` once and hangs the rows it returns under the container rows (after Files).
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import type { ContainersView } from '../containers';
import { CHANGE_LETTERS, readImageFileOf, revertToImageFile, type ChangeKind } from '../engine';
import { containerUri } from '../files';
import { command, registerCommandTable } from '../workbench/commandTable';
import type { CoreDeps } from '../workbench/deps';
import { confirm, withCancellableProgress } from '../workbench/feedback';
import { ChangeRows, isChangesRow } from './rows';
import { CHANGE_SCHEME, IMAGE_FILE_SCHEME, changeLocationOf, imageFileUri } from './uris';

export interface ChangesDeps extends CoreDeps {
  readonly containersView: Pick<ContainersView, 'treeView'>;
}

export interface ChangesFeature {
  readonly rows: ChangeRows;
}

/** What a command acts on: a path row, or (automation, tests) `{ engine, containerId, path, kind?, confirmed? }`. */
interface ChangeTarget {
  readonly engine: string;
  readonly containerId: string;
  readonly path: string;
  readonly kind: ChangeKind | undefined;
  readonly confirmed: boolean | undefined;
}

function targetOf(arg: unknown): ChangeTarget {
  if (isChangesRow(arg) && arg.node !== undefined) {
    return { engine: arg.engine, containerId: arg.containerId, path: arg.node.path, kind: arg.node.kind, confirmed: undefined };
  }
  const bag = (typeof arg === 'object' && arg !== null ? arg : {}) as Record<string, unknown>;
  const { engine, containerId, path, kind, confirmed } = bag;
  if (typeof engine !== 'string' || typeof containerId !== 'string' || typeof path !== 'string' || !path.startsWith('/')) {
    throw new Error(vscode.l10n.t('Choose a changed file under a container\'s Changes row'));
  }
  return { engine, containerId, path, kind: kind === 0 || kind === 1 || kind === 2 ? kind : undefined, confirmed: typeof confirmed === 'boolean' ? confirmed : undefined };
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1) || path;
}

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

  const containerNameOf = (target: ChangeTarget): string =>
    deps.sessionFor(target.engine).model.container(target.containerId)?.name ?? target.containerId.slice(0, 12);

  registerCommandTable(
    [
      command('berth.changes.openDiff', 'Opening the changes', () => async (arg?: unknown) => {
        const target = targetOf(arg);
        const left = imageFileUri(target.engine, target.containerId, target.path);
        const name = containerNameOf(target);
        if (target.kind === 2) {
          // Deleted: only the image has it.
          await vscode.window.showTextDocument(left, { preview: true });
          return left.toString();
        }
        const right = containerUri(target.engine, target.containerId, target.path);
        const title = vscode.l10n.t('{0} (image ↔ {1})', baseName(target.path), name);
        await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
        return right.toString();
      }),
      command('berth.changes.revertFile', 'Reverting the file', () => async (arg?: unknown) => {
        const target = targetOf(arg);
        const name = containerNameOf(target);
        const asked = await confirm(
          vscode.l10n.t('Revert {0} in {1} to the image\'s version?', target.path, name),
          vscode.l10n.t('Revert File'),
          target.confirmed,
          vscode.l10n.t('The container\'s version of the file is overwritten with the one in its image.'),
        );
        if (!asked) return false;
        await withCancellableProgress(vscode.l10n.t('Reverting {0} in {1}', target.path, name), (signal) =>
          revertToImageFile(deps.sessionFor(target.engine).client, target.containerId, target.path, signal),
        );
        await rows.refresh(target.engine, target.containerId);
        void vscode.window.showInformationMessage(vscode.l10n.t('Reverted {0} in {1} to the image\'s version.', target.path, name));
        return true;
      }, { rejectsWhen: (arg?: unknown) => typeof arg === 'object' && arg !== null && (arg as { rejects?: unknown }).rejects === true }),
    ],
    deps,
    owner,
  );
  return { rows };
}
