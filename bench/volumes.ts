/**
 * `npm run bench:volumes`: issue 13's figures, measured in one run against peers on the same private dockerd.
 * - Opening the Volumes view with 500 volumes, 200 of them in use: what Berth asks the engine (the volume list and
 *   `/system/df`, in parallel, over one client) against `docker volume ls` plus `docker system df -v` spawned the way
 *   Microsoft's Docker extension does. Rounds interleaved; ratios from medians.
 * - Prune of N stopped containers: Berth's one engine call (`POST /containers/prune`, label-filtered) against
 *   `docker container prune -f` with the same filter, each on its own fresh set.
 * Everything carries this run's label; only that label is ever pruned. Writes bench/volumes-results.{md,json}.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { EngineClient } from '../src/engine';
import { containerSpec } from '../test/support/containerSpec';
import { loadTestEngines, uniqueName } from '../test/support/engines';
import { elapsedMs, summarize, type Summary } from './stats';

const execFileAsync = promisify(execFile);
const VOLUMES = Number(process.env.BERTH_BENCH_VOLUMES ?? 500);
const IN_USE = Number(process.env.BERTH_BENCH_VOLUMES_IN_USE ?? 200);
const PRUNE_CONTAINERS = Number(process.env.BERTH_BENCH_PRUNE_CONTAINERS ?? 500);
const ROUNDS = Number(process.env.BERTH_BENCH_VOLUME_ROUNDS ?? 10);
const repoRoot = resolve(__dirname, '..');

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<unknown>): Promise<void> {
  for (let at = 0; at < items.length; at += size) await Promise.all(items.slice(at, at + size).map(work));
}

async function main(): Promise<void> {
  const engines = loadTestEngines();
  const client = EngineClient.fromEnvironment({ host: engines.dockerHost });
  const marker = uniqueName('bench-vol');
  const label = `berth.bench.volumes=${marker}`;
  const labels = { 'berth.test': '1', 'berth.bench.volumes': marker };
  const filters = { label: [label] };
  const docker = (args: string[]): Promise<unknown> => execFileAsync('docker', ['-H', engines.dockerHost, ...args], { maxBuffer: 64 << 20 });
  try {
    const names = Array.from({ length: VOLUMES }, (_, index) => `${marker}-${index}`);
    await inBatches(names, 20, (name) => client.createVolume({ Name: name, Labels: labels }));
    await inBatches(names.slice(0, IN_USE), 10, (name) =>
      client.createContainer(containerSpec(engines.image, ['true'], { Labels: labels, HostConfig: { Binds: [`${name}:/data`] } })),
    );

    const berthMs: number[] = [];
    const dockerMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const berthFirst = round % 2 === 0;
      const runBerth = async (): Promise<void> => {
        const start = process.hrtime.bigint();
        await Promise.all([client.listVolumes({}), client.diskUsage()]);
        berthMs.push(elapsedMs(start));
      };
      const runDocker = async (): Promise<void> => {
        const start = process.hrtime.bigint();
        await Promise.all([docker(['volume', 'ls', '--format', '{{json .}}']), docker(['system', 'df', '-v', '--format', '{{json .}}'])]);
        dockerMs.push(elapsedMs(start));
      };
      if (berthFirst) {
        await runBerth();
        await runDocker();
      } else {
        await runDocker();
        await runBerth();
      }
    }
    const open = { berth: summarize(berthMs), docker: summarize(dockerMs) };

    // Prune: each side gets its own fresh set of stopped (created) containers with a label of its own.
    const pruneSet = async (tag: string): Promise<string> => {
      const value = `${marker}-${tag}`;
      await inBatches(Array.from({ length: PRUNE_CONTAINERS }, (_, index) => index), 20, () =>
        client.createContainer(containerSpec(engines.image, ['true'], { Labels: { ...labels, 'berth.bench.prune': value } })),
      );
      return `berth.bench.prune=${value}`;
    };
    const berthLabel = await pruneSet('berth');
    let start = process.hrtime.bigint();
    const report = await client.prune('containers', { filters: { label: [berthLabel] } });
    const berthPruneMs = elapsedMs(start);
    const dockerLabel = await pruneSet('docker');
    start = process.hrtime.bigint();
    await docker(['container', 'prune', '-f', '--filter', `label=${dockerLabel}`]);
    const dockerPruneMs = elapsedMs(start);

    const results = {
      volumes: VOLUMES,
      inUse: IN_USE,
      rounds: ROUNDS,
      open: { berthMedianMs: open.berth.median, dockerMedianMs: open.docker.median, speedup: open.docker.median / open.berth.median },
      prune: { containers: PRUNE_CONTAINERS, removed: report.removed.length, berthMs: berthPruneMs, dockerMs: dockerPruneMs, ratio: berthPruneMs / dockerPruneMs },
    };
    writeFileSync(resolve(repoRoot, 'bench', 'volumes-results.json'), `${JSON.stringify(results, null, 2)}\n`);
    const md = [
      `| Case | Berth | Peer | Ratio |`,
      `|---|---:|---:|---:|`,
      `| Open the Volumes view: ${VOLUMES} volumes, ${IN_USE} in use (median of ${ROUNDS}) | ${fmt(open.berth)} | ${fmt(open.docker)} (docker volume ls + docker system df -v) | ${results.open.speedup.toFixed(1)}× faster |`,
      `| Prune ${PRUNE_CONTAINERS} stopped containers (one run each) | ${berthPruneMs.toFixed(0)} ms | ${dockerPruneMs.toFixed(0)} ms (docker container prune -f) | ${results.prune.ratio.toFixed(2)}× |`,
    ].join('\n');
    writeFileSync(resolve(repoRoot, 'bench', 'volumes-results.md'), `${md}\n`);
    process.stdout.write(`${md}\n`);
  } finally {
    for (const container of await client.listContainers({ all: true, filters })) await client.removeContainer(container.Id, { force: true }).catch(() => undefined);
    for (const volume of await client.listVolumes({ filters })) await client.removeVolume(volume.Name, { force: true }).catch(() => undefined);
    await client.close();
  }
}

function fmt(summary: Summary): string {
  return `${summary.median.toFixed(0)} ms`;
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
