/**
 * A prune's filters, read as dockerd reads them: which keys each kind of prune accepts (anything else is refused before
 * anything is listed or removed), `label` / `label!` matched the way dockerd's prune matches them, and `until`.
 * Berth applies them itself: the list endpoints know no `label!`, and what is removed is what the plan lists.
 */
import { EngineError, type ListFilters } from '../connection';

export type PruneKind = 'containers' | 'dangling-images' | 'unused-images' | 'volumes' | 'networks' | 'build-cache';

/** The filter keys dockerd's prune endpoint of each kind accepts (a volume prune has no `until`). */
const ACCEPTED_KEYS: Readonly<Record<PruneKind, readonly string[]>> = {
  containers: ['label', 'label!', 'until'],
  'dangling-images': ['label', 'label!', 'until'],
  'unused-images': ['label', 'label!', 'until'],
  volumes: ['label', 'label!'],
  networks: ['label', 'label!', 'until'],
  'build-cache': ['until'],
};

/**
 * Throws when a filter key is not one these prunes accept, with dockerd's own words ("Invalid filter 'bogus'") and
 * the keys that would do. A prune of several kinds (system prune) takes what any of them takes, except `until` with
 * volumes, which docker refuses too.
 */
export function validatePruneFilters(kinds: readonly PruneKind[], filters: ListFilters): void {
  const accepted = new Set(kinds.flatMap((kind) => ACCEPTED_KEYS[kind]));
  for (const key of Object.keys(filters)) {
    if (!accepted.has(key)) {
      const examples = `label=team=a, label!=keep${accepted.has('until') ? ', until=24h' : ''}`;
      throw new EngineError('bad-request', `Invalid filter '${key}'`, { hint: `This prune accepts ${[...accepted].join(', ')} (e.g. ${examples})` });
    }
  }
  if (kinds.includes('volumes') && filters['until'] !== undefined) {
    throw new EngineError('bad-request', 'The "until" filter is not supported with volumes', { hint: 'Prune the volumes without it, or leave the volumes out' });
  }
  for (const value of filters['until'] ?? []) {
    if (untilSeconds(value) === undefined) {
      throw new EngineError('bad-request', `Invalid filter 'until=${value}'`, { hint: 'Give a duration such as 24h or 90m, a date such as 2026-01-01T00:00:00Z, or unix seconds' });
    }
  }
}

/** `until=24h` / `until=2026-01-01T00:00:00Z` / unix seconds, as the engine reads it, to seconds since the epoch. */
export function untilSeconds(value: string, now = Date.now()): number | undefined {
  // A Go duration, as docker reads it: `24h`, `1h30m`, `90s`, `1.5h`.
  // \u00b5 is the micro sign, escaped so that the CLI's bundle stays ASCII (see timeArgument.ts).
  if (/^(\d+(\.\d+)?(ns|us|\u00b5s|ms|s|m|h))+$/.test(value)) {
    const scale: Readonly<Record<string, number>> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 0.001, s: 1, m: 60, h: 3600 };
    let seconds = 0;
    for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ns|us|\u00b5s|ms|s|m|h)/g)) seconds += Number(amount) * (scale[unit ?? 's'] ?? 1);
    return now / 1000 - seconds;
  }
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed / 1000;
}

/** Whether an object created at CREATED (seconds) is older than every `until` given. */
export function olderThanUntil(filters: ListFilters, created: number, now = Date.now()): boolean {
  return (filters['until'] ?? []).every((value) => {
    const before = untilSeconds(value, now);
    return before === undefined || created < before;
  });
}

/**
 * dockerd's prune label match: every `label` entry must match, and the object is excluded when every `label!` entry
 * matches (`label!=keep` excludes what has the label keep, `label!=k=v` what has k=v).
 */
export function matchesPruneLabels(filters: ListFilters, labels: Readonly<Record<string, string>> | null | undefined): boolean {
  const own = labels ?? {};
  const matchesAll = (entries: readonly string[]): boolean =>
    entries.every((entry) => {
      const equals = entry.indexOf('=');
      if (equals === -1) return Object.prototype.hasOwnProperty.call(own, entry);
      const key = entry.slice(0, equals);
      return Object.prototype.hasOwnProperty.call(own, key) && own[key] === entry.slice(equals + 1);
    });
  if (!matchesAll(filters['label'] ?? [])) return false;
  const excluded = filters['label!'];
  return excluded === undefined || excluded.length === 0 || !matchesAll(excluded);
}
