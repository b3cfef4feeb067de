/** What the Debugging feature needs of the core and of other features. */
import type { ActiveForwards } from '../forwards';
import type { RegistriesFeature } from '../registries';
import type { CoreDeps } from '../workbench/deps';
import type { DebugForwards } from './sessions';

export interface DebuggingDeps extends CoreDeps {
  /** From the Forwards feature: the window's forwards, which carry the inspector port to this machine. */
  readonly forwards: Pick<ActiveForwards, 'start' | 'stop'>;
  /** Credentials for private base images when a berth-node configuration builds its Dockerfile first. */
  readonly registries: Pick<RegistriesFeature, 'chain'>;
}

/** What the commands get: the above, plus the forwards each debug session owns. */
export interface AttachDeps extends DebuggingDeps {
  readonly debugForwards: DebugForwards;
}

/** What the berth-node configuration provider gets: the same as the commands. */
export type LaunchDeps = AttachDeps;
