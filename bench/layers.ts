/**
 * `node --import tsx bench/layers.ts`: issue 36's layer-analysis figures, measured in one run on the private dockerd.
 * - The image: ten RUN layers of 30 MiB of random bytes each on the test image (≈ 315 MB), built once and kept
 *   under `berth-bench/layers:10`.
 * - Berth: `readImageLayers` (history + the saved-image stream read in one pass, every layer parsed as it streams).
 * - Berth, one file: `readImageLayerFile` of the middle layer's 30 MiB file (the saved-image stream read until that
 *   file is read, then dropped), what a click on a layer's file row does.
 * - Peer: `docker save IMAGE > /dev/null`, spawned with its stdout on /dev/null (no shell).
 * - Memory: the process's resident set sampled every 10 ms during Berth's reads, against the resident set before
 *   the first read; and the process's peak (maxRSS), which includes tsx and the bench itself.
 * Rounds alternate which side runs first; ratios from medians. Writes bench/layers-results.{md,json}.
 */
import { spawn } from 'node:child_process';
import { openSync, closeSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildImage, EngineClient, readImageLayerFile, readImageLayers, type LayerFileLocation } from '../src/engine';
import { loadTestEngines } from '../test/support/engines';
import { elapsedMs, summarize } from './stats';

const IMAGE = 'berth-bench/layers:10';
const LAYERS = 10;
const LAYER_MIB = 30;
const ROUNDS = Number(process.env.BERTH_BENCH_LAYER_ROUNDS ?? 5);
const repoRoot = resolve(__dirname, '..');

