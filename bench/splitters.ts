/**
 * `npm run bench:splitters`: every line splitter of a stream a container or an engine controls, fed 64 MiB of output
 * without a newline (the worst line a container can write), in messages of 16 KiB, 1 KiB and 1 byte, each behind the
 * engine's stamp (logs) or in its own `{"stream":"…"}` JSON line (build output). Each splitter is timed and its peak
 * memory (max RSS) read in a child process of its own, against a plain read of the same bytes in another: the same
 * chunks read from a Node stream and discarded (the splitters read the same stream; the compose logs splitter and the
 * container log reader take the frames themselves, as they do from the engine's response, and the frames joined into
 * runs that other non-TTY reads go through (run, attach, exec, logs to a stream) are a row of their own). Two JSON
 * rows: "JSON lines" is JsonLineDecoder, which reads events, stats and pull/push progress (sent in the engine's own
 * sizes, so its 1-byte row is a worst case no container can cause); "build output" is BuildOutputDecoder, which reads
 * build output, the one JSON stream whose message sizes a container sets (a RUN step's writes), and hands on a chunk's
 * stream lines merged. The before row (JsonLineDecoder then) read all of them. Goal: at most 2× the plain read's time
 * and 64 MiB more memory. Time is the process's CPU time (user + system): on a shared machine the wall clock mostly
 * measures the wait for a core. Each figure is the median of BERTH_BENCH_SPLITTER_RUNS runs (3).
 * BERTH_BENCH_SPLITTER_MIB sets the output size, BERTH_BENCH_SPLITTER_BYTE_MIB the size of the 1-byte runs (64 MiB in
 * 1-byte messages is 64 million messages); BERTH_BENCH_SPLITTER_ONLY (a word of the row names) keeps some rows;
 * BERTH_BENCH_SPLITTER_BEFORE (a git revision) adds the compose logs splitter, the container log reader and the JSON
 * line decoder of that revision, each fed as that code was (non-TTY frames through a chunk per frame), in the same run.
 * Asserts nothing; writes bench/splitters-results.md.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { BuildOutputDecoder, FrameDemuxer, FrameJoiner, JsonLineDecoder, type OutputChunk } from '../src/engine';
import { MessageSplitter } from '../src/engine/compose';
import { LogMessageReader } from '../src/logs/logMessages';
import { moduleAtRevision } from './revisionModule';

type Mode = 'frames' | 'tty' | 'json';
type Splitter = 'plain' | 'joined' | 'compose' | 'compose-before' | 'logs' | 'logs-before' | 'json' | 'json-before' | 'build';

const STAMP = '2026-11-23T10:38:35.913673355Z';
const KIB = 1024;
const MIB = KIB * KIB;
const CHUNK = 64 * KIB;

function wireMessage(mode: Mode, content: Buffer): Buffer {
  if (mode === 'json') return Buffer.from(`${JSON.stringify({ stream: content.toString('latin1') })}\n`, 'latin1');
  const body = Buffer.concat([Buffer.from(`${STAMP} `, 'latin1'), content]);
  if (mode === 'tty') return body;
  const header = Buffer.alloc(8);
  header[0] = 1;
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
}

/** The engine's bytes, in fresh network-sized chunks (as reads allocate them); the last message ends the line. */
function* wire(mode: Mode, size: number, total: number): Generator<Buffer> {
  const message = wireMessage(mode, Buffer.alloc(size, 'x'));
  const perChunk = Math.max(1, Math.floor(CHUNK / message.length));
  const period = Buffer.concat(Array.from({ length: perChunk }, () => message));
  let messages = Math.floor(total / size);
  while (messages >= perChunk) {
    yield Buffer.from(period);
    messages -= perChunk;
  }
  if (messages > 0) yield Buffer.from(period.subarray(0, messages * message.length));
  yield wireMessage(mode, Buffer.from('end\n', 'latin1'));
}

type Reader = typeof LogMessageReader;
type Decoder = typeof JsonLineDecoder;
type Compose = typeof MessageSplitter;

function composeOf(revision: string): Compose {
  const messages = moduleAtRevision(revision, 'src/engine/compose/composeMessages.ts');
  return (messages as { MessageSplitter: Compose }).MessageSplitter;
}

function readerOf(revision: string): Reader {
  const logs = moduleAtRevision(revision, 'src/logs/logMessages.ts', ['logStreamState.ts', 'logStamps.ts']);
  return (logs as { LogMessageReader: Reader }).LogMessageReader;
}

