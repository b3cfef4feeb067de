/**
 * Workspace trust, for tests: `berth.internal.workspaceEngineConsent` answers the consent prompt for an engine that
 * workspace settings name (workbench/workspaceConsent.ts), as the prompt's buttons do; `berth.internal.outsideArguments`
 * makes the test mode apply the production rule to command arguments from outside Berth's views, capturing the
 * questions (workbench/automation.ts). Like every berth.internal.*
 * command it is registered only outside Production (commandTable.ts): an installed Berth grants that consent through
 * the prompt alone, never through a command another extension could run.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { trustCommands } from './commands';
import type { TrustDeps } from './deps';

export type { TrustDeps } from './deps';

export function registerTrust(deps: TrustDeps, owner: DisposableStore): void {
  registerCommandTable(trustCommands, deps, owner);
}