async function ensureImage(client: EngineClient, base: string): Promise<void> {
  if (await client.inspectImage(IMAGE).then(() => true, () => false)) return;
  const folder = mkdtempSync(join(tmpdir(), 'berth-bench-layers-'));
  try {
    const runs = Array.from({ length: LAYERS }, (_unused, index) => `RUN head -c ${LAYER_MIB * 1024 * 1024} /dev/urandom > /layer-${index}.bin`);
    writeFileSync(join(folder, 'Dockerfile'), [`FROM ${base}`, ...runs, ''].join('\n'));
    await buildImage(client, { contextDir: folder, networkMode: 'none', tags: [IMAGE] });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function dockerSave(host: string): Promise<number> {
  const devNull = openSync('/dev/null', 'w');
  const started = process.hrtime.bigint();
  return new Promise<number>((done, fail) => {
    const child = spawn('docker', ['-H', host, 'save', IMAGE], { stdio: ['ignore', devNull, 'ignore'] });
    child.on('error', fail);
    child.on('close', (code) => {
      closeSync(devNull);
      if (code === 0) done(elapsedMs(started));
      else fail(new Error(`docker save exited ${String(code)}`));
    });
  });
}

async function berthRead(client: EngineClient, baseline: number): Promise<{ ms: number; peakGrowth: number; wasted: number; layers: number }> {
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  const started = process.hrtime.bigint();
  try {
    const analysis = await readImageLayers(client, IMAGE);
    const ms = elapsedMs(started);
    peak = Math.max(peak, process.memoryUsage.rss());
    return { ms, peakGrowth: peak - baseline, wasted: analysis.wastedBytes, layers: analysis.layers.length };
  } finally {
    clearInterval(sampler);
  }
}

async function berthOpenFile(client: EngineClient, location: LayerFileLocation, baseline: number): Promise<{ ms: number; peakGrowth: number }> {
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  const started = process.hrtime.bigint();
  try {
    const bytes = await readImageLayerFile(client, location);
    const ms = elapsedMs(started);
    peak = Math.max(peak, process.memoryUsage.rss());
    if (bytes.length !== LAYER_MIB * 1024 * 1024) throw new Error(`read ${bytes.length} bytes of /${location.path}`);
    return { ms, peakGrowth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

async function main(): Promise<void> {
  const engines = loadTestEngines();
  const client = EngineClient.fromEnvironment({ host: engines.dockerHost, env: {} });
  try {
    await ensureImage(client, engines.image);
    const { Size } = await client.inspectImage(IMAGE);
    // A warm-up of each side: the first save reads the layers from disk into the page cache.
    await dockerSave(engines.dockerHost);
    global.gc?.();
    const baseline = process.memoryUsage.rss();
    await berthRead(client, baseline);
    const analysis = await readImageLayers(client, IMAGE);
    const middle = analysis.layers[Math.floor(analysis.layers.length / 2)];
    const middleFile = middle?.files.find((file) => file.kind === 'file' && file.path.startsWith('layer-'));
    if (middle === undefined || middleFile === undefined) throw new Error('the middle layer holds no layer-N.bin');
    const location: LayerFileLocation = { imageId: analysis.imageId, layerIndex: middle.index, tarPath: middle.tarPath, path: middleFile.path };
    const berth: number[] = [];
    const docker: number[] = [];
    const openFile: number[] = [];
    let peakGrowth = 0;
    let openPeakGrowth = 0;
    let layers = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const sides = [async () => docker.push(await dockerSave(engines.dockerHost)), async () => {
        // The other Berth side's buffers must not count here.
        global.gc?.();
        const result = await berthRead(client, baseline);
        berth.push(result.ms);
        peakGrowth = Math.max(peakGrowth, result.peakGrowth);
        layers = result.layers;
      }, async () => {
        global.gc?.();
        const result = await berthOpenFile(client, location, process.memoryUsage.rss());
        openFile.push(result.ms);
        openPeakGrowth = Math.max(openPeakGrowth, result.peakGrowth);
      }];
      if (round % 2 === 1) sides.reverse();
      for (const side of sides) await side();
    }
    const berthSummary = summarize(berth);
    const dockerSummary = summarize(docker);
    const ratio = berthSummary.median / dockerSummary.median;
    const openSummary = summarize(openFile);
    const openRatio = openSummary.median / dockerSummary.median;
    const MiB = 1024 * 1024;
    const maxRss = process.resourceUsage().maxRSS * 1024;
    const results = {
      image: { bytes: Size, layers },
      berth: berthSummary,
      docker: dockerSummary,
      ratio,
      openFile: { layer: middle.index, path: middleFile.path, bytes: middleFile.size, ...openSummary, ratio: openRatio, peakRssGrowthMiB: openPeakGrowth / MiB },
      peakRssGrowthMiB: peakGrowth / MiB,
      processMaxRssMiB: maxRss / MiB,
    };
    const rows = [
      '| Case | Berth | Peer | Ratio |',
      '|---|---:|---:|---:|',
      `| Layer analysis of a ${(Size / 1e6).toFixed(0)} MB, ${layers}-layer image (median of ${ROUNDS}) | ${berthSummary.median.toFixed(0)} ms (p10–p90 ${berthSummary.p10.toFixed(0)}–${berthSummary.p90.toFixed(0)}) | ${dockerSummary.median.toFixed(0)} ms (docker save > /dev/null; p10–p90 ${dockerSummary.p10.toFixed(0)}–${dockerSummary.p90.toFixed(0)}) | ${ratio.toFixed(2)}× (goal ≤ 1.2×: ${ratio <= 1.2 ? 'met' : 'not met'}) |`,
      `| Open one ${LAYER_MIB} MiB file of layer ${middle.index} of the same image (median of ${ROUNDS}) | ${openSummary.median.toFixed(0)} ms (p10–p90 ${openSummary.p10.toFixed(0)}–${openSummary.p90.toFixed(0)}) | ${dockerSummary.median.toFixed(0)} ms (docker save > /dev/null) | ${openRatio.toFixed(2)}× (goal ≤ 1×: ${openRatio <= 1 ? 'met' : 'not met'}) |`,
      `| Memory while opening that file | ${(openPeakGrowth / MiB).toFixed(1)} MiB above the process before it (the file itself is ${LAYER_MIB} MiB) | goal ≤ ${LAYER_MIB} MiB + 64 MiB | ${openPeakGrowth / MiB <= LAYER_MIB + 64 ? 'met' : 'not met'} |`,
      `| Memory during the analysis | ${(peakGrowth / MiB).toFixed(1)} MiB above the process before it (whole process peak ${(maxRss / MiB).toFixed(0)} MiB, tsx included) | goal ≤ 64 MiB | ${peakGrowth / MiB <= 64 ? 'met' : 'not met'} |`,
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
