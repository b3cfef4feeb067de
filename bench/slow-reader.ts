/**
 * `npm run bench:slow-reader`: berth's output to a reader that reads in small pieces with pauses, against the docker
 * CLI on the same private dockerd, in the same run (issue 33 item 8). Two cases:
 * - `logs` of an exited container that wrote 50 MB in lines of 100 bytes (one frame each);
 * - `run --rm --network none IMAGE head -c 200000000 /dev/zero` (the attached stream, in the engine's own pieces).
 * Each side runs in `bash -c 'set -o pipefail; /usr/bin/time … SIDE | node -e READER'`: the same reader for every side,
 * reading 64 KiB at a time from a blocking pipe and sleeping 1 ms after each read; it prints how many bytes it got,
 * which must be the whole output. /usr/bin/time gives the side's peak RSS and CPU time. Rounds rotate who goes first.
 * With BERTH_BENCH_SLOW_READER_BEFORE=<commit>, berth as built from that commit runs too, as a third side.
 * Berth is built as it ships (esbuild.js --production). Writes bench/slow-reader-results.{md,json}.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadTestEngines, uniqueName } from '../test/support/engines';
import { publishResultPage } from './report';
import { elapsedMs, rotated, summarize, type Summary } from './stats';

const ROUNDS = Number(process.env.BERTH_BENCH_SLOW_READER_ROUNDS ?? 3);
const LOG_BYTES = Number(process.env.BERTH_BENCH_SLOW_READER_LOG_BYTES ?? 50_000_000);
const RUN_BYTES = Number(process.env.BERTH_BENCH_SLOW_READER_RUN_BYTES ?? 200_000_000);
const BEFORE = process.env.BERTH_BENCH_SLOW_READER_BEFORE?.trim();
const LINE_BYTES = 100;
const repoRoot = resolve(__dirname, '..');

/** Reads 64 KiB, sleeps 1 ms, again until the end; prints the byte count. Synchronous, so nothing else paces it. */
const READER = [
  "const fs = require('fs');",
  'const buffer = Buffer.allocUnsafe(65536);',
  'const pause = new Int32Array(new SharedArrayBuffer(4));',
  'let total = 0;',
  'for (;;) {',
  '  let read;',
  "  try { read = fs.readSync(0, buffer, 0, buffer.length, null); } catch (error) { if (error.code === 'EAGAIN') { Atomics.wait(pause, 0, 0, 1); continue; } throw error; }",
  '  if (read === 0) break;',
  '  total += read;',
  '  Atomics.wait(pause, 0, 0, 1);',
  '}',
  'process.stdout.write(String(total));',
].join('\n');

interface Side {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

interface Sample {
  readonly ms: number;
  readonly peakKb: number;
  readonly cpuMs: number;
}

/** One side through the slow reader; checks that the reader got `expected` bytes. */
function once(side: Side, env: NodeJS.ProcessEnv, timeFile: string, expected: number): Promise<Sample> {
  const script = 'set -o pipefail; /usr/bin/time -f "%M %U %S" -o "$0" "$@" | "$BENCH_NODE" -e "$BENCH_READER"';
  return new Promise((resolvePromise, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn('bash', ['-c', script, timeFile, side.command, ...side.args], {
      env: { ...env, BENCH_NODE: process.execPath, BENCH_READER: READER },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = elapsedMs(start);
      if (code !== 0) return reject(new Error(`${side.name}: exit ${code}: ${stderr}`));
      if (Number(stdout) !== expected) return reject(new Error(`${side.name}: the reader got ${stdout} bytes, not ${expected}`));
      const [peakKb = Number.NaN, user = Number.NaN, system = Number.NaN] = (readFileSync(timeFile, 'utf8').trim().split('\n').pop() ?? '').split(' ').map(Number);
      resolvePromise({ ms, peakKb, cpuMs: (user + system) * 1000 });
    });
  });
}

/** Builds the CLI bundle as it ships, from the work tree or from a commit (exported into a directory of its own). */
function buildCli(workDir: string, commit?: string): string {
  const outDir = join(workDir, commit ? `cli-${commit}` : 'cli');
  let sourceDir = repoRoot;
  if (commit) {
    sourceDir = join(workDir, `src-${commit}`);
    execFileSync('bash', ['-c', `mkdir -p "$1" && git -C "$2" archive "$3" | tar -x -C "$1"`, '_', sourceDir, repoRoot, commit]);
    symlinkSync(join(repoRoot, 'node_modules'), join(sourceDir, 'node_modules'));
  }
  execFileSync(process.execPath, [join(sourceDir, 'esbuild.js'), '--production', `--cli-outdir=${outDir}`], { cwd: sourceDir, stdio: 'inherit' });
  return join(outDir, 'cli.js');
}

interface CaseResult {
  readonly name: string;
  readonly bytes: number;
  readonly sides: Array<{ name: string; wall: Summary; peakRssMb: Summary; cpuMs: Summary; ratio: number }>;
}

async function measure(name: string, bytes: number, sides: readonly Side[], env: NodeJS.ProcessEnv, workDir: string): Promise<CaseResult> {
  const samples = new Map(sides.map((side) => [side.name, [] as Sample[]]));
  const timeFile = join(workDir, 'time.txt');
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of rotated(sides, round)) {
      const sample = await once(side, env, timeFile, bytes);
      process.stderr.write(`${name} round ${round + 1}: ${side.name} ${sample.ms.toFixed(0)} ms, ${(sample.peakKb / 1024).toFixed(1)} MB\n`);
      samples.get(side.name)?.push(sample);
    }
  }
  const docker = summarize((samples.get(sides[0]?.name ?? '') ?? []).map((sample) => sample.ms)).median;
  return {
    name,
    bytes,
    sides: sides.map((side) => {
      const own = samples.get(side.name) ?? [];
      const wall = summarize(own.map((sample) => sample.ms));
      return {
        name: side.name,
        wall,
        peakRssMb: summarize(own.map((sample) => sample.peakKb / 1024)),
        cpuMs: summarize(own.map((sample) => sample.cpuMs)),
        ratio: wall.median / docker,
      };
    }),
  };
}

