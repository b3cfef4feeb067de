/**
 * Interleaved measurement: every round runs a batch of each contender in a rotated order, so slow drift of the
 * machine (other processes, the engine's caches, CPU frequency) spreads over all contenders instead of hitting one.
 */
import { elapsedMs, rotated, summarize } from './stats';

export interface Contender {
  readonly name: string;
  /** One timed operation. */
  readonly run: () => Promise<unknown>;
  /** Total timed samples, spread over the rounds. */
  readonly samples: number;
  /** Untimed runs before the first round (connections opened, JIT warm, API version negotiated). */
  readonly warmup: number;
}

export interface Measurement {
  /** Milliseconds per call. */
  readonly samples: number[];
  /** The same samples, one array per round, for comparisons paired by round. */
  readonly byRound: number[][];
  /** CPU time (user + system) of this process per call, averaged over all timed calls, in milliseconds. */
  cpuMsPerCall: number;
}

export async function measureInterleaved(contenders: readonly Contender[], rounds: number): Promise<Map<string, Measurement>> {
  const results = new Map<string, Measurement>(contenders.map((contender) => [contender.name, { samples: [], byRound: [], cpuMsPerCall: 0 }]));
  const cpuMicros = new Map<string, number>(contenders.map((contender) => [contender.name, 0]));
  for (const contender of contenders) {
    for (let index = 0; index < contender.warmup; index++) await contender.run();
  }
  for (let round = 0; round < rounds; round++) {
    for (const contender of rotated(contenders, round)) {
      const batch = Math.ceil(contender.samples / rounds);
      const { samples, byRound } = results.get(contender.name) as Measurement;
      const roundSamples: number[] = [];
      const cpuBefore = process.cpuUsage();
      for (let index = 0; index < batch; index++) {
        const start = process.hrtime.bigint();
        await contender.run();
        roundSamples.push(elapsedMs(start));
      }
      samples.push(...roundSamples);
      byRound.push(roundSamples);
      const cpu = process.cpuUsage(cpuBefore);
      cpuMicros.set(contender.name, (cpuMicros.get(contender.name) ?? 0) + cpu.user + cpu.system);
    }
  }
  for (const [name, measurement] of results) measurement.cpuMsPerCall = (cpuMicros.get(name) ?? 0) / 1000 / measurement.samples.length;
  return results;
}

/**
 * The median over rounds of (median of `a` in the round / median of `b` in the same round). Load on a shared
 * machine drifts between rounds; pairing by round compares the two under the same conditions.
 */
export function pairedRatio(a: Measurement, b: Measurement): number {
  const ratios = a.byRound.map((round, index) => summarize(round).median / summarize(b.byRound[index] ?? []).median).filter(Number.isFinite);
  return summarize(ratios).median;
}
