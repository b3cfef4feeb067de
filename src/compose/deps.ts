import type { CoreDeps } from '../workbench/deps';
import type { ComposeImplementations } from './tasks';

/** What the Compose feature needs: the core (settings, engine sessions, log). */
export type ComposeDeps = CoreDeps;

/** The Compose Up/Down/… commands also need the compose implementations found on this machine. */
export interface ComposeRunDeps extends CoreDeps {
  readonly implementations: ComposeImplementations;
}
