/**
 * `npm run bench:volumes`: issue 13's figures, measured in one run against peers on the same private dockerd.
 * - Opening the Volumes view with 500 volumes, 200 of them in use, in two steps, as the view draws them:
 *   - rows on screen: the view draws every row (name, driver, the containers that use it) once the volume list is
 *     in. The users come from the containers in memory: the engine model follows a local engine's containers from
 *     activation (src/model/engineSessions.ts), so opening the view asks for nothing else. Against `docker volume
 *     ls`, what Microsoft's extension spawns for its Volumes view (it shows neither users nor sizes);
 *   - sizes filled in: `/system/df` answers later and the rows gain their sizes. Against `docker volume ls` plus
 *     `docker system df -v` spawned, the CLI's way to the same figures.
 *   Rounds interleaved; ratios from medians.
 * - Volume events: event → row with those volumes listed (bench/volume-events.ts).
 * - Prune of N stopped containers: Berth's one engine call (`POST /containers/prune`, label-filtered) against
 *   `docker container prune -f` with the same filter, each on its own fresh set, in alternating rounds.
 * Everything carries this run's label; only that label is ever pruned. Writes bench/volumes-results.{md,json}.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { EngineClient } from '../src/engine';
import { containerSpec } from '../test/support/containerSpec';
import { loadTestEngines, uniqueName } from '../test/support/engines';
import { elapsedMs, rotated, summarize, type Summary } from './stats';
import { measureVolumeEvents } from './volume-events';

const execFileAsync = promisify(execFile);
const VOLUMES = Number(process.env.BERTH_BENCH_VOLUMES ?? 500);
const IN_USE = Number(process.env.BERTH_BENCH_VOLUMES_IN_USE ?? 200);
const PRUNE_CONTAINERS = Number(process.env.BERTH_BENCH_PRUNE_CONTAINERS ?? 500);
const ROUNDS = Number(process.env.BERTH_BENCH_VOLUME_ROUNDS ?? 10);
const PRUNE_ROUNDS = Number(process.env.BERTH_BENCH_PRUNE_ROUNDS ?? 7);
const EVENT_CYCLES = Number(process.env.BERTH_BENCH_VOLUME_EVENTS ?? 20);
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
    await inBatches(names, 20, (name) => client.volumes.create({ Name: name, Labels: labels }));
    await inBatches(names.slice(0, IN_USE), 10, (name) =>
      client.containers.create(containerSpec(engines.image, ['true'], { Labels: labels, HostConfig: { Binds: [`${name}:/data`] } })),
    );

    const timings = { berthRows: [] as number[], berthSizes: [] as number[], dockerRows: [] as number[], dockerSizes: [] as number[] };
    const timed = async (into: number[], work: () => Promise<unknown>): Promise<void> => {
      const start = process.hrtime.bigint();
      await work();
      into.push(elapsedMs(start));
    };
    const contenders = [
      () => timed(timings.berthRows, () => client.volumes.list({})),
      () => timed(timings.berthSizes, () => Promise.all([client.volumes.list({}), client.system.df()])),
      () => timed(timings.dockerRows, () => docker(['volume', 'ls', '--format', '{{json .}}'])),
      () => timed(timings.dockerSizes, () => Promise.all([docker(['volume', 'ls', '--format', '{{json .}}']), docker(['system', 'df', '-v', '--format', '{{json .}}'])])),
    ];
    for (let round = 0; round < ROUNDS; round++) {
      for (const run of rotated(contenders, round)) await run();
    }
    const open = {
      rows: { berth: summarize(timings.berthRows), docker: summarize(timings.dockerRows) },
      sizes: { berth: summarize(timings.berthSizes), docker: summarize(timings.dockerSizes) },
    };

    const viewClient = EngineClient.fromEnvironment({ host: engines.dockerHost });
    const users = await client.containers.list({ all: true });
    const events = await measureVolumeEvents(viewClient, client, { count: VOLUMES, cycles: EVENT_CYCLES, prefix: marker, labels, containers: () => users }).finally(() => viewClient.close());

    // Prune: each side gets its own fresh set of stopped (created) containers with a label of its own.
    const pruneSet = async (tag: string): Promise<string> => {
      const value = `${marker}-${tag}`;
      await inBatches(Array.from({ length: PRUNE_CONTAINERS }, (_, index) => index), 20, () =>
        client.containers.create(containerSpec(engines.image, ['true'], { Labels: { ...labels, 'berth.bench.prune': value } })),
      );
      return `berth.bench.prune=${value}`;
    };
    // Both sides send the same engine call, so the engine's own work dominates and varies from set to set: rounds
    // alternate which side goes first, and the ratio is of medians.
    const pruneMs = { berth: [] as number[], docker: [] as number[] };
    let removed = 0;
    for (let round = 0; round < PRUNE_ROUNDS; round++) {
      const sides = [
        async (): Promise<void> => {
          const berthLabel = await pruneSet(`berth-${round}`);
          const start = process.hrtime.bigint();
          const report = await client.system.prune('containers', { filters: { label: [berthLabel] } });
          pruneMs.berth.push(elapsedMs(start));
          removed = report.removed.length;
        },
        async (): Promise<void> => {
          const dockerLabel = await pruneSet(`docker-${round}`);
          const start = process.hrtime.bigint();
          await docker(['container', 'prune', '-f', '--filter', `label=${dockerLabel}`]);
          pruneMs.docker.push(elapsedMs(start));
        },
      ];
      for (const side of rotated(sides, round)) await side();
    }
    const prune = { berth: summarize(pruneMs.berth), docker: summarize(pruneMs.docker) };

    const results = {
      volumes: VOLUMES,
      inUse: IN_USE,
      rounds: ROUNDS,
      openRows: { berthMedianMs: open.rows.berth.median, dockerMedianMs: open.rows.docker.median, speedup: open.rows.docker.median / open.rows.berth.median },
      openSizes: { berthMedianMs: open.sizes.berth.median, dockerMedianMs: open.sizes.docker.median, speedup: open.sizes.docker.median / open.sizes.berth.median },
      events: events.map((row) => ({ event: row.event, volumes: row.volumes, medianMs: row.total.median, p90Ms: row.total.p90, samples: row.total.samples, rowsRendered: row.rowsRendered })),
      prune: { containers: PRUNE_CONTAINERS, rounds: PRUNE_ROUNDS, removed, berthMs: pruneMs.berth, dockerMs: pruneMs.docker, ratio: prune.berth.median / prune.docker.median },
    };
    writeFileSync(resolve(repoRoot, 'bench', 'volumes-results.json'), `${JSON.stringify(results, null, 2)}\n`);
    const md = [
      `| Case | Berth | Peer | Ratio |`,
      `|---|---:|---:|---:|`,
      `| Open the Volumes view, rows on screen: ${VOLUMES} volumes, ${IN_USE} in use (median of ${ROUNDS}) | ${fmt(open.rows.berth)} (volume list) | ${fmt(open.rows.docker)} (docker volume ls) | ${results.openRows.speedup.toFixed(1)}× faster |`,
      `| Open the Volumes view, sizes filled in (median of ${ROUNDS}) | ${fmt(open.sizes.berth)} (+ /system/df) | ${fmt(open.sizes.docker)} (docker volume ls + docker system df -v) | ${results.openSizes.speedup.toFixed(1)}× faster |`,
      ...events.map((row) => `| Volume event → row, ${row.event}, ${row.volumes} volumes listed (median of ${row.total.samples}; p90 ${row.total.p90.toFixed(1)} ms) | ${row.total.median.toFixed(1)} ms | goal < 50 ms | ${row.total.p90 < 50 ? 'met' : 'not met'} |`),
      `| Prune ${PRUNE_CONTAINERS} stopped containers (median of ${PRUNE_ROUNDS}, a fresh set each) | ${fmt(prune.berth)} | ${fmt(prune.docker)} (docker container prune -f) | ${results.prune.ratio.toFixed(2)}× |`,
    ].join('\n');
    writeFileSync(resolve(repoRoot, 'bench', 'volumes-results.md'), `${md}\n`);
    process.stdout.write(`${md}\n`);
  } finally {
    for (const container of await client.containers.list({ all: true, filters })) await client.containers.remove(container.Id, { force: true }).catch(() => undefined);
    for (const volume of await client.volumes.list({ filters })) await client.volumes.remove(volume.Name, { force: true }).catch(() => undefined);
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
