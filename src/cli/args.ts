/**
 * A small docker-style (pflag-like) argument tokenizer: long flags (`--name N`, `--name=N`), short flags
 * (`-d`, `-dt`, `-eK=V`, `-e K=V`), booleans with an optional `=true|false`, repeated list flags, and `--`.
 * It knows nothing about what the commands mean; `commands.ts` turns its output into typed invocations.
 */

export type FlagKind = 'boolean' | 'value' | 'list';

export interface FlagSpec {
  /** The key the parsed value is stored under. */
  readonly key: string;
  readonly long: string;
  readonly short?: string;
  readonly kind: FlagKind;
  /** Shown in help, e.g. `SECONDS`. */
  readonly valueName?: string;
  readonly description: string;
  /** A boolean that is on unless turned off (`--human=false`), as docker history's `-H`. */
  readonly defaultTrue?: boolean;
}

export interface ParsedFlags {
  readonly booleans: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, string>;
  readonly lists: ReadonlyMap<string, readonly string[]>;
}

export interface TokenizeResult {
  readonly flags: ParsedFlags;
  readonly positionals: string[];
  readonly help: boolean;
}

export interface TokenizeOptions {
  readonly flags: readonly FlagSpec[];
  /** Everything after the first positional is positional too: `run IMAGE CMD...` hands CMD's options to CMD. */
  readonly stopAtFirstPositional?: boolean;
  /** Used in messages: `See 'berth run --help'`. */
  readonly commandPath: string;
}

/** A mistake in the command line. Like docker, berth exits 125 for these, unless `exitCode` says otherwise. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /**
   * docker exits 1, not 125, for a wrong number of arguments and for `-it` without a terminal: those come from the
   * command's own checks, not from its flag parser, and scripts tell the two apart.
   */
  constructor(
    message: string,
    readonly exitCode = 125,
  ) {
    super(message);
  }
}

export const helpFlag: FlagSpec = { key: 'help', long: 'help', short: 'h', kind: 'boolean', description: 'Print usage' };

/**
 * How the tokenizer reads one argument, by its shape: a table rather than one loop of nested branches, so that each
 * shape's rule (and its message) stands alone. A reader returns 'stop' when every argument left is positional.
 */
type ArgShape = 'end-of-flags' | 'long' | 'short-group' | 'positional';

function shapeOf(arg: string): ArgShape {
  if (arg === '--') return 'end-of-flags';
  if (arg.startsWith('--')) return 'long';
  return arg.startsWith('-') && arg.length > 1 ? 'short-group' : 'positional';
}

const readers: Record<ArgShape, (state: TokenizerState, arg: string) => 'next' | 'stop'> = {
  'end-of-flags': () => 'stop',
  long: readLongFlag,
  'short-group': readShortGroup,
  positional: (state, arg) => {
    state.positionals.push(arg);
    return state.options.stopAtFirstPositional ? 'stop' : 'next';
  },
};

export function tokenize(argv: readonly string[], options: TokenizeOptions): TokenizeResult {
  const state = new TokenizerState(argv, options);
  while (state.index < argv.length) {
    const arg = state.take();
    if (readers[shapeOf(arg)](state, arg) === 'stop') {
      state.positionals.push(...argv.slice(state.index));
      break;
    }
  }
  return state.result();
}

/** What the tokenizer has read so far, and where it is in the arguments. */
class TokenizerState {
  readonly specs: readonly FlagSpec[];
  readonly seeHelp: string;
  readonly booleans: Set<string>;
  readonly values = new Map<string, string>();
  readonly lists = new Map<string, string[]>();
  readonly positionals: string[] = [];
  index = 0;

  constructor(
    private readonly argv: readonly string[],
    readonly options: TokenizeOptions,
  ) {
    this.specs = [...options.flags, helpFlag];
    this.seeHelp = `See '${options.commandPath} --help'.`;
    this.booleans = new Set(options.flags.filter((spec) => spec.kind === 'boolean' && spec.defaultTrue === true).map((spec) => spec.key));
  }

  take(): string {
    return this.argv[this.index++] as string;
  }

  /** The next argument as the value of the flag SHOWN (as the message names it). */
  takeValue(shown: string): string {
    if (this.index >= this.argv.length) throw new UsageError(`flag needs an argument: ${shown}. ${this.seeHelp}`);
    return this.take();
  }

  store(spec: FlagSpec, value: string): void {
    if (spec.kind === 'list') this.lists.set(spec.key, [...(this.lists.get(spec.key) ?? []), value]);
    else this.values.set(spec.key, value);
  }

  storeBoolean(spec: FlagSpec, text: string | undefined, shown: string): void {
    const value = text === undefined ? true : parseBoolean(text);
    if (value === undefined) throw new UsageError(`invalid argument "${text}" for "${shown}" flag: expected true or false. ${this.seeHelp}`);
    if (value) this.booleans.add(spec.key);
    else this.booleans.delete(spec.key);
  }

  result(): TokenizeResult {
    const help = this.booleans.has(helpFlag.key);
    this.booleans.delete(helpFlag.key);
    return { flags: { booleans: this.booleans, values: this.values, lists: this.lists }, positionals: this.positionals, help };
  }
}

/** `--name`, `--name=VALUE` or `--name VALUE`. */
function readLongFlag(state: TokenizerState, arg: string): 'next' {
  const equals = arg.indexOf('=');
  const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
  const inline = equals === -1 ? undefined : arg.slice(equals + 1);
  const spec = state.specs.find((candidate) => candidate.long === name);
  if (!spec) throw new UsageError(`unknown flag: --${name}. ${state.seeHelp}`);
  if (spec.kind === 'boolean') state.storeBoolean(spec, inline, `--${name}`);
  else state.store(spec, inline ?? state.takeValue(`--${name}`));
  return 'next';
}

/**
 * A group of short flags: booleans stack (`-dt`, `-d=false` ends the group); the first flag that takes a value takes
 * the rest of the group (`-eK=V`, `-e=K=V`), or else the next argument.
 */
function readShortGroup(state: TokenizerState, arg: string): 'next' {
  for (let position = 1; position < arg.length; position++) {
    const letter = arg[position] as string;
    const spec = state.specs.find((candidate) => candidate.short === letter);
    if (!spec) throw new UsageError(`unknown shorthand flag: '${letter}' in ${arg}. ${state.seeHelp}`);
    const rest = arg.slice(position + 1);
    if (spec.kind === 'boolean' && !rest.startsWith('=')) {
      state.storeBoolean(spec, undefined, `-${letter}`);
      continue;
    }
    if (spec.kind === 'boolean') state.storeBoolean(spec, rest.slice(1), `-${letter}`);
    else if (rest.length > 0) state.store(spec, rest.startsWith('=') ? rest.slice(1) : rest);
    else state.store(spec, state.takeValue(`'${letter}' in ${arg}`));
    return 'next';
  }
  return 'next';
}

function parseBoolean(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  if (['true', '1', 't'].includes(lower)) return true;
  if (['false', '0', 'f'].includes(lower)) return false;
  return undefined;
}
