/**
 * The Compose feature: group actions on projects through the Engine API (start, stop, restart, remove), merged
 * project logs (terminal and document), Compose Up/Down/Restart/Pull/Build on compose files as tasks, and the
 * `berth-compose` task type. The grouping itself is the Containers view's (berth.containers.groupBy).
 * extension.ts calls `registerCompose` once.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { extendDeps } from '../workbench/deps';
import { composeCommands, runCommands } from './commands';
import type { ComposeDeps } from './deps';
import { ProjectLogsDocuments } from './logs';
import { ComposeImplementations, ComposeTaskProvider } from './tasks';

export type { ComposeDeps } from './deps';

export function registerCompose(deps: ComposeDeps, owner: DisposableStore): void {
  const implementations = owner.add(new ComposeImplementations());
  const documents = owner.add(new ProjectLogsDocuments(deps));
  owner.add(new ComposeTaskProvider(deps, implementations));
  registerCommandTable(composeCommands(documents), deps, owner);
  registerCommandTable(runCommands, extendDeps(deps, { implementations }), owner);
}
