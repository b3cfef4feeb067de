/** What the Volumes feature needs of the core and of other features. */
import type { LogDeps, SessionsDeps } from '../workbench/deps';
import type { VolumesView } from './view';

/** What extension.ts hands the feature. */
export interface VolumesRegistrationDeps extends SessionsDeps, LogDeps {
  /** From the Containers feature: shows a container's row. */
  readonly revealContainer: (id: string, engine: string) => Promise<void>;
}

/** What the feature hands back to extension.ts. */
export interface VolumesFeature {
  readonly view: VolumesView;
}

/** What the commands get: the above, plus what the view does for them. */
export interface VolumesDeps extends VolumesRegistrationDeps {
  /** From the Volumes view itself: fetches disk usage now. */
  readonly refreshDiskUsage: (signal?: AbortSignal) => Promise<void>;
}