function decoderOf(revision: string): Decoder {
  const decoders = moduleAtRevision(revision, 'src/engine/connection/decoders.ts');
  return (decoders as { JsonLineDecoder: Decoder }).JsonLineDecoder;
}

/**
 * Runs one splitter over the wire, read from a Node stream as a response body is; resolves how many lines it handed
 * on. The plain read discards each chunk; the joined row only demultiplexes the frames, into runs of one stream.
 */
async function runOne(splitter: Splitter, mode: Mode, size: number, total: number): Promise<number> {
  let lines = 0;
  let bytes = 0;
  const body = Readable.from(wire(mode, size, total));
  if (splitter === 'plain') {
    for await (const chunk of body) bytes += (chunk as Buffer).length;
    return bytes > 0 ? 1 : 0;
  }
  if (splitter === 'json' || splitter === 'json-before' || splitter === 'build') {
    // The build output decoder hands on merged values: it counts those.
    const decoder = splitter === 'build' ? new BuildOutputDecoder(() => lines++) : new (splitter === 'json' ? JsonLineDecoder : decoderOf(before()))(() => lines++);
    for await (const chunk of body) decoder.push(chunk as Buffer);
    decoder.end();
    return lines;
  }
  if (splitter === 'joined') {
    // As run, attach, exec and `berth logs` read: the runs of each network chunk taken after it.
    const joiner = new FrameJoiner();
    for await (const data of body) {
      joiner.push(data as Buffer);
      for (const chunk of joiner.take()) bytes += chunk.data.length;
    }
    joiner.end();
    return bytes > 0 ? 1 : 0;
  }
  const tty = mode === 'tty';
  if (splitter === 'logs' && mode === 'frames') {
    // The log reader takes the frames itself, as it reads the engine's response (`rawFrames`).
    const reader = new LogMessageReader(() => lines++);
    for await (const data of body) reader.push({ stream: 'stdout', data: data as Buffer, multiplexed: true }, true);
    reader.end(true);
    return lines;
  }
  if (splitter === 'compose' && mode === 'frames') {
    // So does the compose logs splitter (`rawFrames`).
    const compose = new MessageSplitter(false, () => lines++);
    for await (const data of body) compose.push({ stream: 'stdout', data: data as Buffer, multiplexed: true });
    compose.end();
    return lines;
  }
  const Reader = splitter === 'logs-before' ? readerOf(before()) : LogMessageReader;
  const consume: (chunk: OutputChunk) => void =
    splitter === 'compose' || splitter === 'compose-before'
      ? ((splitterOf) => (chunk: OutputChunk) => splitterOf.push(chunk))(new (splitter === 'compose' ? MessageSplitter : composeOf(before()))(tty, () => lines++))
      : ((reader) => (chunk: OutputChunk) => reader.push(chunk, !tty))(new Reader(() => lines++));
  const demuxer = new FrameDemuxer(consume);
  for await (const data of body) {
    if (mode === 'frames') demuxer.push(data as Buffer);
    else consume({ stream: 'stdout', data: data as Buffer });
  }
  if (mode === 'frames') demuxer.end();
  return lines;
}

function before(): string {
  return process.env['BERTH_BENCH_SPLITTER_BEFORE'] ?? 'HEAD';
}

