/** What the Ports feature needs of the core and of other features. */
import type { ContainersView } from '../containers';
import type { CoreDeps } from '../workbench/deps';
import type { PortFacts } from './facts';

export interface PortsDeps extends CoreDeps {
  /** From the Containers feature: its rows carry the ports in their tooltip and context value. */
  readonly containersView: Pick<ContainersView, 'setDecorator' | 'redraw' | 'node'>;
}

/** What the commands get: the core, plus the bindings read so far. */
export interface PortCommandDeps extends CoreDeps {
  readonly facts: PortFacts;
}
