/**
 * The berth command line: what each command accepts (used for parsing and for help), and the typed invocation a
 * command line turns into. Everything here is pure; running the commands is in `run-command.ts`.
 */
import { tokenize, UsageError, type FlagSpec, type ParsedFlags } from './args';

export interface GlobalOptions {
  /** `--host`/`-H`; DOCKER_HOST and the contexts apply when unset. */
  readonly host: string | undefined;
}

export interface RunOptions {
  readonly image: string;
  readonly cmd: string[];
  readonly detach: boolean;
  readonly tty: boolean;
  readonly autoRemove: boolean;
  readonly name: string | undefined;
  readonly network: string | undefined;
  /** `K=V`, or `K` alone to take K's value from berth's own environment (as docker does). */
  readonly env: string[];
  readonly labels: Record<string, string>;
}

export interface PsOptions {
  readonly all: boolean;
  readonly json: boolean;
  readonly quiet: boolean;
  readonly noTrunc: boolean;
  readonly filters: Record<string, string[]>;
}

export interface StopOptions {
  readonly ids: string[];
  readonly timeoutSeconds: number | undefined;
}

export interface StopAllOptions {
  readonly timeoutSeconds: number | undefined;
  readonly filters: Record<string, string[]>;
}

export interface LogsCommandOptions {
  readonly id: string;
  readonly follow: boolean;
  readonly tail: number | 'all' | undefined;
  readonly timestamps: boolean;
}

export interface ImagesOptions {
  readonly all: boolean;
  readonly json: boolean;
}

export interface PullCommandOptions {
  readonly image: string;
}

export interface CommitCommandOptions {
  readonly id: string;
  readonly repo: string | undefined;
  readonly tag: string | undefined;
  readonly message: string | undefined;
  readonly author: string | undefined;
  readonly changes: string[];
}

export interface WaitOptions {
  readonly id: string;
}

export type Command =
  | { readonly name: 'run'; readonly options: RunOptions }
  | { readonly name: 'ps'; readonly options: PsOptions }
  | { readonly name: 'stop'; readonly options: StopOptions }
  | { readonly name: 'stop-all'; readonly options: StopAllOptions }
  | { readonly name: 'logs'; readonly options: LogsCommandOptions }
  | { readonly name: 'images'; readonly options: ImagesOptions }
  | { readonly name: 'pull'; readonly options: PullCommandOptions }
  | { readonly name: 'commit'; readonly options: CommitCommandOptions }
  | { readonly name: 'wait'; readonly options: WaitOptions }
  | { readonly name: 'version'; readonly options: Record<string, never> };

export type CommandName = Command['name'];

export type Invocation =
  | { readonly kind: 'help'; readonly topic: CommandName | undefined }
  | { readonly kind: 'command'; readonly global: GlobalOptions; readonly command: Command };

export interface CommandSpec {
  readonly name: CommandName;
  readonly usage: string;
  readonly summary: string;
  readonly flags: readonly FlagSpec[];
  readonly stopAtFirstPositional?: boolean;
  readonly positionals: { readonly min: number; readonly max: number };
}

const timeFlag: FlagSpec = {
  key: 'time',
  long: 'time',
  short: 't',
  kind: 'value',
  valueName: 'SECONDS',
  description: 'Seconds to wait before killing the container (engine default: 10)',
};
const filterFlag: FlagSpec = {
  key: 'filter',
  long: 'filter',
  short: 'f',
  kind: 'list',
  valueName: 'KEY=VALUE',
  description: 'Only containers matching the filter, e.g. label=team=a or name=web (repeatable)',
};
const jsonFlag: FlagSpec = { key: 'json', long: 'json', kind: 'boolean', description: "Print the engine's JSON" };

export const globalFlags: readonly FlagSpec[] = [
  {
    key: 'host',
    long: 'host',
    short: 'H',
    kind: 'value',
    valueName: 'HOST',
    description: 'Engine to talk to, e.g. unix:///run/docker.sock or tcp://host:2376 (default: DOCKER_HOST, the context)',
  },
];

