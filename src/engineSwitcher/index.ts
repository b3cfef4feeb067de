/**
 * The Engines feature: the status bar item and context keys of the current engine, Switch Context…, Add and Remove
 * Engine, Refresh and Retry, and the snapshots tests read. extension.ts calls `registerEngines` once.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { engineCommands } from './commands';
import type { EnginesDeps } from './deps';
import { generalCommands } from './general';
import { EngineStatus } from './status';

export type { EnginesDeps } from './deps';

export function registerEngines(deps: EnginesDeps, owner: DisposableStore): void {
  owner.add(new EngineStatus(deps));
  registerCommandTable([...generalCommands, ...engineCommands], deps, owner);
}
