import type { ContainersView } from '../containers';
import type { CoreDeps } from '../workbench/deps';
import type { ChangeRows } from './rows';

export interface ChangesDeps extends CoreDeps {
  readonly containersView: Pick<ContainersView, 'treeView'>;
}

export interface ChangesFeature {
  readonly rows: ChangeRows;
}
