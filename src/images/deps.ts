import type { RegistriesFeature } from '../registries';
import type { CoreDeps } from '../workbench/deps';
import type { ImagesView } from './view';

/** What the Images feature needs besides the core. */
export interface ImagesDeps extends CoreDeps {
  /** Credentials for pulls and runs, and the sign-in offer when a registry refuses. */
  readonly registries: Pick<RegistriesFeature, 'authRetry' | 'chain'>;
  /** Selects a container's row in the Containers view (after Run in Background). */
  revealContainer(id: string, engine: string): Promise<void>;
}

export interface ImagesCommandDeps extends ImagesDeps {
  readonly imagesView: ImagesView;
}
