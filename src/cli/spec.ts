/**
 * How a berth command is declared: one entry holds its usage, its typed flags, how the parsed command line becomes
 * its options (build), how it runs, and the text of its help and of its row in docs/cli.md. The parser, `berth help` and
 * docs/cli.md's command table all read these entries, so a command is written once.
 */
import type { FlagSpec, ParsedFlags } from './args';
import type { CommandDeps } from './io';

interface FlagBase {
  readonly long: string;
  readonly short?: string;
  readonly description: string;
}
export interface BooleanFlag extends FlagBase {
  readonly kind: 'boolean';
  /** On unless turned off with `=false`. */
  readonly defaultTrue?: boolean;
}
export interface ValueFlag extends FlagBase {
  readonly kind: 'value';
  readonly valueName: string;
}
export interface ListFlag extends FlagBase {
  readonly kind: 'list';
  readonly valueName: string;
}
export type FlagDefinition = BooleanFlag | ValueFlag | ListFlag;
export type FlagTable = Readonly<Record<string, FlagDefinition>>;

/** What `build` receives for a flag table: booleans as booleans, values as string | undefined, lists as arrays. */
export type FlagValues<F extends FlagTable> = {
  readonly [K in keyof F]: F[K] extends BooleanFlag ? boolean : F[K] extends ValueFlag ? string | undefined : string[];
};

export function booleanFlag(long: string, short: string | undefined, description: string, defaultTrue = false): BooleanFlag {
  return { kind: 'boolean', long, description, ...(short !== undefined ? { short } : {}), ...(defaultTrue ? { defaultTrue } : {}) };
}
export function valueFlag(long: string, short: string | undefined, valueName: string, description: string): ValueFlag {
  return { kind: 'value', long, valueName, description, ...(short !== undefined ? { short } : {}) };
}
export function listFlag(long: string, short: string | undefined, valueName: string, description: string): ListFlag {
  return { kind: 'list', long, valueName, description, ...(short !== undefined ? { short } : {}) };
}

export interface CommandEntry<F extends FlagTable, O> {
  readonly usage: string;
  /** One line for `berth help`, without a final period. */
  readonly summary: string;
  /** Markdown for docs/cli.md's command table: what the command does beyond its summary. */
  readonly details: string;
  readonly flags: F;
  readonly positionals: { readonly min: number; readonly max: number };
  /** Everything after the first positional is positional too: `run IMAGE CMD...` hands CMD's options to CMD. */
  readonly stopAtFirstPositional?: boolean;
  /** docker run's exit statuses for berth's own failures (125/126/127) instead of 1. */
  readonly runStatuses?: boolean;
  /** Turns the parsed command line into the command's options; throws UsageError for values it refuses. */
  build(flags: FlagValues<F>, positionals: readonly string[]): O;
  /** Runs the command; loads what it needs only now, so `berth --help` or `berth ps` load no more than they use. */
  run(options: O, deps: CommandDeps): Promise<number>;
}

/** An entry with its types kept (for `Command`) and the untyped view the parser and help use. */
export interface DeclaredCommand<F extends FlagTable, O> extends CommandEntry<F, O> {
  readonly flagSpecs: readonly FlagSpec[];
  buildFromParsed(flags: ParsedFlags, positionals: readonly string[]): O;
}

export function declareCommand<F extends FlagTable, O>(entry: CommandEntry<F, O>): DeclaredCommand<F, O> {
  const keyed = Object.entries(entry.flags).map(([key, flag]) => ({ key, flag }));
  const flagSpecs: FlagSpec[] = keyed.map(({ key, flag }) => ({ key, ...flag }));
  const valuesOf = (parsed: ParsedFlags): FlagValues<F> => {
    const values: Record<string, boolean | string | string[] | undefined> = {};
    for (const { key, flag } of keyed) {
      if (flag.kind === 'boolean') values[key] = parsed.booleans.has(key);
      else if (flag.kind === 'value') values[key] = parsed.values.get(key);
      else values[key] = [...(parsed.lists.get(key) ?? [])];
    }
    return values as FlagValues<F>;
  };
  return { ...entry, flagSpecs, buildFromParsed: (parsed, positionals) => entry.build(valuesOf(parsed), positionals) };
}
