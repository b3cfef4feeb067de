/**
 * docker's reading of `--since` and `--until` (its GetTimestamp): a Go duration before now (`10m`, `1h30m`, `1.5h`),
 * an RFC 3339 date or time (`2024-05-01`, `2024-05-01T13:23`, `2024-05-01T13:23:37.5+02:00`; local time without a
 * zone), or Unix seconds (`1714560000`, `1714560000.5`), passed on as given. The engine gets `seconds.nanoseconds`.
 */

/** A value that is no time; `reason` is docker's words, each front adds its own advice. */
export class TimeArgumentError extends Error {
  override readonly name = 'TimeArgumentError';
  constructor(readonly reason: string) {
    super(reason);
  }
}

const DURATION_UNITS_NS: Readonly<Record<string, number>> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
// The micro signs are escaped: a regular expression keeps its characters as written in the CLI's bundle, and one
// character outside ASCII makes V8 hold the whole bundle's source as two-byte text (docs/benchmarks.md).
const DURATION = /^[+-]?((\d+\.?\d*|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h))+$/;
const DURATION_PART = /(\d+\.?\d*|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/g;
const UNIX_SECONDS = /^-?\d+(\.\d{1,9})?$/;
const RFC3339_LIKE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?)?(Z|[+-]\d{2}:\d{2})?$/i;

/** The engine's form of a since/until value, relative to `nowMs`; throws a TimeArgumentError. */
export function engineTimestamp(value: string, nowMs: number): string {
  if (value !== '0' && DURATION.test(value)) {
    const sign = value.startsWith('-') ? -1 : 1;
    let nanoseconds = 0;
    for (const [, amount, unit] of value.matchAll(DURATION_PART)) nanoseconds += Number(amount) * (DURATION_UNITS_NS[unit as string] ?? 0);
    return String(Math.floor((nowMs - (sign * nanoseconds) / 1e6) / 1000));
  }
  const parts = RFC3339_LIKE.exec(value);
  if (parts) return fromDateParts(parts, value);
  if (value.includes('-') && !UNIX_SECONDS.test(value)) throw new TimeArgumentError(`parsing time "${value}": expected a date like 2024-05-01T13:23:37Z`);
  if (!UNIX_SECONDS.test(value)) throw new TimeArgumentError(`failed to parse value as time or duration: "${value}"`);
  return value;
}

function fromDateParts(parts: RegExpExecArray, value: string): string {
  const [, year, month, day, hour, minute, second, fraction, zone] = parts;
  const fields = [year, month, day, hour ?? '0', minute ?? '0', second ?? '0'].map(Number) as [number, number, number, number, number, number];
  const [y, mo, d, h, mi, s] = fields;
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) throw new TimeArgumentError(`parsing time "${value}": a field is out of range`);
  let seconds: number;
  if (zone === undefined) {
    seconds = Math.floor(new Date(y, mo - 1, d, h, mi, s).getTime() / 1000);
  } else {
    const offsetMinutes = /^z$/i.test(zone) ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
    seconds = Date.UTC(y, mo - 1, d, h, mi, s) / 1000 - offsetMinutes * 60;
  }
  const nanoseconds = fraction === undefined ? '000000000' : fraction.slice(1).padEnd(9, '0');
  return `${seconds}.${nanoseconds}`;
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The same value as Unix seconds (with a fraction), for clients that take a number. */
export function timeArgumentSeconds(value: string, nowMs: number): number {
  return Number(engineTimestamp(value.trim(), nowMs));
}