export const commandSpecs: readonly CommandSpec[] = [
  {
    name: 'run',
    usage: 'berth run [OPTIONS] IMAGE [COMMAND] [ARG...]',
    summary: 'Create and run a container, pulling the image if it is missing',
    stopAtFirstPositional: true,
    positionals: { min: 1, max: Infinity },
    flags: [
      { key: 'detach', long: 'detach', short: 'd', kind: 'boolean', description: 'Run in the background and print the container ID' },
      { key: 'tty', long: 'tty', short: 't', kind: 'boolean', description: 'Allocate a pseudo-TTY (output is not split into stdout and stderr)' },
      { key: 'rm', long: 'rm', kind: 'boolean', description: 'Remove the container when it exits' },
      { key: 'name', long: 'name', kind: 'value', valueName: 'NAME', description: 'Name the container' },
      { key: 'network', long: 'network', kind: 'value', valueName: 'MODE', description: "Network mode, e.g. none or host (default: the engine's)" },
      { key: 'env', long: 'env', short: 'e', kind: 'list', valueName: 'KEY=VALUE', description: 'Set an environment variable (repeatable); KEY alone takes its value from here' },
      { key: 'label', long: 'label', short: 'l', kind: 'list', valueName: 'KEY=VALUE', description: 'Set a label on the container (repeatable)' },
    ],
  },
  {
    name: 'ps',
    usage: 'berth ps [OPTIONS]',
    summary: 'List containers',
    positionals: { min: 0, max: 0 },
    flags: [
      { key: 'all', long: 'all', short: 'a', kind: 'boolean', description: 'Show all containers (default: only running ones)' },
      filterFlag,
      jsonFlag,
      { key: 'quiet', long: 'quiet', short: 'q', kind: 'boolean', description: 'Only print container IDs' },
      { key: 'noTrunc', long: 'no-trunc', kind: 'boolean', description: 'Do not shorten IDs and commands' },
    ],
  },
  {
    name: 'stop',
    usage: 'berth stop [OPTIONS] CONTAINER [CONTAINER...]',
    summary: 'Stop one or more running containers',
    positionals: { min: 1, max: Infinity },
    flags: [timeFlag],
  },
  {
    name: 'stop-all',
    usage: 'berth stop-all [OPTIONS]',
    summary: 'Stop every running container (or those matching --filter)',
    positionals: { min: 0, max: 0 },
    flags: [timeFlag, filterFlag],
  },
  {
    name: 'logs',
    usage: 'berth logs [OPTIONS] CONTAINER',
    summary: "Print a container's logs: its stdout to stdout, its stderr to stderr",
    positionals: { min: 1, max: 1 },
    flags: [
      { key: 'follow', long: 'follow', short: 'f', kind: 'boolean', description: 'Keep printing new output until the container stops' },
      { key: 'tail', long: 'tail', short: 'n', kind: 'value', valueName: 'N', description: 'Only the last N lines (default: all)' },
      { key: 'timestamps', long: 'timestamps', short: 't', kind: 'boolean', description: 'Prefix each line with its timestamp' },
    ],
  },
  {
    name: 'images',
    usage: 'berth images [OPTIONS]',
    summary: 'List images',
    positionals: { min: 0, max: 0 },
    flags: [
      { key: 'all', long: 'all', short: 'a', kind: 'boolean', description: 'Show intermediate images too' },
      jsonFlag,
    ],
  },
  {
    name: 'pull',
    usage: 'berth pull IMAGE[:TAG|@DIGEST]',
    summary: 'Pull an image; credentials come from the docker configuration (DOCKER_CONFIG)',
    positionals: { min: 1, max: 1 },
    flags: [],
  },
  {
    name: 'commit',
    usage: 'berth commit [OPTIONS] CONTAINER [REPOSITORY[:TAG]]',
    summary: "Create a new image from a container's changes and print its ID",
    positionals: { min: 1, max: 2 },
    flags: [
      { key: 'message', long: 'message', short: 'm', kind: 'value', valueName: 'MESSAGE', description: 'Commit message' },
      { key: 'author', long: 'author', short: 'a', kind: 'value', valueName: 'AUTHOR', description: 'Author, e.g. "Jane <jane@example.com>"' },
      { key: 'change', long: 'change', short: 'c', kind: 'list', valueName: 'INSTRUCTION', description: 'Apply a Dockerfile instruction, e.g. CMD ["sh"] (repeatable)' },
    ],
  },
  {
    name: 'wait',
    usage: 'berth wait CONTAINER',
    summary: 'Wait until a container stops and print its exit status',
    positionals: { min: 1, max: 1 },
    flags: [],
  },
  {
    name: 'version',
    usage: 'berth version',
    summary: "Show the engine's version, its API version and the negotiated one",
    positionals: { min: 0, max: 0 },
    flags: [],
  },
];

