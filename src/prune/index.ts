/** Wires the Prune feature (commands.ts): extension.ts calls `registerPrune` once. */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { pruneCommands } from './commands';
import type { PruneDeps } from './deps';

export type { PruneDeps } from './deps';
export type { PruneResult } from './commands';

export function registerPrune(deps: PruneDeps, owner: DisposableStore): void {
  registerCommandTable(pruneCommands, deps, owner);
}
