/**
 * The Changes feature: what a container changed against its image (docker diff) as rows under each container row,
 * with A/C/D decorations; a changed file opens in a diff editor, the image's version on the left (read through a
 * helper container that is never started, so images without a shell work) and the container's on the right (the
 * berth-container file system). Revert File writes the image's version back after a confirmation. extension.ts calls
 * `registerChanges` once and hangs the rows it returns under the container rows (after Files).
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { changesCommands } from './commands';
import type { ChangesDeps, ChangesFeature } from './deps';
import { registerChangeDecorations, registerImageFileContent } from './providers';
import { ChangeRows } from './rows';

export type { ChangesDeps, ChangesFeature } from './deps';

export function registerChanges(deps: ChangesDeps, owner: DisposableStore): ChangesFeature {
  const treeView = deps.containersView.treeView;
  const rows = owner.add(new ChangeRows(deps, { get visible() { return treeView.visible; }, onDidChangeVisibility: treeView.onDidChangeVisibility }));
  registerChangeDecorations(owner);
  registerImageFileContent(deps, owner);
  registerCommandTable(changesCommands(rows), deps, owner);
  return { rows };
}
