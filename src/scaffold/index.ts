/**
 * The Scaffold feature: Add Docker Files to Workspace… (palette, and the Explorer's context menu on folders). It needs
 * only the log for its error reports; the generator (detect.ts, render.ts) is vscode-free.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { scaffoldCommands } from './commands';
import type { ScaffoldDeps } from './deps';

export type { ScaffoldDeps } from './deps';

export function registerScaffold(deps: ScaffoldDeps, owner: DisposableStore): void {
  registerCommandTable(scaffoldCommands, deps, owner);
}