interface Measure {
  /** CPU time, user + system. */
  readonly ms: number;
  readonly maxRssMiB: number;
  readonly lines: number;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

async function child(splitter: Splitter, mode: Mode, size: number, total: number): Promise<void> {
  // The revision's modules are loaded before the clock starts, as this tree's are.
  if (splitter === 'logs-before') readerOf(before());
  if (splitter === 'json-before') decoderOf(before());
  if (splitter === 'compose-before') composeOf(before());
  const started = cpuMs();
  const lines = await runOne(splitter, mode, size, total);
  const ms = cpuMs() - started;
  const measure: Measure = { ms, maxRssMiB: process.resourceUsage().maxRSS / KIB, lines };
  process.stdout.write(JSON.stringify(measure));
}

function measureOnce(splitter: Splitter, mode: Mode, size: number, total: number): Measure {
  const out = execFileSync(process.execPath, ['--import', 'tsx', __filename, splitter, mode, String(size), String(total)], {
    encoding: 'utf8',
    maxBuffer: MIB,
  });
  return JSON.parse(out) as Measure;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The median time and memory of RUNS runs, each in a process of its own. */
function measure(splitter: Splitter, mode: Mode, size: number, total: number, runs: number): Measure {
  const all = Array.from({ length: runs }, () => measureOnce(splitter, mode, size, total));
  return { ms: median(all.map((each) => each.ms)), maxRssMiB: median(all.map((each) => each.maxRssMiB)), lines: all[0]?.lines ?? 0 };
}

function main(): void {
  const mib = Number(process.env['BERTH_BENCH_SPLITTER_MIB'] ?? 64);
  const byteMib = Number(process.env['BERTH_BENCH_SPLITTER_BYTE_MIB'] ?? mib);
  const runs = Number(process.env['BERTH_BENCH_SPLITTER_RUNS'] ?? 3);
  const only = process.env['BERTH_BENCH_SPLITTER_ONLY'];
  const before = process.env['BERTH_BENCH_SPLITTER_BEFORE'];
  const cases: Array<readonly [name: string, splitter: Splitter, mode: Mode]> = [
    ['frames joined alone (run, attach, exec, logs to a stream)', 'joined', 'frames'],
    ['compose logs, no TTY (frames)', 'compose', 'frames'],
    ['compose logs, TTY', 'compose', 'tty'],
    ['container logs (terminal + editor), no TTY (frames)', 'logs', 'frames'],
    ['container logs (terminal + editor), TTY', 'logs', 'tty'],
    ['JSON lines (events, stats, pull/push progress)', 'json', 'json'],
    ['JSON lines, build output (stream lines merged)', 'build', 'json'],
  ];
  if (before !== undefined) {
    cases.splice(1, 0, [`compose logs, no TTY (frames), before (${before})`, 'compose-before', 'frames']);
    cases.splice(4, 0, [`container logs, no TTY (frames), before (${before})`, 'logs-before', 'frames']);
    cases.splice(6, 0, [`container logs, TTY, before (${before})`, 'logs-before', 'tty']);
    cases.splice(8, 0, [`JSON lines, before (${before}; build output too)`, 'json-before', 'json']);
  }
  const rows: string[] = [];
  for (const [name, splitter, mode] of cases) {
    if (only !== undefined && !name.includes(only)) continue;
    for (const [label, size] of [['16 KiB', 16 * KIB], ['1 KiB', KIB], ['1 byte', 1]] as const) {
      const total = (size === 1 ? byteMib : mib) * MIB;
      const base = measure('plain', mode, size, total, runs);
      const run = measure(splitter, mode, size, total, runs);
      const row = `| ${name} | ${label} | ${total / MIB} MiB | ${base.ms.toFixed(0)} ms | ${run.ms.toFixed(0)} ms | ${(run.ms / base.ms).toFixed(2)}× | ${(run.maxRssMiB - base.maxRssMiB).toFixed(1)} MiB | ${run.lines} |`;
      rows.push(row);
      process.stderr.write(`${row}\n`);
    }
  }
  const report = [
    '# Line splitters: one line without a newline',
    '',
    'One line of the output size shown, cut by the engine into messages of the size shown (each behind its stamp, or in',
    'its own JSON line), read in 64 KiB chunks from a Node stream. Plain read: the same chunks read from the same',
    'stream and discarded. The compose logs splitter and the container log reader take non-TTY frames themselves, from',
    'the same chunks (`rawFrames`); the frames joined into runs that other non-TTY reads go through are measured alone',
    'in their own row, and the "before" rows take a chunk per frame (the path before `rawFrames`). JSON rows: each',
    'line is `{"stream":"…"}`; the build output row counts the values it hands on (a chunk\'s stream lines merged).',
    'Times are CPU time (user + system), the median of the runs shown. Extra memory: the splitter\'s max RSS less the',
    'plain read\'s (medians), each run in a process of its own.',
    '',
    `Runs per figure: ${runs}. Node ${process.version}, ${cpus().length} cores, load average ${loadavg().map((each) => each.toFixed(1)).join(' ')} at the end.`,
    '',
    '| Splitter | Messages | Output | Plain read | Splitter | Splitter / plain | Extra memory | Lines handed on |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
  writeFileSync(join(__dirname, 'splitters-results.md'), report);
  process.stderr.write(`wrote bench/splitters-results.md\n`);
}

const [, , splitterArg, modeArg, sizeArg, totalArg] = process.argv;
if (splitterArg !== undefined) void child(splitterArg as Splitter, modeArg as Mode, Number(sizeArg), Number(totalArg));
else main();
