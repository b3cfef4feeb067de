/** What the Networks feature needs of the core and of other features. */
import type { LogDeps, SessionsDeps } from '../workbench/deps';
import type { NetworksView } from './view';

/** What extension.ts hands the feature. */
export interface NetworksRegistrationDeps extends SessionsDeps, LogDeps {
  /** From the Containers feature: shows a container's row. */
  readonly revealContainer: (id: string, engine: string) => Promise<void>;
}

/** What the feature hands back to extension.ts. */
export interface NetworksFeature {
  readonly view: NetworksView;
}

/** What the commands get: the above, plus what the view does for them. */
export interface NetworksDeps extends NetworksRegistrationDeps {
  /** From the Networks view itself: lists again now, so a command's result shows before its event arrives. */
  readonly refreshNetworks: () => Promise<void>;
}
