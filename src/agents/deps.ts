import type { CredentialLookup } from '../engine';
import type { CoreDeps } from '../workbench/deps';

export interface AgentsDeps extends CoreDeps {
  /** Registry credentials for pull and run (Berth's sign-ins, then the docker configuration). */
  readonly credentials: () => CredentialLookup;
}
