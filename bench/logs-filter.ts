/**
 * `node --import tsx bench/logs-filter.ts [GiB]`: the cost of the logs filter (src/logs/lineFilter.ts) on a 1 GiB log.
 * The stream is the engine's wire form of `logs?timestamps=1` (multiplexed frames, one stamped message each), made
 * in memory so the engine's own speed is not measured. Each pass reads the whole stream through the log reader
 * (src/logs/logMessages.ts) into a sink that counts bytes: the raw read (no filter), then with a text filter and a
 * regular expression that keep one line in ten, and a filter that keeps nothing, in rotated rounds. Reported: each
 * pass's throughput (per CPU second and per wall second, medians) against the raw read's in the same run, and the
 * peak RSS above the start of the pass. Asserts nothing; writes
 * bench/logs-filter-results.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { OutputChunk } from '../src/engine';
import { FilteredSink, LineFilter, type LogFilterSpec } from '../src/logs/lineFilter';
import type { LogSink } from '../src/logs/logFollower';
import { LogMessageReader } from '../src/logs/logMessages';
import { rotated, summarize, type Summary } from './stats';

const GiB = 1024 ** 3;
const total = Number(process.argv[2] ?? '1') * GiB;
const LINES_PER_CHUNK = 512;

/** One chunk of the stream: LINES_PER_CHUNK messages of about 100 bytes, every tenth with `ERROR` in it. */
function makeChunks(): OutputChunk[] {
  const chunks: OutputChunk[] = [];
  for (let variant = 0; variant < 10; variant++) {
    for (let index = 0; index < LINES_PER_CHUNK; index++) {
      const word = (index + variant) % 10 === 0 ? 'ERROR' : 'info ';
      const stamp = `2026-11-28T06:00:${String(variant).padStart(2, '0')}.${String(index).padStart(9, '0')}Z`;
      const data = Buffer.from(`${stamp} ${word} GET /api/items/${index} 200 in 12ms user=someone agent=bench-client/1.0\n`);
      chunks.push({ stream: 'stdout', data, frameEnd: true });
    }
  }
  return chunks;
}

interface Pass {
  readonly name: string;
  readonly seconds: number;
  /** User + system CPU seconds of this process during the pass: on a shared machine, what the pass itself cost. */
  readonly cpuSeconds: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly peakRssMiB: number;
}

function run(name: string, chunks: readonly OutputChunk[], spec: LogFilterSpec | undefined): Pass {
  global.gc?.();
  const startRss = process.memoryUsage().rss;
  let peak = startRss;
  let bytesOut = 0;
  const counting: LogSink = { output: (_stream, text) => (bytesOut += text.length), notice: () => undefined };
  const filter = spec ? LineFilter.create(spec) : undefined;
  if (filter !== undefined && !(filter instanceof LineFilter)) throw new Error(filter.error);
  const sink = filter ? new FilteredSink(counting, filter) : counting;
  const reader = new LogMessageReader((stream, text) => sink.output(stream, text));
  let bytesIn = 0;
  const cpuStart = process.cpuUsage();
  const started = process.hrtime.bigint();
  let round = 0;
  while (bytesIn < total) {
    for (const chunk of chunks) {
      reader.push(chunk, true);
      bytesIn += chunk.data.length;
    }
    if (++round % 64 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  reader.end(true);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { name, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, bytesIn, bytesOut, peakRssMiB: (peak - startRss) / 1024 ** 2 };
}

const ROUNDS = Number(process.env.BERTH_BENCH_LOGS_FILTER_ROUNDS ?? 3);
const chunks = makeChunks();
const spec = (text: string, regex: boolean): LogFilterSpec => ({ text, regex, caseSensitive: true, invert: false });
const PASSES: ReadonlyArray<readonly [string, LogFilterSpec | undefined]> = [
  ['raw read (no filter)', undefined],
  ['text filter `ERROR` (1 line in 10)', spec('ERROR', false)],
  ['regex `^ERROR .*items/\\d+ 200` (1 line in 10)', spec('^ERROR .*items/\\d+ 200', true)],
  ['text filter matching nothing', spec('no such text', false)],
];
const loadBefore = loadavg()[0] ?? Number.NaN;
const passes = new Map<string, Pass[]>(PASSES.map(([name]) => [name, []]));
// Every round runs each pass once, the order rotated, so no pass always runs first or after the same neighbour.
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, filterSpec] of rotated(PASSES, round)) {
    const pass = run(name, chunks, filterSpec);
    passes.get(name)?.push(pass);
    console.log(`round ${round + 1}: ${name}: ${(pass.bytesIn / 1024 ** 2 / pass.cpuSeconds).toFixed(0)} MiB per CPU s, ${(pass.bytesIn / 1024 ** 2 / pass.seconds).toFixed(0)} MiB/s wall`);
  }
}
const loadAfter = loadavg()[0] ?? Number.NaN;
const rates = (name: string, by: 'cpuSeconds' | 'seconds'): Summary => summarize((passes.get(name) ?? []).map((pass) => pass.bytesIn / 1024 ** 2 / pass[by]));
const rawName = PASSES[0]?.[0] ?? '';
const rawCpu = rates(rawName, 'cpuSeconds').median;
const rawWall = rates(rawName, 'seconds').median;

const rows = PASSES.map(([name]) => {
  const own = passes.get(name) ?? [];
  const cpu = rates(name, 'cpuSeconds');
  const wall = rates(name, 'seconds');
  const peak = Math.max(...own.map((pass) => pass.peakRssMiB));
  return `| ${name} | ${((own[0]?.bytesIn ?? 0) / GiB).toFixed(2)} GiB × ${own.length} | ${cpu.median.toFixed(0)} (${cpu.p10.toFixed(0)}–${cpu.p90.toFixed(0)}) | ${(cpu.median / rawCpu).toFixed(2)}× | ${wall.median.toFixed(0)} (${wall.p10.toFixed(0)}–${wall.p90.toFixed(0)}) | ${(wall.median / rawWall).toFixed(2)}× | ${peak.toFixed(1)} MiB |`;
});
const report = [
  '# Filtering a followed log: throughput against the raw read in the same run',
  '',
  `The engine's timestamped wire form, made in memory; ${LINES_PER_CHUNK * 10} distinct messages of about 100 bytes repeated. ${ROUNDS} rounds, each pass once per round in a rotated order; medians (p10–p90). Node ${process.version}, ended ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, 1-minute load average ${loadBefore.toFixed(1)} at the start and ${loadAfter.toFixed(1)} at the end (${cpus().length} cores). Throughput per CPU second is what the pass itself cost on a shared machine; the wall figure includes waiting for a core.`,
  '',
  '| Pass | Read | MiB per CPU second | Against the raw read | MiB/s wall | Against the raw read | Peak RSS above the start |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...rows,
  '',
].join('\n');
writeFileSync(join(__dirname, 'logs-filter-results.md'), report);
process.stdout.write(report);
