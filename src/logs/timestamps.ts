/**
 * Log lines fetched with `timestamps=1` start with an RFC 3339 timestamp with nanoseconds. Berth uses it
 * to resume a log stream exactly where it stopped: `since` only has second precision, so lines at or
 * before the last one shown are dropped on resume. No `vscode` here.
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

/** Whole seconds for the logs endpoint's `since` (which includes that whole second). */
export function sinceSeconds(nanos: bigint): number {
  return Number(nanos / 1_000_000_000n);
}

/** `SEC.NANOS` for the events endpoint's `since`. */
export function eventsSince(nanos: bigint): string {
  return `${nanos / 1_000_000_000n}.${(nanos % 1_000_000_000n).toString().padStart(9, '0')}`;
}

/** Splits decoded text into lines per stream, keeping the `\n`; holds back an unfinished line. */
export class LineSplitter {
  private readonly partial = new Map<string, string>();

  push(stream: string, text: string): string[] {
    const combined = (this.partial.get(stream) ?? '') + text;
    const lines: string[] = [];
    let start = 0;
    for (let index = combined.indexOf('\n'); index !== -1; index = combined.indexOf('\n', start)) {
      lines.push(combined.slice(start, index + 1));
      start = index + 1;
    }
    this.partial.set(stream, combined.slice(start));
    return lines;
  }

  /** The unfinished lines, emptied. */
  takePartials(): Array<[stream: string, text: string]> {
    const rest: Array<[string, string]> = [];
    for (const [stream, text] of this.partial) if (text) rest.push([stream, text]);
    this.partial.clear();
    return rest;
  }
}
