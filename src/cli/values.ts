/** Checks and conversions of flag values and arguments, shared by the command entries. Pure functions. */
import { splitRepoTag } from '../common/imageName';
import { UsageError } from './args';

export function nonEmpty(text: string | undefined, flagName: string): string | undefined {
  if (text !== undefined && text.trim() === '') throw new UsageError(`${flagName} needs a non-empty value.`);
  return text;
}

export function checkEnvEntry(entry: string): string {
  if (entry === '' || entry.startsWith('=')) {
    throw new UsageError(`invalid environment variable "${entry}": expected KEY=VALUE or KEY.`);
  }
  return entry;
}

export function parseKeyValues(entries: readonly string[], flagName: string): Record<string, string> {
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

/** docker's `-t`: whole seconds to wait before the kill; -1 (any negative number) waits as long as it takes. */
export function parseSeconds(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text)) throw new UsageError(`invalid value "${text}" for --time: expected a whole number of seconds (-1 waits without limit).`);
  return Math.max(Number(text), -1);
}

/** `ps -n N` (a negative N, docker's default -1, means no limit) and `-l`, which is `-n 1`. */
export function parseLast(text: string | undefined, latest: boolean): number | undefined {
  if (text !== undefined && !/^-?\d+$/.test(text)) throw new UsageError(`invalid argument "${text}" for "-n, --last" flag: expected a whole number.`);
  const last = text !== undefined ? Number(text) : latest ? 1 : -1;
  return last > 0 ? last : undefined;
}

/** `--timeout` is docker's name for `-t`, `--time` the older one; both given must agree. */
export function timeoutOf(time: string | undefined, timeout: string | undefined): string | undefined {
  if (time !== undefined && timeout !== undefined && time !== timeout) throw new UsageError(`--time ${time} and --timeout ${timeout} disagree: give one of them.`);
  return timeout ?? time;
}

/**
 * `--tail`: a number of lines, or everything. Like docker (whose engine reads any value that is not a whole number
 * as "all"), a value such as `abc` or `-1` prints every line rather than failing.
 */
export function parseTail(text: string | undefined): number | 'all' | undefined {
  if (text === undefined) return undefined;
  return /^\d+$/.test(text) ? Number(text) : 'all';
}

/** A reference that docker refuses as "invalid reference format": not a usage mistake, so it exits 1 as docker does. */
export class InvalidReferenceError extends Error {
  override readonly name = 'InvalidReferenceError';
}

/** `127.0.0.1:5000/team/app:1.0` → repo `127.0.0.1:5000/team/app`, tag `1.0`: the tag follows the last `:` after the last `/`. */
export function splitRepositoryTag(reference: string | undefined): { repo: string | undefined; tag: string | undefined } {
  if (reference === undefined) return { repo: undefined, tag: undefined };
  if (reference.includes('@')) throw new InvalidReferenceError(`invalid reference "${reference}": a commit gets a tag, not a digest.`);
  const { repo, tag } = splitRepoTag(reference);
  if (repo === '' || tag === '') throw new InvalidReferenceError(`invalid reference "${reference}": expected REPOSITORY[:TAG].`);
  if (repo !== repo.toLowerCase()) throw new InvalidReferenceError(`invalid reference "${reference}": repository names must be lowercase.`);
  return { repo, tag };
}

export interface CopyArguments {
  readonly direction: 'from-container' | 'to-container';
  readonly container: string;
  readonly containerPath: string;
  readonly hostPath: string;
}

/**
 * docker cp's reading of its two arguments: `NAME:PATH` names a container path when NAME holds no `/` (so a host
 * path with a colon is written `./a:b`); exactly one side is in a container.
 */
export function parseCopyArguments(first: string, second: string): CopyArguments {
  const split = (argument: string): { container: string; path: string } | undefined => {
    const colon = argument.indexOf(':');
    if (colon <= 0 || argument.slice(0, colon).includes('/')) return undefined;
    return { container: argument.slice(0, colon), path: argument.slice(colon + 1) };
  };
  const from = split(first);
  const to = split(second);
  if ((from === undefined) === (to === undefined)) {
    throw new UsageError('copying between containers or between host paths is not supported: give one CONTAINER:PATH and one host path.');
  }
  const side = (from ?? to) as { container: string; path: string };
  if (side.path === '') throw new UsageError(`"${from ? first : second}": the path in the container is empty.`);
  const containerPath = side.path.startsWith('/') ? side.path : `/${side.path}`;
  return from
    ? { direction: 'from-container', container: from.container, containerPath, hostPath: second }
    : { direction: 'to-container', container: side.container, containerPath, hostPath: first };
}
