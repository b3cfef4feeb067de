/**
 * Workspace trust, for tests: `berth.internal.workspaceEngineConsent` answers the consent prompt for an engine that
 * workspace settings name (workbench/workspaceConsent.ts), as the prompt's buttons do; `berth.internal.outsideArguments`
 * makes the test mode apply the production rule to command arguments from outside Berth's views, capturing the
 * questions (workbench/automation.ts). Like every berth.internal.*
 * command it is registered only outside Production (commandTable.ts): an installed Berth grants that consent through
 * the prompt alone, never through a command another extension could run.
 */
import type { DisposableStore } from '../common/lifecycle';
import { setOutsideArgumentRule } from '../workbench/automation';
import { command, registerCommandTable } from '../workbench/commandTable';
import type { ReportDeps } from '../workbench/feedback';
import type { ConsentAnswer, WorkspaceEngineConsent } from '../workbench/workspaceConsent';

export interface TrustDeps extends ReportDeps {
  readonly consent: WorkspaceEngineConsent;
}

function isAnswer(value: unknown): value is { host: string; answer: ConsentAnswer } {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return typeof record['host'] === 'string' && (record['answer'] === 'allowed' || record['answer'] === 'refused');
}

export function registerTrust(deps: TrustDeps, owner: DisposableStore): void {
  registerCommandTable<TrustDeps>(
    [
      // Outside arguments under the production rule, their questions captured and answered with `answer`; returns the
      // questions captured since the last call. `{ rule: 'given' }` restores the test mode's default.
      command('berth.internal.outsideArguments', 'Setting the outside-argument rule', () => (setting?: unknown) => {
        const given = typeof setting === 'object' && setting !== null ? (setting as { rule?: unknown; answer?: unknown }) : {};
        return setOutsideArgumentRule(given.rule === 'asked' ? 'asked' : 'given', given.answer === true);
      }),
      command('berth.internal.workspaceEngineConsent', 'Recording consent', (trust: TrustDeps) => async (answer?: unknown) => {
        if (!isAnswer(answer)) throw new Error('Give { host, answer: "allowed" | "refused" }');
        await trust.consent.record(answer.host, answer.answer);
        return answer.answer;
      }),
    ],
    deps,
    owner,
  );
}
