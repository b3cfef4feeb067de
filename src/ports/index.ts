/**
 * The Ports feature: a container's published ports in its tooltip and as rows under it ("Ports"), and Open in Browser /
 * Copy Address on them. extension.ts calls `registerPorts` once, hands over the Containers view, and hangs the rows
 * this returns under the container rows (before Files).
 */
import type { DisposableStore } from '../common/lifecycle';
import type { ContainerNode, ContainersView } from '../containers';
import { isRunningState } from '../model/records';
import { registerCommandTable } from '../workbench/commandTable';
import { extendDeps, type CoreDeps } from '../workbench/deps';
import { portCommands } from './commands';
import { PortFacts } from './facts';
import { containerPortDecoration } from './portRows';
import { PortRows } from './rows';

export interface PortsDeps extends CoreDeps {
  readonly containersView: Pick<ContainersView, 'setDecorator' | 'redraw' | 'node'>;
}

/** What extension.ts hangs under the container rows. */
export interface PortsFeature {
  readonly rows: PortRows;
}

export function registerPorts(deps: PortsDeps, owner: DisposableStore): PortsFeature {
  const facts = new PortFacts(deps);
  const view = deps.containersView;
  // Drawn rows only: the bindings of a container that is not running are read when its row is drawn, then it is drawn again.
  const decorate = (node: ContainerNode): ReturnType<typeof containerPortDecoration> | undefined => {
    const known = facts.known(node.record);
    if (known !== undefined) return containerPortDecoration(known, isRunningState(node.record.state));
    const session = deps.engines.find(node.engine);
    if (session) {
      void facts.read(session, node.record).then(() => {
        const current = view.node(node.id, node.engine);
        if (current?.record === node.record) view.redraw([current]);
      });
    }
    return undefined;
  };
  owner.add(view.setDecorator(decorate));
  const rows = owner.add(new PortRows(deps, facts));
  registerCommandTable(portCommands, extendDeps(deps, { facts }), owner);
  return { rows };
}