export function findCommandSpec(name: string): CommandSpec | undefined {
  return commandSpecs.find((spec) => spec.name === name);
}

/** Turns argv (without `node` and the script) into an invocation, or throws UsageError with a specific message. */
export function parseCommandLine(argv: readonly string[]): Invocation {
  const global = tokenize(argv, { flags: globalFlags, stopAtFirstPositional: true, commandPath: 'berth' });
  const [commandName, ...rest] = global.positionals;
  if (commandName === undefined || global.help) return { kind: 'help', topic: undefined };
  if (commandName === 'help') return { kind: 'help', topic: helpTopic(rest) };

  const spec = findCommandSpec(commandName);
  if (!spec) throw new UsageError(`'${commandName}' is not a berth command. See 'berth help'.`);
  const commandPath = `berth ${spec.name}`;
  const parsed = tokenize(rest, { flags: spec.flags, stopAtFirstPositional: spec.stopAtFirstPositional ?? false, commandPath });
  if (parsed.help) return { kind: 'help', topic: spec.name };
  checkPositionalCount(spec, parsed.positionals.length);

  const host = global.flags.values.get('host');
  if (host !== undefined && host.trim() === '') throw new UsageError('--host needs a value, e.g. unix:///run/docker.sock.');
  return { kind: 'command', global: { host }, command: buildCommand(spec.name, parsed.flags, parsed.positionals) };
}

function helpTopic(rest: readonly string[]): CommandName | undefined {
  const [topic] = rest;
  if (topic === undefined) return undefined;
  const spec = findCommandSpec(topic);
  if (!spec) throw new UsageError(`no help for '${topic}': it is not a berth command. See 'berth help'.`);
  return spec.name;
}

function checkPositionalCount(spec: CommandSpec, count: number): void {
  const { min, max } = spec.positionals;
  if (count >= min && count <= max) return;
  const plural = (n: number): string => `${n} argument${n === 1 ? '' : 's'}`;
  let requirement: string;
  if (max === 0) requirement = 'accepts no arguments';
  else if (min === max) requirement = `requires exactly ${plural(min)}`;
  else if (max === Infinity) requirement = `requires at least ${plural(min)}`;
  else requirement = `requires at least ${min} and at most ${plural(max)}`;
  throw new UsageError(`"berth ${spec.name}" ${requirement}. See 'berth ${spec.name} --help'.`);
}

