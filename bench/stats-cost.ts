/**
 * `npm run bench:stats`: issue 15's cost figures, measured in one run on the private dockerd with N running
 * containers (default 50), each side for the same window, in alternating order:
 * - Berth: the extension's tree path for the rows on screen (src/stats/statsWatcher.ts: one stream per container,
 *   one flush a second) in a child Node process, so its CPU time is its own; the Berth CLI's `berth stats` too.
 * - The peer: `docker stats` in a pseudo-terminal-less pipe, redrawing the same table.
 * CPU time per minute of the client process (utime + stime from /proc) and of dockerd over the same window.
 * - Hidden view: the watcher told to watch nothing: stats requests counted by a proxy (must be 0), and CPU, beside
 *   the same child with stats turned off (no watcher at all).
 * What it does not measure: the extension host's tree rendering (bench:extension covers refreshes).
 * Writes bench/stats-results.{md,json}.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { EngineClient } from '../src/engine';
import { containerSpec } from '../test/support/containerSpec';
import { loadTestEngines, uniqueName } from '../test/support/engines';
import { rotated, summarize } from './stats';

const execFileAsync = promisify(execFile);
const CONTAINERS = Number(process.env.BERTH_BENCH_STATS_CONTAINERS ?? 50);
const WINDOW_MS = Number(process.env.BERTH_BENCH_STATS_WINDOW_MS ?? 20_000);
const ROUNDS = Number(process.env.BERTH_BENCH_STATS_ROUNDS ?? 3);
const repoRoot = resolve(__dirname, '..');
const TICKS = 100; // USER_HZ on Linux

/** utime + stime of a process, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

interface Measured {
  readonly clientMsPerMin: number;
  readonly dockerdMsPerMin: number;
}

async function measure(start: () => ChildProcess, dockerdPid: number): Promise<Measured> {
  const child = start();
  child.stdout?.resume();
  child.stderr?.resume();
  // Let it open its streams before the window starts.
  await pause(5_000);
  const pid = child.pid as number;
  const [client0, dockerd0] = [cpuMs(pid), cpuMs(dockerdPid)];
  await pause(WINDOW_MS);
  const [client1, dockerd1] = [cpuMs(pid), cpuMs(dockerdPid)];
  // docker stats with its output on a pipe was seen ignoring SIGINT for minutes: SIGKILL after 3 s.
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGINT');
  const killer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(killer);
  const perMin = 60_000 / WINDOW_MS;
  return { clientMsPerMin: (client1 - client0) * perMin, dockerdMsPerMin: (dockerd1 - dockerd0) * perMin };
}

async function main(): Promise<void> {
  const engines = loadTestEngines();
  const dockerdPid = Number(readFileSync(resolve(engines.stateDir, 'docker', 'dockerd.pid'), 'utf8').trim());
  const client = EngineClient.fromEnvironment({ host: engines.dockerHost });
  const marker = uniqueName('bench-stats');
  const ids: string[] = [];
  try {
    for (let index = 0; index < CONTAINERS; index++) {
      const { Id } = await client.containers.create(containerSpec(engines.image, ['sleep', '3600'], { Labels: { 'berth.bench.stats': marker } }));
      await client.containers.start(Id);
      ids.push(Id);
    }
    await execFileAsync(process.execPath, [resolve(repoRoot, 'esbuild.js'), `--cli-outdir=${resolve(repoRoot, 'test-output/bench-stats')}`], { cwd: repoRoot });
    const env = { PATH: process.env.PATH ?? '', HOME: '/nonexistent' };
    // The tree's side runs bundled and minified, as the extension ships (tsx's loader costs CPU of its own).
    const child = resolve(repoRoot, 'test-output/bench-stats/stats-watcher-child.js');
    await build({ entryPoints: [resolve(__dirname, 'stats-watcher-child.ts')], bundle: true, platform: 'node', target: 'node20', minify: true, outfile: child, logLevel: 'error' });
    const watcherChild = (mode: string) => (): ChildProcess => spawn(process.execPath, [child, engines.dockerHost, mode, ...ids], { env });
    const sides: Record<string, () => ChildProcess> = {
      'Berth tree (StatsWatcher)': watcherChild('watch'),
      'berth stats (CLI)': () => spawn(process.execPath, [resolve(repoRoot, 'test-output/bench-stats/cli.js'), '-H', engines.dockerHost, 'stats', ...ids], { env }),
      'docker stats (CLI)': () => spawn('docker', ['-H', engines.dockerHost, 'stats', ...ids], { env }),
      'Berth tree, view hidden': watcherChild('hidden'),
      'Berth, stats turned off': watcherChild('off'),
    };
    // Each side runs ROUNDS times, the order rotated from round to round; each figure is the median of its rounds.
    const samples: Record<string, Measured[]> = {};
    const names = Object.keys(sides);
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of rotated(names, round)) (samples[name] ??= []).push(await measure(sides[name] as () => ChildProcess, dockerdPid));
    }
    const median = (values: number[]): number => summarize(values).median;
    const results: Record<string, Measured> = Object.fromEntries(
      Object.entries(samples).map(([name, runs]) => [name, { clientMsPerMin: median(runs.map((run) => run.clientMsPerMin)), dockerdMsPerMin: median(runs.map((run) => run.dockerdMsPerMin)) }]),
    );
    const hiddenRequests = Number(readFileSync(resolve(repoRoot, 'test-output/bench-stats/hidden-requests.txt'), 'utf8'));
    const docker = results['docker stats (CLI)'] as Measured;
    const rows = Object.entries(results).map(([name, figures]) => {
      const combined = figures.clientMsPerMin + figures.dockerdMsPerMin;
      const ratio = combined / (docker.clientMsPerMin + docker.dockerdMsPerMin);
      return `| ${name} | ${figures.clientMsPerMin.toFixed(0)} | ${figures.dockerdMsPerMin.toFixed(0)} | ${combined.toFixed(0)} | ${ratio.toFixed(2)}× |`;
    });
    const report = [
      `# Live stats: cost with ${CONTAINERS} running containers`,
      '',
      `The private dockerd; each side ${ROUNDS} times (order rotated), each time for ${WINDOW_MS / 1000} s after 5 s to open its streams; CPU time (utime + stime from /proc) per minute, medians of the rounds.`,
      'Ratio: client + dockerd against `docker stats` + dockerd in the same run.',
      '',
      '| side | client CPU ms/min | dockerd CPU ms/min | combined | vs docker stats |',
      '| --- | --- | --- | --- | --- |',
      ...rows,
      '',
      `View hidden: ${hiddenRequests} stats requests during the window (the watcher watches nothing, so no stream and no timer).`,
      '',
    ].join('\n');
    writeFileSync(resolve(__dirname, 'stats-results.md'), report);
    writeFileSync(resolve(__dirname, 'stats-results.json'), `${JSON.stringify({ containers: CONTAINERS, windowMs: WINDOW_MS, rounds: ROUNDS, results, samples, hiddenRequests }, null, 2)}\n`);
    console.log(report);
  } finally {
    for (const id of ids) await client.containers.remove(id, { force: true }).catch(() => undefined);
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
