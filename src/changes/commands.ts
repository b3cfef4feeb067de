/** Open Changes (a diff editor: the image's version ↔ the container's) and Revert File on a container's changed paths. */
import * as vscode from 'vscode';
import { revertToImageFile, type ChangeKind } from '../engine';
import { containerUri } from '../files';
import { command, type CommandEntry } from '../workbench/commandTable';
import { confirm, withCancellableProgress } from '../workbench/feedback';
import type { ChangesDeps } from './deps';
import { isChangesRow, type ChangeRows } from './rows';
import { imageFileUri } from './uris';

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

function containerNameOf(deps: ChangesDeps, target: ChangeTarget): string {
  return deps.sessionFor(target.engine).model.container(target.containerId)?.name ?? target.containerId.slice(0, 12);
}

export function changesCommands(rows: ChangeRows): ReadonlyArray<CommandEntry<ChangesDeps>> {
  return [
    command('berth.changes.openDiff', 'Opening the changes', (deps: ChangesDeps) => async (arg?: unknown) => {
      const target = targetOf(arg);
      const left = imageFileUri(target.engine, target.containerId, target.path);
      const name = containerNameOf(deps, target);
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
    command('berth.changes.revertFile', 'Reverting the file', (deps: ChangesDeps) => async (arg?: unknown) => {
      const target = targetOf(arg);
      const name = containerNameOf(deps, target);
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
  ];
}