function buildCommand(name: CommandName, flags: ParsedFlags, positionals: string[]): Command {
  const flag = (key: string): boolean => flags.booleans.has(key);
  const value = (key: string): string | undefined => flags.values.get(key);
  const list = (key: string): string[] => [...(flags.lists.get(key) ?? [])];
  switch (name) {
    case 'run': {
      const [image, ...cmd] = positionals as [string, ...string[]];
      return {
        name,
        options: {
          image,
          cmd,
          detach: flag('detach'),
          tty: flag('tty'),
          autoRemove: flag('rm'),
          name: nonEmpty(value('name'), '--name'),
          network: nonEmpty(value('network'), '--network'),
          env: list('env').map(checkEnvEntry),
          labels: parseKeyValues(list('label'), '--label'),
        },
      };
    }
    case 'ps':
      return {
        name,
        options: { all: flag('all'), json: flag('json'), quiet: flag('quiet'), noTrunc: flag('noTrunc'), filters: parseFilters(list('filter')) },
      };
    case 'stop':
      return { name, options: { ids: positionals, timeoutSeconds: parseSeconds(value('time')) } };
    case 'stop-all':
      return { name, options: { timeoutSeconds: parseSeconds(value('time')), filters: parseFilters(list('filter')) } };
    case 'logs':
      return {
        name,
        options: { id: positionals[0] as string, follow: flag('follow'), tail: parseTail(value('tail')), timestamps: flag('timestamps') },
      };
    case 'images':
      return { name, options: { all: flag('all'), json: flag('json') } };
    case 'pull':
      return { name, options: { image: positionals[0] as string } };
    case 'commit': {
      const [id, reference] = positionals as [string, string | undefined];
      const { repo, tag } = splitRepositoryTag(reference);
      return {
        name,
        options: { id, repo, tag, message: value('message'), author: value('author'), changes: list('change') },
      };
    }
    case 'wait':
      return { name, options: { id: positionals[0] as string } };
    case 'version':
      return { name, options: {} };
  }
}

function nonEmpty(text: string | undefined, flagName: string): string | undefined {
  if (text !== undefined && text.trim() === '') throw new UsageError(`${flagName} needs a non-empty value.`);
  return text;
}

function checkEnvEntry(entry: string): string {
  if (entry === '' || entry.startsWith('=')) {
    throw new UsageError(`invalid environment variable "${entry}": expected KEY=VALUE or KEY.`);
  }
  return entry;
}

function parseKeyValues(entries: readonly string[], flagName: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const entry of entries) {
    const equals = entry.indexOf('=');
    const key = equals === -1 ? entry : entry.slice(0, equals);
    if (key === '') throw new UsageError(`invalid ${flagName} "${entry}": expected KEY=VALUE.`);
    result[key] = equals === -1 ? '' : entry.slice(equals + 1);
  }
  return result;
}

/** `label=a=b` → `{ label: ['a=b'] }`, the shape the engine's `filters` query wants. */
export function parseFilters(entries: readonly string[]): Record<string, string[]> {
  const filters: Record<string, string[]> = {};
  for (const entry of entries) {
    const equals = entry.indexOf('=');
    if (equals <= 0 || equals === entry.length - 1) {
      throw new UsageError(`invalid filter "${entry}": expected KEY=VALUE, e.g. label=team=a or status=exited.`);
    }
    const key = entry.slice(0, equals);
    filters[key] = [...(filters[key] ?? []), entry.slice(equals + 1)];
  }
  return filters;
}

function parseSeconds(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`invalid value "${text}" for --time: expected a whole number of seconds.`);
  return Number(text);
}

function parseTail(text: string | undefined): number | 'all' | undefined {
  if (text === undefined || text === 'all') return text;
  if (!/^\d+$/.test(text)) throw new UsageError(`invalid value "${text}" for --tail: expected a number of lines or "all".`);
  return Number(text);
}

/** `127.0.0.1:5000/team/app:1.0` → repo `127.0.0.1:5000/team/app`, tag `1.0`: the tag follows the last `:` after the last `/`. */
export function splitRepositoryTag(reference: string | undefined): { repo: string | undefined; tag: string | undefined } {
  if (reference === undefined) return { repo: undefined, tag: undefined };
  if (reference.includes('@')) throw new UsageError(`invalid reference "${reference}": a commit gets a tag, not a digest.`);
  const colon = reference.lastIndexOf(':');
  const hasTag = colon > reference.lastIndexOf('/');
  const repo = hasTag ? reference.slice(0, colon) : reference;
  const tag = hasTag ? reference.slice(colon + 1) : undefined;
  if (repo === '' || tag === '') throw new UsageError(`invalid reference "${reference}": expected REPOSITORY[:TAG].`);
  if (repo !== repo.toLowerCase()) throw new UsageError(`invalid reference "${reference}": repository names must be lowercase.`);
  return { repo, tag };
}
