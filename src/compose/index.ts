/**
 * The Compose feature: group actions on projects through the Engine API (start, stop, restart, remove), merged
 * project logs (terminal and document), Compose Up/Down/Restart/Pull/Build on compose files as tasks, and the
 * `berth-compose` task type. The grouping itself is the Containers view's (berth.containers.groupBy).
 * extension.ts calls `registerCompose` once.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { extendDeps, type CoreDeps } from '../workbench/deps';
import { groupCommands } from './groupCommands';
import { logsCommands, ProjectLogsDocuments } from './logs';
import { runCommands } from './runCommands';
import { ComposeImplementations, ComposeTaskProvider } from './tasks';

export type ComposeDeps = CoreDeps;

export function registerCompose(deps: ComposeDeps, owner: DisposableStore): void {
  const implementations = owner.add(new ComposeImplementations());
  const documents = owner.add(new ProjectLogsDocuments(deps));
  owner.add(new ComposeTaskProvider(deps, implementations));
  registerCommandTable([...groupCommands, ...logsCommands(documents)], deps, owner);
  registerCommandTable(runCommands, extendDeps(deps, { implementations }), owner);
}
