import { setOutsideArgumentRule } from '../workbench/automation';
import { command, type CommandEntry } from '../workbench/commandTable';
import type { ConsentAnswer } from '../workbench/workspaceConsent';
import type { TrustDeps } from './deps';

function isAnswer(value: unknown): value is { host: string; answer: ConsentAnswer } {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return typeof record['host'] === 'string' && (record['answer'] === 'allowed' || record['answer'] === 'refused');
}

export const trustCommands: ReadonlyArray<CommandEntry<TrustDeps>> = [
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
];
