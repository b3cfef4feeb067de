/**
 * `node --import tsx bench/logs-filter.ts [GiB]`: the cost of the logs filter (src/logs/lineFilter.ts) on a 1 GiB log.
 * The stream is the engine's wire form of `logs?timestamps=1` (multiplexed frames, one stamped message each), made
 * in memory so the engine's own speed is not measured. Each pass reads the whole stream through the log reader
 * (src/logs/logMessages.ts) into a sink that counts bytes: the raw read (no filter), then with a text filter and a
 * regular expression that keep one line in ten, and a filter that keeps nothing. Reported: throughput of each
 * against the raw read in the same run, and the peak RSS above the start of the pass. Asserts nothing; writes
 * bench/logs-filter-results.md.
 */
import { join } from 'node:path';
import type { OutputChunk } from '../src/engine';
import { FilteredSink, LineFilter, type LogFilterSpec } from '../src/logs/lineFilter';
import type { LogSink } from '../src/logs/logFollower';
import { LogMessageReader } from '../src/logs/logMessages';
import { publishResultPage } from './report';

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
  peak = Math.max(peak, process.memoryUsage().rss);
  return { name, seconds, bytesIn, bytesOut, peakRssMiB: (peak - startRss) / 1024 ** 2 };
}

const chunks = makeChunks();
const spec = (text: string, regex: boolean): LogFilterSpec => ({ text, regex, caseSensitive: true, invert: false });
const passes: Pass[] = [];
// Raw first and last: the ratio uses the better raw figure, so a slow first pass cannot flatter the filter.
passes.push(run('raw read (no filter)', chunks, undefined));
passes.push(run('text filter `ERROR` (1 line in 10)', chunks, spec('ERROR', false)));
passes.push(run('regex `^ERROR .*items/\\d+ 200` (1 line in 10)', chunks, spec('^ERROR .*items/\\d+ 200', true)));
passes.push(run('text filter matching nothing', chunks, spec('no such text', false)));
passes.push(run('raw read again', chunks, undefined));
const rawRate = Math.max(...passes.filter((pass) => pass.name.startsWith('raw')).map((pass) => pass.bytesIn / pass.seconds));

const rows = passes.map((pass) => {
  const rate = pass.bytesIn / pass.seconds;
  return `| ${pass.name} | ${(pass.bytesIn / GiB).toFixed(2)} GiB | ${(rate / 1024 ** 2).toFixed(0)} MiB/s | ${(rate / rawRate).toFixed(2)}× | ${pass.peakRssMiB.toFixed(1)} MiB |`;
});
publishResultPage(join(__dirname, 'logs-filter-results.md'), {
  title: 'Filtering a followed log: throughput against the raw read in the same run',
  intro: [`The engine's timestamped wire form, made in memory; ${LINES_PER_CHUNK * 10} distinct messages of about 100 bytes repeated. Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`],
  columns: ['Pass', 'Read', 'Throughput', 'Against the raw read', 'Peak RSS above the start'],
  rows,
});
