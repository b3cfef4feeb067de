/**
 * RFC 3339 times as the engine writes them (inspect's Created/StartedAt/FinishedAt, log stamps), turned into
 * nanoseconds for the events endpoint's `since`. No `vscode` here.
 */

const TIMESTAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d) ?/;

/** Nanoseconds since the epoch, or undefined when `text` does not start with a timestamp. */
export function parseTimestamp(text: string): { nanos: bigint; length: number } | undefined {
  const match = TIMESTAMP.exec(text);
  if (!match) return undefined;
  const [whole, base, fraction = '', zone] = match;
  const ms = Date.parse(`${base}${zone}`);
  if (!Number.isFinite(ms)) return undefined;
  const nanos = BigInt(ms) * 1_000_000n + BigInt(fraction.padEnd(9, '0'));
  return { nanos, length: whole.length };
}

/** `SEC.NANOS` for the events endpoint's `since`. */
export function eventsSince(nanos: bigint): string {
  return `${nanos / 1_000_000_000n}.${(nanos % 1_000_000_000n).toString().padStart(9, '0')}`;
}
