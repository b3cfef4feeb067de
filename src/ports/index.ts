/**
 * The Ports feature: a container's published ports in its tooltip and as rows under it ("Ports"), and Open in Browser /
 * Copy Address on them. extension.ts calls `registerPorts` once, hands over the Containers view, and hangs the rows
 * this returns under the container rows (before Files).
 */
import type { DisposableStore } from '../common/lifecycle';
import type { ContainerNode } from '../containers';
import { isRunningState } from '../model/records';
import { registerCommandTable } from '../workbench/commandTable';
import { extendDeps } from '../workbench/deps';
import { portCommands } from './commands';
import type { PortsDeps } from './deps';
import { PortFacts } from './facts';
import { containerPortDecoration } from './portRows';
import { PortRows } from './rows';

export type { PortsDeps } from './deps';

/** What extension.ts hangs under the container rows. */
export interface PortsFeature {
  readonly rows: PortRows;
}

export function registerPorts(deps: PortsDeps, owner: DisposableStore): PortsFeature {
  const view = deps.containersView;
  // Bindings read (a row expanded, a command): the row is drawn again with them in its tooltip and context value.
  const facts = new PortFacts(deps, (engine, record) => {
    const current = view.node(record.id, engine);
    if (current?.record === record) view.redraw([current]);
  });
  const decorate = (node: ContainerNode): ReturnType<typeof containerPortDecoration> | undefined => {
    const known = facts.known(node.record);
    return known === undefined ? undefined : containerPortDecoration(known, isRunningState(node.record.state));
  };
  owner.add(view.setDecorator(decorate));
  const rows = owner.add(new PortRows(deps, facts));
  registerCommandTable(portCommands, extendDeps(deps, { facts }), owner);
  return { rows };
}
