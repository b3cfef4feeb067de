/**
 * The port-forward feature: Forward Port… on running containers, the "Forwarded" rows under them, and Open in
 * Browser / Copy Address / Stop on each forward. extension.ts hands over the Containers view and hangs the rows this
 * returns under the container rows (after Ports, before Files).
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { extendDeps } from '../workbench/deps';
import { ActiveForwards } from './active';
import { forwardCommands } from './commands';
import type { ForwardsDeps } from './deps';
import { ForwardRows } from './rows';

export type { ForwardsDeps } from './deps';
export type { ActiveForward, ActiveForwards } from './active';

export interface ForwardsFeature {
  readonly rows: ForwardRows;
  /** The window's forwards, for features that forward a port of their own (the debugger's inspector). */
  readonly forwards: ActiveForwards;
}

export function registerForwards(deps: ForwardsDeps, owner: DisposableStore): ForwardsFeature {
  const forwards = owner.add(new ActiveForwards(deps));
  const rows = owner.add(new ForwardRows(forwards));
  // A forward started or ended: its container's row is drawn again, with its "Forwarded" row or without.
  owner.add(
    forwards.onDidChange(({ engine, containerId }) => {
      const node = deps.containersView.node(containerId, engine);
      if (node) deps.containersView.redraw([node]);
    }),
  );
  registerCommandTable(forwardCommands, extendDeps(deps, { forwards }), owner);
  return { rows, forwards };
}
