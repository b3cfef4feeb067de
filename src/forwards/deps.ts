/** What the Forwards feature needs of the core and of other features. */
import type { ContainersView } from '../containers';
import type { CoreDeps } from '../workbench/deps';
import type { ActiveForwards } from './active';

export interface ForwardsDeps extends CoreDeps {
  /** From the Containers feature: a container's row is drawn again when a forward of it starts or ends. */
  readonly containersView: Pick<ContainersView, 'redraw' | 'node'>;
}

/** What the commands get: the core, plus the window's forwards. */
export interface ForwardCommandDeps extends CoreDeps {
  readonly forwards: ActiveForwards;
}
