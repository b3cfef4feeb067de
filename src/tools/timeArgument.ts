/**
 * `since` and `until` as docker reads them (its GetTimestamp): a Go duration before now (`10m`, `1h30m`), unix
 * seconds (`1732780800`, `1732780800.5`), or an RFC 3339 time (`2026-11-28T06:00:00Z`, with or without fraction and
 * zone; a date alone is midnight UTC). Returns unix seconds, or a message saying what to write instead.
 */
const GO_DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;
const DURATION_PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
const SECONDS_PER_UNIT: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
const RFC3339ISH = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export type TimeArgument = { readonly seconds: number } | { readonly error: string };

export function parseTimeArgument(text: string, nowMs: number): TimeArgument {
  const value = text.trim();
  if (GO_DURATION.test(value)) {
    let seconds = 0;
    for (const [, amount, unit] of value.matchAll(DURATION_PART)) seconds += Number(amount) * (SECONDS_PER_UNIT[unit ?? 's'] ?? 1);
    return { seconds: nowMs / 1000 - seconds };
  }
  if (/^\d+(?:\.\d+)?$/.test(value)) return { seconds: Number(value) };
  if (RFC3339ISH.test(value)) {
    const withZone = /T|\s/.test(value) && !/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? `${value}Z` : value;
    const parsed = Date.parse(withZone.replace(' ', 'T'));
    if (!Number.isNaN(parsed)) return { seconds: parsed / 1000 };
  }
  return { error: `"${text}" is not a time: write a duration before now (10m, 1h30m), unix seconds, or an RFC 3339 time (2026-11-28T06:00:00Z)` };
}
