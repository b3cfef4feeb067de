import type { CoreDeps } from '../workbench/deps';
import type { ContainersView } from './view';

/** What the Containers feature needs: the core (settings, engine sessions, log). */
export type ContainersDeps = CoreDeps;

/** What other features may use. */
export interface ContainersFeature {
  readonly view: ContainersView;
}
