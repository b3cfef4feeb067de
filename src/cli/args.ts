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

export function tokenize(argv: readonly string[], options: TokenizeOptions): TokenizeResult {
  const specs = [...options.flags, helpFlag];
  const seeHelp = `See '${options.commandPath} --help'.`;
  const booleans = new Set<string>(options.flags.filter((spec) => spec.kind === 'boolean' && spec.defaultTrue === true).map((spec) => spec.key));
  const values = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const positionals: string[] = [];

  const store = (spec: FlagSpec, value: string): void => {
    if (spec.kind === 'list') lists.set(spec.key, [...(lists.get(spec.key) ?? []), value]);
    else values.set(spec.key, value);
  };
  const storeBoolean = (spec: FlagSpec, text: string | undefined, shown: string): void => {
    const value = text === undefined ? true : parseBoolean(text);
    if (value === undefined) {
      throw new UsageError(`invalid argument "${text}" for "${shown}" flag: expected true or false. ${seeHelp}`);
    }
    if (value) booleans.add(spec.key);
    else booleans.delete(spec.key);
  };

  let index = 0;
  while (index < argv.length) {
    const arg = argv[index++] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(index));
      break;
    }
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
      const inline = equals === -1 ? undefined : arg.slice(equals + 1);
      const spec = specs.find((candidate) => candidate.long === name);
      if (!spec) throw new UsageError(`unknown flag: --${name}. ${seeHelp}`);
      if (spec.kind === 'boolean') {
        storeBoolean(spec, inline, `--${name}`);
        continue;
      }
      if (inline !== undefined) {
        store(spec, inline);
        continue;
      }
      if (index >= argv.length) throw new UsageError(`flag needs an argument: --${name}. ${seeHelp}`);
      store(spec, argv[index++] as string);
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      // A group of short flags: booleans stack; the first flag that takes a value takes the rest of the group, or
      // else the next argument.
      for (let position = 1; position < arg.length; position++) {
        const letter = arg[position] as string;
        const spec = specs.find((candidate) => candidate.short === letter);
        if (!spec) throw new UsageError(`unknown shorthand flag: '${letter}' in ${arg}. ${seeHelp}`);
        if (spec.kind === 'boolean') {
          if (arg[position + 1] === '=') {
            storeBoolean(spec, arg.slice(position + 2), `-${letter}`);
            break;
          }
          storeBoolean(spec, undefined, `-${letter}`);
          continue;
        }
        const rest = arg.slice(position + 1);
        if (rest.length > 0) {
          store(spec, rest.startsWith('=') ? rest.slice(1) : rest);
        } else {
          if (index >= argv.length) throw new UsageError(`flag needs an argument: '${letter}' in ${arg}. ${seeHelp}`);
          store(spec, argv[index++] as string);
        }
        break;
      }
      continue;
    }
    positionals.push(arg);
    if (options.stopAtFirstPositional) {
      positionals.push(...argv.slice(index));
      break;
    }
  }
  const help = booleans.has(helpFlag.key);
  booleans.delete(helpFlag.key);
  return { flags: { booleans, values, lists }, positionals, help };
}

function parseBoolean(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  if (['true', '1', 't'].includes(lower)) return true;
  if (['false', '0', 'f'].includes(lower)) return false;
  return undefined;
}
