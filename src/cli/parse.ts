/** Turns argv into a typed invocation (or help), using the command table. Pure: nothing runs here. */
import { tokenize, UsageError } from './args';
import { commandEntries, findCommand, globalFlags, type Command, type CommandName } from './commands';
import { EXIT_FAILURE } from './failure';

export interface GlobalOptions {
  /** `--host`/`-H`; DOCKER_HOST and the contexts apply when unset. */
  readonly host: string | undefined;
}

export type Invocation =
  | { readonly kind: 'help'; readonly topic: CommandName | undefined }
  /** `berth volume` alone: the group's commands, as `docker volume` prints them. */
  | { readonly kind: 'group-help'; readonly group: string }
  | { readonly kind: 'version' }
  | { readonly kind: 'command'; readonly global: GlobalOptions; readonly command: Command };

/** Turns argv (without `node` and the script) into an invocation, or throws UsageError with a specific message. */
export function parseCommandLine(argv: readonly string[]): Invocation {
  const global = tokenize(argv, { flags: globalFlags, stopAtFirstPositional: true, commandPath: 'berth' });
  const [commandName, ...rest] = global.positionals;
  if (global.flags.booleans.has('version')) return { kind: 'version' };
  if (commandName === undefined || global.help) return { kind: 'help', topic: undefined };
  if (commandName === 'help' && rest.length === 1 && isCommandGroup(rest[0] as string)) return { kind: 'group-help', group: rest[0] as string };
  if (commandName === 'help') return { kind: 'help', topic: helpTopic(rest) };

  const { found, args } = commandOf(commandName, rest);
  if (!found && (rest.length === 0 || (rest.length === 1 && ['--help', '-h'].includes(rest[0] as string))) && isCommandGroup(commandName)) return { kind: 'group-help', group: commandName };
  if (!found) throw new UsageError(`'${[commandName, ...rest.slice(0, 1)].join(' ')}' is not a berth command. See 'berth help'.`);
  const { name, entry } = found;
  const parsed = tokenize(args, { flags: entry.flagSpecs, stopAtFirstPositional: entry.stopAtFirstPositional ?? false, commandPath: `berth ${name}` });
  if (parsed.help) return { kind: 'help', topic: name };
  checkPositionalCount(name, entry.positionals, parsed.positionals.length);

  const host = global.flags.values.get('host');
  if (host !== undefined && host.trim() === '') throw new UsageError('--host needs a value, e.g. unix:///run/docker.sock.');
  // The table pairs each name with its own build step, so the options match the name.
  const command = { name, options: entry.buildFromParsed(parsed.flags, parsed.positionals) } as Command;
  return { kind: 'command', global: { host }, command };
}

/** A command of one word (`ps`) or of a group and a verb (`volume ls`), and the arguments after it. */
function commandOf(first: string, rest: readonly string[]): { found: ReturnType<typeof findCommand>; args: readonly string[] } {
  const verb = rest[0];
  const grouped = verb !== undefined ? findCommand(`${first} ${verb}`) : undefined;
  return grouped ? { found: grouped, args: rest.slice(1) } : { found: findCommand(first), args: rest };
}

/** A first word that only commands of two words start with: `volume`, `network`, `compose`… */
export function isCommandGroup(word: string): boolean {
  return commandEntries.some(({ name }) => name.startsWith(`${word} `));
}

function helpTopic(rest: readonly string[]): CommandName | undefined {
  const [topic] = rest;
  if (topic === undefined) return undefined;
  const found = commandOf(topic, rest.slice(1)).found;
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
  throw new UsageError(`"berth ${name}" ${requirement}. See 'berth ${name} --help'.`, EXIT_FAILURE);
}
