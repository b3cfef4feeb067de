import type * as vscode from 'vscode';
import type { RegistriesFeature } from '../registries';
import type { CoreDeps } from '../workbench/deps';

/** What the Build feature needs besides the core. */
export interface BuildDeps extends CoreDeps {
  /** Credentials for private base images (X-Registry-Config). */
  readonly registries: Pick<RegistriesFeature, 'chain'>;
  /** Selects an image's rows in the Images view once it is built. */
  revealImage(key: string, engine: string): Promise<void>;
  /** Where the options of the last build of each Dockerfile are remembered. */
  readonly workspaceState: vscode.Memento;
}
