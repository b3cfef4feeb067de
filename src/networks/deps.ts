/** What the Networks feature needs of the core and of other features. */
import type { LogDeps, SessionsDeps } from '../workbench/deps';

export interface NetworksDeps extends SessionsDeps, LogDeps {
  /** From the Containers feature: shows a container's row. */
  readonly revealContainer: (id: string, engine: string) => Promise<void>;
  /** From the Networks view itself: lists again now, so a command's result shows before its event arrives. */
  readonly refreshNetworks: () => Promise<void>;
}