async function main(): Promise<void> {
  const engines = loadTestEngines();
  const workDir = mkdtempSync(join(tmpdir(), 'berth-bench-slow-reader-'));
  const docker = (args: readonly string[]): string =>
    execFileSync('docker', ['-H', engines.dockerHost, ...args], { encoding: 'utf8', env: { ...process.env, DOCKER_CONFIG: workDir } }).trim();
  const logName = uniqueName('benchslowlog');
  try {
    const cli = buildCli(workDir);
    const before = BEFORE ? buildCli(workDir, BEFORE) : undefined;
    const writer = `head -c ${LOG_BYTES} /dev/zero | tr '\\0' x | fold -w ${LINE_BYTES - 1}`;
    docker(['run', '-d', '--network', 'none', '--label', 'berth.test=1', '--name', logName, engines.image, 'sh', '-c', writer]);
    if (docker(['wait', logName]) !== '0') throw new Error(`${logName} did not exit 0`);
    const logBytes = LOG_BYTES + Math.floor(LOG_BYTES / (LINE_BYTES - 1));
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workDir, DOCKER_HOST: engines.dockerHost, DOCKER_CONFIG: workDir };
    const berthSides = (args: readonly string[]): Side[] => [
      { name: 'berth', command: process.execPath, args: [cli, ...args] },
      ...(before ? [{ name: `berth before (${BEFORE})`, command: process.execPath, args: [before, ...args] }] : []),
    ];
    const logsArgs = ['logs', logName];
    const runArgs = ['run', '--rm', '--network', 'none', engines.image, 'head', '-c', String(RUN_BYTES), '/dev/zero'];
    const results = [
      await measure(`logs of ${LOG_BYTES / 1e6} MB`, logBytes, [{ name: 'docker', command: 'docker', args: logsArgs }, ...berthSides(logsArgs)], env, workDir),
      await measure(`run printing ${RUN_BYTES / 1e6} MB`, RUN_BYTES, [{ name: 'docker', command: 'docker', args: runArgs }, ...berthSides(runArgs)], env, workDir),
    ];
    const date = new Date().toISOString().slice(0, 10);
    writeFileSync(join(__dirname, 'slow-reader-results.json'), `${JSON.stringify({ date, node: process.version, rounds: ROUNDS, before: BEFORE, results }, null, 2)}\n`);
    const rows = results.flatMap((result) =>
      result.sides.map(
        (side) =>
          `| ${result.name} | ${side.name} | ${side.wall.median.toFixed(0)} (${side.wall.p10.toFixed(0)}–${side.wall.p90.toFixed(0)}) | ${side.ratio.toFixed(2)}× | ${side.cpuMs.median.toFixed(0)} | ${side.peakRssMb.median.toFixed(1)} (${side.peakRssMb.p90.toFixed(1)}) |`,
      ),
    );
    publishResultPage(join(__dirname, 'slow-reader-results.md'), {
      title: 'A slow reader: berth next to the docker CLI (`npm run bench:slow-reader`)',
      intro: [
        `${date}, node ${process.version}, the private dockerd, ${ROUNDS} rotated rounds. Each side's stdout goes to the same reader, which reads 64 KiB and sleeps 1 ms, until the end; it must get every byte. The log is ${LOG_BYTES / 1e6} MB in lines of ${LINE_BYTES} bytes.`,
        'Goal (issue 33): berth within 1.1× docker, memory bounded.',
      ],
      columns: ['case', 'side', 'wall median ms (p10–p90)', '× docker', 'CPU ms (user + sys, median)', 'peak RSS MB, median (p90)'],
      rows,
    });
  } finally {
    try {
      docker(['rm', '-f', logName]);
    } catch {
      // Never created: nothing to remove.
    }
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
