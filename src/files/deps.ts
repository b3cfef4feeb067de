import type { CoreDeps } from '../workbench/deps';
import type { FileRows } from './rows';

/** What the Files feature needs: the core (settings, engine sessions, log). */
export type FilesDeps = CoreDeps;

/** What other features get: the rows the Containers view hangs under each container ("Files"). */
export interface FilesFeature {
  readonly rows: FileRows;
}
