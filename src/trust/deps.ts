import type { ReportDeps } from '../workbench/feedback';
import type { WorkspaceEngineConsent } from '../workbench/workspaceConsent';

/** What the Trust feature needs: the consent store it answers for, and the log. */
export interface TrustDeps extends ReportDeps {
  readonly consent: WorkspaceEngineConsent;
}
