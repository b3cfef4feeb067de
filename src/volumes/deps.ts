/** What the Volumes feature needs of the core and of other features. */
import type { LogDeps, SessionsDeps } from '../workbench/deps';

export interface VolumesDeps extends SessionsDeps, LogDeps {
  /** From the Containers feature: shows a container's row. */
  readonly revealContainer: (id: string, engine: string) => Promise<void>;
  /** From the Volumes view itself: fetches disk usage now. */
  readonly refreshDiskUsage: (signal?: AbortSignal) => Promise<void>;
}
