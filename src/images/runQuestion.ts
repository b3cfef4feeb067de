/**
 * What Run Container and Run in Background ask before running with arguments from outside Berth's views (a command
 * link, another extension, a keybinding, a task): every value that decides what the container can reach, so that a
 * link that mounts `/` or copies a token from this machine's environment says so before anything runs.
 */
import { listLine, OUTSIDE_CALLER_LINE, shownValue } from '../workbench/callOrigin';

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A list as given (anything else shown as one value, as the run would refuse or read it). */
function values(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map(shownValue);
}

function line(label: string, value: unknown): string[] {
  return value === undefined || value === null || value === '' ? [] : [`${label}: ${shownValue(value)}`];
}

/** An environment entry by its name only: a value is often a secret, and a bare name copies this machine's. */
function environmentName(entry: unknown): string {
  if (typeof entry !== 'string') return shownValue(entry);
  const equals = entry.indexOf('=');
  return equals >= 0 ? shownValue(entry.slice(0, equals)) : `${shownValue(entry)} (its value from this machine's environment)`;
}

/** The detail lines of the question for a run's arguments (`RunArgs` as an outside caller gave them). */
export function runQuestionDetail(given: unknown): string {
  const args = record(given);
  const options = record(args['options']);
  const flags = [
    args['tty'] === true ? 'TTY' : undefined,
    args['interactive'] === true ? 'interactive' : undefined,
    args['autoRemove'] === true ? 'removed when it exits' : undefined,
  ].filter((flag): flag is string => flag !== undefined);
  const labels = Object.keys(record(options['labels'])).map(shownValue);
  const env = options['env'];
  return [
    OUTSIDE_CALLER_LINE,
    ...line('Image', args['image']),
    ...line('Engine', args['engine']),
    ...line('Name', args['name']),
    ...listLine('Command', values(args['cmd'])),
    ...listLine('Mounts', values(options['volumes'])),
    ...listLine('Environment', (Array.isArray(env) ? env : env === undefined ? [] : [env]).map(environmentName)),
    ...listLine('Environment files', values(options['envFiles'])),
    ...listLine('Ports', values(options['ports'])),
    ...line('Network', options['network']),
    ...line('User', options['user']),
    ...line('Working directory', options['workdir']),
    ...line('Entrypoint', options['entrypoint']),
    ...line('Restart', options['restart']),
    ...listLine('Labels', labels),
    ...listLine('Flags', flags),
  ].join('\n');
}
