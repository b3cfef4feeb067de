/** Turns argv into a typed invocation (or help), using the command table. Pure: nothing runs here. */
import { tokenize, UsageError } from './args';
import { findCommand, globalFlags, type Command, type CommandName } from './commands';

export interface GlobalOptions {
  /** `--host`/`-H`; DOCKER_HOST and the contexts apply when unset. */
  readonly host: string | undefined;
}

export type Invocation =
  | { readonly kind: 'help'; readonly topic: CommandName | undefined }
  | { readonly kind: 'version' }
  | { readonly kind: 'command'; readonly global: GlobalOptions; readonly command: Command };

/** Turns argv (without `node` and the script) into an invocation, or throws UsageError with a specific message. */
export function parseCommandLine(argv: readonly string[]): Invocation {
  const global = tokenize(argv, { flags: globalFlags, stopAtFirstPositional: true, commandPath: 'berth' });
  const [commandName, ...rest] = global.positionals;
  if (global.flags.booleans.has('version')) return { kind: 'version' };
  if (commandName === undefined || global.help) return { kind: 'help', topic: undefined };
  if (commandName === 'help') return { kind: 'help', topic: helpTopic(rest) };

  const found = findCommand(commandName);
  if (!found) throw new UsageError(`'${commandName}' is not a berth command. See 'berth help'.`);
  const { name, entry } = found;
  const parsed = tokenize(rest, { flags: entry.flagSpecs, stopAtFirstPositional: entry.stopAtFirstPositional ?? false, commandPath: `berth ${name}` });
  if (parsed.help) return { kind: 'help', topic: name };
  checkPositionalCount(name, entry.positionals, parsed.positionals.length);

  const host = global.flags.values.get('host');
  if (host !== undefined && host.trim() === '') throw new UsageError('--host needs a value, e.g. unix:///run/docker.sock.');
  // The table pairs each name with its own build step, so the options match the name.
  const command = { name, options: entry.buildFromParsed(parsed.flags, parsed.positionals) } as Command;
  return { kind: 'command', global: { host }, command };
}

function helpTopic(rest: readonly string[]): CommandName | undefined {
  const [topic] = rest;
  if (topic === undefined) return undefined;
  const found = findCommand(topic);
  if (!found) throw new UsageError(`no help for '${topic}': it is not a berth command. See 'berth help'.`);
  return found.name;
}

function checkPositionalCount(name: CommandName, { min, max }: { min: number; max: number }, count: number): void {
  if (count >= min && count <= max) return;
  const plural = (n: number): string => `${n} argument${n === 1 ? '' : 's'}`;
  let requirement: string;
  if (max === 0) requirement = 'accepts no arguments';
  else if (min === max) requirement = `requires exactly ${plural(min)}`;
  else if (max === Infinity) requirement = `requires at least ${plural(min)}`;
  else requirement = `requires at least ${min} and at most ${plural(max)}`;
  throw new UsageError(`"berth ${name}" ${requirement}. See 'berth ${name} --help'.`);
}
