/** Sample statistics for the benchmarks: median and the p10–p90 spread, from sorted copies of the samples. */

export interface Summary {
  readonly samples: number;
  readonly median: number;
  readonly p10: number;
  readonly p90: number;
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * fraction;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower] as number;
  const high = sorted[upper] as number;
  return low + (high - low) * (position - lower);
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return { samples: sorted.length, median: percentile(sorted, 0.5), p10: percentile(sorted, 0.1), p90: percentile(sorted, 0.9) };
}

/** Milliseconds since `start` (from `process.hrtime.bigint()`). */
export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** `[a, b, c]` rotated by `round`, so no peer always runs first (or right after the same neighbour). */
export function rotated<T>(items: readonly T[], round: number): T[] {
  const shift = round % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
