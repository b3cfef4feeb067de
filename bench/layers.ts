/**
 * `node --expose-gc --import tsx bench/layers.ts`: issue 36's layer-analysis figures, measured in one run on the
 * private dockerd.
 * - The image: ten RUN layers of 30 MiB of random bytes each on the test image (≈ 315 MB), built once and kept
 *   under `berth-bench/layers:10`.
 * - Peer: `docker save IMAGE > /dev/null`, spawned with its stdout on /dev/null (no shell).
 * - Floor: the same saved-image stream through Berth's engine client, drained and thrown away: what the transport
 *   alone costs, so the analysis's own share can be told from the engine's and the socket's.
 * - Berth: `readImageLayers` (history + the saved-image stream read in one pass, every layer parsed as it streams),
 *   and `readImageLayerFile` of the middle layer's 30 MiB file, what a click on a layer's file row does.
 * - Before: the same reads with the saved-image reader of BERTH_BENCH_LAYERS_BEFORE (a git revision; by default the
 *   one before the outer tar was fed without a stream adapter between), taken from git, in the same run.
 * - Berth's layer numbers here count from the base (0); the tree numbers them from the top.
 * - Each round runs every side once, in an order rotated per round, so no side always follows the same neighbour on
 *   a machine whose load moves. Wall time, the CPU time of the side's own process (Berth: this process; the peer:
 *   the docker CLI child, from this process's reaped-children times) and the CPU time dockerd spent serving it.
 * - Memory: the resident set sampled every 10 ms during Berth's reads, against the resident set just before.
 * Ratios from medians. Writes bench/layers-results.{md,json}.
 */
