/**
 * The explorer's filters: Filter… on the Containers, Images, Volumes and Networks views (an input box that filters as
 * it is typed), Clear Filter, and the Containers view's "this workspace only" toggle. What each view shows is saved
 * per workspace and applied again when the window opens. The matching itself is vscode-free (views/rowFilter.ts).
 * extension.ts calls `registerFilters` once, handing over the four views.
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { filterCommands } from './commands';
import type { FiltersDeps } from './deps';
import { ViewFilters } from './viewFilters';

export type { FiltersDeps } from './deps';

export function registerFilters(deps: FiltersDeps, owner: DisposableStore): void {
  const filters = new ViewFilters(deps);
  owner.add(vscode.workspace.onDidChangeWorkspaceFolders(() => filters.foldersChanged()));
  registerCommandTable(filterCommands(filters), deps, owner);
}
