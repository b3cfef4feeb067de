/**
 * The Containers feature: the Containers view, the container commands (lifecycle, shell, inspect, the show-all
 * toggle) and the inspect documents. extension.ts calls `registerContainers` once.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { containerCommands } from './commands';
import type { ContainersDeps, ContainersFeature } from './deps';
import { inspectCommands } from './inspect';
import { InspectDocumentProvider } from './inspectDocument';
import { shellCommands } from './shell';
import { ContainersView } from './view';

export type { ContainerNode, ContainerTreeNode } from './tree';
export type { ContainerRowDecoration, ContainerRowDecorator, ContainersView } from './view';

export type { ContainersDeps, ContainersFeature } from './deps';

export function registerContainers(deps: ContainersDeps, owner: DisposableStore): ContainersFeature {
  const view = owner.add(new ContainersView(deps));
  owner.add(new InspectDocumentProvider(deps));
  registerCommandTable([...containerCommands, ...shellCommands, ...inspectCommands], deps, owner);
  return { view };
}