import { spawn } from 'node:child_process';
import { openSync, closeSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { analyzeLayers, buildImage, EngineClient, readImageLayerFile, readImageLayers, layerNumberOf, type LayerFileLocation } from '../src/engine';
import { moduleAtRevision } from './revisionModule';
import { loadTestEngines } from '../test/support/engines';
import { elapsedMs, rotated, summarize, type Summary } from './stats';

const IMAGE = 'berth-bench/layers:10';
const LAYERS = 10;
const LAYER_MIB = 30;
const ROUNDS = Number(process.env.BERTH_BENCH_LAYER_ROUNDS ?? 9);
const MiB = 1024 * 1024;
const repoRoot = resolve(__dirname, '..');
/** USER_HZ: /proc reports CPU times in clock ticks of 1/100 s on Linux. */
const TICK_MS = 10;

async function ensureImage(client: EngineClient, base: string): Promise<void> {
  if (await client.images.inspect(IMAGE).then(() => true, () => false)) return;
  const folder = mkdtempSync(join(tmpdir(), 'berth-bench-layers-'));
  try {
    const runs = Array.from({ length: LAYERS }, (_unused, index) => `RUN head -c ${LAYER_MIB * MiB} /dev/urandom > /layer-${index}.bin`);
    writeFileSync(join(folder, 'Dockerfile'), [`FROM ${base}`, ...runs, ''].join('\n'));
    await buildImage(client, { contextDir: folder, networkMode: 'none', tags: [IMAGE] });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** utime+stime (or, for `children`, the reaped children's cutime+cstime) of a process, in ms. */
function cpuMsOf(pid: number | 'self', children = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  const [user, system] = children ? [fields[13] ?? 0, fields[14] ?? 0] : [fields[11] ?? 0, fields[12] ?? 0];
  return (user + system) * TICK_MS;
}

interface Sample {
  readonly ms: number;
  /** CPU time of the side's own process. */
  readonly cpuMs: number;
  /** CPU time dockerd spent while the side ran. */
  readonly engineCpuMs: number;
  readonly peakGrowth: number;
}

async function measured(dockerdPid: number, work: () => Promise<number | void>, ownCpu: () => number): Promise<Sample> {
  global.gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  const engineBefore = cpuMsOf(dockerdPid);
  const cpuBefore = ownCpu();
  const started = process.hrtime.bigint();
  try {
    await work();
    const ms = elapsedMs(started);
    peak = Math.max(peak, process.memoryUsage.rss());
    return { ms, cpuMs: ownCpu() - cpuBefore, engineCpuMs: cpuMsOf(dockerdPid) - engineBefore, peakGrowth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

function ownProcessCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function dockerSave(host: string): Promise<void> {
  const devNull = openSync('/dev/null', 'w');
  return new Promise<void>((done, fail) => {
    const child = spawn('docker', ['-H', host, 'save', IMAGE], { stdio: ['ignore', devNull, 'ignore'] });
    child.on('error', fail);
    child.on('close', (code) => {
      closeSync(devNull);
      if (code === 0) done();
      else fail(new Error(`docker save exited ${String(code)}`));
    });
  });
}

async function drainSavedImage(client: EngineClient, imageId: string): Promise<void> {
  const stream = await client.images.save(imageId);
  try {
    for await (const _chunk of stream.body) {
      // Only read: the floor every reader of this stream pays.
    }
  } finally {
    stream.cancel();
  }
}

/** The revision whose saved-image reader is "before": the last one that fed the outer tar through a stream adapter. */
const BEFORE = process.env.BERTH_BENCH_LAYERS_BEFORE ?? '4e0b3ce';
type SavedImageReader = typeof import('../src/engine/files/savedImage').readSavedImage;
const readSavedImageBefore = (moduleAtRevision(BEFORE, 'src/engine/files/savedImage.ts') as { readSavedImage: SavedImageReader }).readSavedImage;

/** readImageLayers with the reader as it was before: the same requests, the old outer-tar feed. */
async function readLayersBefore(client: EngineClient, image: string): Promise<number> {
  const inspect = await client.images.inspect(image);
  const history = await client.images.history(inspect.Id);
  const stream = await client.images.save(inspect.Id);
  try {
    const contents = await readSavedImageBefore(stream.body);
    await client.images.inspect(inspect.Id);
    return analyzeLayers(inspect.Id, history, contents).layers.length;
  } finally {
    stream.cancel();
  }
}

interface SideResult {
  readonly wall: Summary;
  readonly cpu: Summary;
  readonly engineCpu: Summary;
  readonly peakGrowthMiB: number;
}

function resultOf(samples: readonly Sample[]): SideResult {
  return {
    wall: summarize(samples.map((sample) => sample.ms)),
    cpu: summarize(samples.map((sample) => sample.cpuMs)),
    engineCpu: summarize(samples.map((sample) => sample.engineCpuMs)),
    peakGrowthMiB: Math.max(...samples.map((sample) => sample.peakGrowth)) / MiB,
  };
}

function spread(summary: Summary): string {
  return `${summary.median.toFixed(0)} ms (p10–p90 ${summary.p10.toFixed(0)}–${summary.p90.toFixed(0)})`;
}

async function main(): Promise<void> {
  const engines = loadTestEngines();
  const dockerdPid = Number(readFileSync(join(engines.stateDir, 'docker', 'dockerd.pid'), 'utf8').trim());
  const client = EngineClient.fromEnvironment({ host: engines.dockerHost, env: {} });
  try {
    await ensureImage(client, engines.image);
    const { Size, Id } = await client.images.inspect(IMAGE);
    // A warm-up of each side: the first save reads the layers from disk into the page cache.
    await dockerSave(engines.dockerHost);
    const analysis = await readImageLayers(client, IMAGE);
    const middle = analysis.layers[Math.floor(analysis.layers.length / 2)];
    const middleFile = middle?.files.find((file) => file.kind === 'file' && file.path.startsWith('layer-'));
    if (middle === undefined || middleFile === undefined) throw new Error('the middle layer holds no layer-N.bin');
    const location: LayerFileLocation = { imageId: analysis.imageId, layerIndex: middle.index, layerNumber: layerNumberOf(analysis, middle.index), tarPath: middle.tarPath, path: middleFile.path };
    const samples = { docker: [] as Sample[], drain: [] as Sample[], before: [] as Sample[], analysis: [] as Sample[], openFile: [] as Sample[] };
    const children = (): number => cpuMsOf('self', true);
    const sides = [
      async () => samples.docker.push(await measured(dockerdPid, () => dockerSave(engines.dockerHost), children)),
      async () => samples.drain.push(await measured(dockerdPid, () => drainSavedImage(client, Id), ownProcessCpuMs)),
      async () => samples.before.push(await measured(dockerdPid, async () => {
        const count = await readLayersBefore(client, IMAGE);
        if (count !== analysis.layers.length) throw new Error(`read ${count} layers`);
      }, ownProcessCpuMs)),
      async () => samples.analysis.push(await measured(dockerdPid, async () => {
        const result = await readImageLayers(client, IMAGE);
        if (result.layers.length !== analysis.layers.length) throw new Error(`read ${result.layers.length} layers`);
      }, ownProcessCpuMs)),
      async () => samples.openFile.push(await measured(dockerdPid, async () => {
        const bytes = await readImageLayerFile(client, location);
        if (bytes.length !== LAYER_MIB * MiB) throw new Error(`read ${bytes.length} bytes of /${location.path}`);
      }, ownProcessCpuMs)),
    ];
    const loadBefore = loadavg()[0] ?? 0;
    for (let round = 0; round < ROUNDS; round++) for (const side of rotated(sides, round)) await side();
    const load = { before: loadBefore, after: loadavg()[0] ?? 0 };
    const docker = resultOf(samples.docker);
    const drain = resultOf(samples.drain);
    const before = resultOf(samples.before);
    const layers = resultOf(samples.analysis);
    const openFile = resultOf(samples.openFile);
    const ratio = layers.wall.median / docker.wall.median;
    // Each round's own ratio: the load moves between rounds more than within one.
    const paired = (side: readonly Sample[]): Summary => summarize(side.map((sample, round) => sample.ms / (samples.docker[round]?.ms ?? Number.NaN)));
    const pairedAnalysis = paired(samples.analysis);
    const pairedBefore = paired(samples.before);
    const drainRatio = drain.wall.median / docker.wall.median;
    const beforeRatio = before.wall.median / docker.wall.median;
    const openRatio = openFile.wall.median / docker.wall.median;
    const results = { image: { bytes: Size, layers: analysis.layers.length }, rounds: ROUNDS, load, docker, drain, before, analysis: layers, openFile, ratio, drainRatio, beforeRatio, openRatio, pairedAnalysis, pairedBefore };
    const cpu = (side: SideResult): string => `${side.cpu.median.toFixed(0)} ms (dockerd ${side.engineCpu.median.toFixed(0)} ms)`;
    const rows = [
      `${ROUNDS} rounds, each side once per round in a rotated order; load average ${load.before.toFixed(1)} before, ${load.after.toFixed(1)} after.`,
      '',
      '| Case | Wall time | CPU time (own process; dockerd) | Ratio to docker save (wall) |',
      '|---|---:|---:|---:|',
      `| docker save > /dev/null (the peer) | ${spread(docker.wall)} | ${cpu(docker)} | 1.00× |`,
      `| Saved-image stream drained by Berth's client (the floor) | ${spread(drain.wall)} | ${cpu(drain)} | ${drainRatio.toFixed(2)}× |`,
      `| Layer analysis, the reader before (same image, same run) | ${spread(before.wall)} | ${cpu(before)} | ${beforeRatio.toFixed(2)}× (per round ${pairedBefore.median.toFixed(2)}×, p10–p90 ${pairedBefore.p10.toFixed(2)}–${pairedBefore.p90.toFixed(2)}) |`,
      `| Layer analysis of a ${(Size / 1e6).toFixed(0)} MB, ${analysis.layers.length}-layer image | ${spread(layers.wall)} | ${cpu(layers)} | ${ratio.toFixed(2)}× (per round ${pairedAnalysis.median.toFixed(2)}×, p10–p90 ${pairedAnalysis.p10.toFixed(2)}–${pairedAnalysis.p90.toFixed(2)}; goal ≤ 1.2×: ${ratio <= 1.2 ? 'met' : 'not met'}) |`,
      `| Open one ${LAYER_MIB} MiB file of layer ${middle.index} (from the base) | ${spread(openFile.wall)} | ${cpu(openFile)} | ${openRatio.toFixed(2)}× (goal ≤ 1×: ${openRatio <= 1 ? 'met' : 'not met'}) |`,
      `| Memory during the analysis | ${layers.peakGrowthMiB.toFixed(1)} MiB above the process before it | goal ≤ 64 MiB | ${layers.peakGrowthMiB <= 64 ? 'met' : 'not met'} |`,
      `| Memory while opening that file | ${openFile.peakGrowthMiB.toFixed(1)} MiB above the process before it (the file is ${LAYER_MIB} MiB) | goal ≤ ${LAYER_MIB + 64} MiB | ${openFile.peakGrowthMiB <= LAYER_MIB + 64 ? 'met' : 'not met'} |`,
    ];
    writeFileSync(join(repoRoot, 'bench/layers-results.json'), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(repoRoot, 'bench/layers-results.md'), `${rows.join('\n')}\n`);
    process.stdout.write(`${rows.join('\n')}\n`);
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
