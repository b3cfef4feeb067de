/**
 * `npm run bench:build`: issue 12's build-context figure, measured in one run against the docker CLI on the same
 * private dockerd. A context of 20,000 files and 300 MB whose `.dockerignore` excludes half of it; from the start to
 * the engine's first step line (`Step 1/2`), Berth's build (engine/build/build.ts: the tar streamed while read) against
 * `DOCKER_BUILDKIT=0 docker build` with the same context. Rounds interleaved; the ratio is of the medians. Berth's
 * peak heap is sampled during its builds (after a GC when --expose-gc is given) to show that the tar streams.
 * Writes bench/build-results.{md,json}.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildImage, EngineClient } from '../src/engine';
import { loadTestEngines, uniqueName } from '../test/support/engines';
import { summarize, type Summary } from './stats';

const FILES = Number(process.env.BERTH_BENCH_BUILD_FILES ?? 20_000);
const TOTAL_MB = Number(process.env.BERTH_BENCH_BUILD_MB ?? 300);
const ROUNDS = Number(process.env.BERTH_BENCH_BUILD_ROUNDS ?? 6);
const repoRoot = resolve(__dirname, '..');

function makeContext(root: string, image: string): void {
  const size = Math.floor((TOTAL_MB * 1024 * 1024) / FILES);
  const content = Buffer.alloc(size, 'berth');
  for (let index = 0; index < FILES; index++) {
    // Half the files under kept/, half under ignored/ (which .dockerignore leaves out), 100 per folder.
    const dir = join(root, index % 2 === 0 ? 'kept' : 'ignored', `d${Math.floor(index / 200)}`);
    if (index % 200 < 2) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${index}.bin`), content);
  }
  writeFileSync(join(root, '.dockerignore'), 'ignored\n');
  // No RUN, so the network mode does not matter; the first step line is what is timed.
  writeFileSync(join(root, 'Dockerfile'), `FROM ${image}\nCOPY kept /kept\n`);
}

async function berthRound(client: EngineClient, context: string, tag: string): Promise<{ ms: number; peakHeapMB: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  let peak = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const started = performance.now();
  let firstStep: number | undefined;
  try {
    await buildImage(client, {
      contextDir: context,
      tags: [tag],
      noCache: true,
      onMessage: (message) => {
        if (firstStep === undefined && message.stream?.startsWith('Step 1/')) firstStep = performance.now() - started;
      },
    });
  } finally {
    clearInterval(sampler);
  }
  return { ms: firstStep ?? Number.NaN, peakHeapMB: peak / (1024 * 1024) };
}

function dockerRound(host: string, context: string, tag: string): Promise<number> {
  return new Promise((resolveRound, reject) => {
    const started = performance.now();
    let firstStep: number | undefined;
    const child = spawn('docker', ['build', '--no-cache', '-t', tag, '.'], { cwd: context, env: { ...process.env, DOCKER_HOST: host, DOCKER_BUILDKIT: '0' } });
    child.stdout.on('data', (chunk: Buffer) => {
      if (firstStep === undefined && chunk.toString('utf8').includes('Step 1/')) firstStep = performance.now() - started;
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 && firstStep !== undefined ? resolveRound(firstStep) : reject(new Error(`docker build exited ${code}`))));
  });
}

async function main(): Promise<void> {
  const engines = loadTestEngines();
  const client = EngineClient.fromEnvironment({ host: engines.dockerHost });
  const root = mkdtempSync(join(tmpdir(), 'berth-bench-build-'));
  const repository = uniqueName('berth-bench-build').toLowerCase();
  const berth: number[] = [];
  const docker: number[] = [];
  const heaps: number[] = [];
  try {
    console.log(`writing ${FILES} files, ${TOTAL_MB} MB…`);
    makeContext(root, engines.image);
    for (let round = 0; round < ROUNDS; round++) {
      // Who goes first alternates: the engine's disk is still busy with the previous build's layer for a while.
      const runBerth = async (): Promise<void> => {
        const ours = await berthRound(client, root, `${repository}:berth`);
        berth.push(ours.ms);
        heaps.push(ours.peakHeapMB);
      };
      const runDocker = async (): Promise<void> => {
        docker.push(await dockerRound(engines.dockerHost, root, `${repository}:docker`));
      };
      for (const run of round % 2 === 0 ? [runBerth, runDocker] : [runDocker, runBerth]) await run();
      console.log(`round ${round + 1} (${round % 2 === 0 ? 'berth' : 'docker'} first): berth ${berth[round]?.toFixed(0)} ms (peak heap ${heaps[round]?.toFixed(1)} MB), docker ${docker[round]?.toFixed(0)} ms`);
    }
  } finally {
    for (const tag of ['berth', 'docker']) await client.images.remove(`${repository}:${tag}`, { force: true }).catch(() => undefined);
    await client.close();
    rmSync(root, { recursive: true, force: true });
  }
  const ours: Summary = summarize(berth);
  const theirs: Summary = summarize(docker);
  const ratio = ours.median / theirs.median;
  const peakHeap = Math.max(...heaps);
  const results = { files: FILES, totalMB: TOTAL_MB, excluded: 'half (ignored/)', rounds: ROUNDS, berthMs: ours, dockerMs: theirs, ratio, berthPeakHeapMB: peakHeap, node: process.version };
  writeFileSync(join(repoRoot, 'bench', 'build-results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const table = [
    '# Build context: start to the first step line',
    '',
    `${FILES} files, ${TOTAL_MB} MB; \`.dockerignore\` excludes half. ${ROUNDS} rounds, interleaved (who goes first alternates), on the private dockerd (classic builder). Node ${process.version}.`,
    '',
    '| | median | p10 | p90 |',
    '| --- | --- | --- | --- |',
    `| Berth (\`POST /build\`, tar streamed while read) | ${ours.median.toFixed(0)} ms | ${ours.p10.toFixed(0)} ms | ${ours.p90.toFixed(0)} ms |`,
    `| \`DOCKER_BUILDKIT=0 docker build\` | ${theirs.median.toFixed(0)} ms | ${theirs.p10.toFixed(0)} ms | ${theirs.p90.toFixed(0)} ms |`,
    '',
    `Ratio Berth / docker: **${ratio.toFixed(2)}×** (goal ≤ 1.0×). Berth's peak heap during its builds: **${peakHeap.toFixed(1)} MB** (goal < 100 MB).`,
    '',
  ].join('\n');
  writeFileSync(join(repoRoot, 'bench', 'build-results.md'), table);
  console.log(table);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
