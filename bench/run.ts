/**
 * `npm run bench`: Berth's engine client against its peers, all in one run on the same engine.
 *   1. Small calls (ping, inspect): Berth, dockerode, the docker CLI spawned per call, the raw-socket floor.
 *   2. Listing 0, 100 and 1,000 containers (created labelled, NetworkMode none, never started).
 *   3. Log streaming of 100 MB of multiplexed output, end to end and decoders alone; MB/s.
 * Prints markdown tables and writes bench/results.md and bench/results.json. It asserts nothing about time.
 *
 * Engine: BERTH_BENCH_HOST (unix://) with BERTH_BENCH_IMAGE (needs sh, yes, head), else the private test dockerd.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { delimiter, join } from 'node:path';
import { EngineClient } from '../src/engine';
import { loadTestEngines } from '../test/support/engines';
import { createIdleContainers, createLogContainer, fixtureLabels, LOG_BYTES, LOG_LINE_BYTES, removeRunContainers } from './fixtures';
import { captureLogBody, decoderReaders, logReaders, type LogReader } from './logs';
import { measureInterleaved, pairedRatio, type Contender, type Measurement } from './measure';
import { berthPeer, cliPeer, dockerodePeer, rawPeer, type Peer, type PeerSetup } from './peers';
import { latencyTable, renderMarkdown, targetsTable, throughputTable, type BenchReport, type LatencyResult, type TargetCheck, type ThroughputResult } from './report';
import { elapsedMs, rotated, summarize } from './stats';
import { errorMessage } from '../src/common/errors';

const SMALL_CALL_SAMPLES = 3000;
const CLI_SAMPLES = 60;
const ROUNDS = 30;
const LIST_SIZES: ReadonlyArray<{ count: number; samples: number; cliSamples: number }> = [
  { count: 0, samples: 1000, cliSamples: 30 },
  { count: 100, samples: 300, cliSamples: 20 },
  { count: 1000, samples: 60, cliSamples: 10 },
];
const LOG_RUNS = 7;
const DECODER_RUNS = 10;

interface Target {
  host: string;
  image: string;
}

function benchTarget(): Target {
  const host = process.env.BERTH_BENCH_HOST?.trim();
  if (host) return { host, image: process.env.BERTH_BENCH_IMAGE?.trim() || 'busybox:latest' };
  const engines = loadTestEngines();
  return { host: engines.dockerHost, image: engines.image };
}

function findOnPath(command: string): string | undefined {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(directory, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Docker names its component just "Engine"; Podman says "Podman Engine". */
function engineName(component: string | undefined): string {
  if (component === undefined || component === 'Engine') return 'Docker Engine';
  return component;
}

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

function latencyContenders(peers: readonly Peer[], call: (peer: Peer) => (() => Promise<unknown>) | undefined, samples: (peer: Peer) => number): Contender[] {
  const contenders: Contender[] = [];
  for (const peer of peers) {
    const run = call(peer);
    if (!run) continue;
    const count = samples(peer);
    contenders.push({ name: peer.name, run, samples: count, warmup: Math.max(3, Math.floor(count / 15)) });
  }
  return contenders;
}

function latencyResults(scenario: string, measurements: Map<string, Measurement>, floorName: string): LatencyResult[] {
  const floor = measurements.get(floorName);
  return [...measurements].map(([peer, measurement]) => ({
    scenario,
    peer,
    summary: summarize(measurement.samples),
    cpuMsPerCall: measurement.cpuMsPerCall,
    pairedFloorRatio: floor ? pairedRatio(measurement, floor) : Number.NaN,
    floor: peer === floorName,
  }));
}

/** Each reader's MB/s per run, interleaved, after one untimed run each. */
async function measureThroughput(scenario: string, readers: readonly LogReader[], runs: number, payloadBytes: number, floorName: string): Promise<ThroughputResult[]> {
  const rates = new Map<string, number[]>(readers.map((reader) => [reader.name, []]));
  const cpuTimes = new Map<string, number[]>(readers.map((reader) => [reader.name, []]));
  for (const reader of readers) await reader.read();
  for (let round = 0; round < runs; round++) {
    for (const reader of rotated(readers, round)) {
      const cpuBefore = process.cpuUsage();
      const start = process.hrtime.bigint();
      const bytes = await reader.read();
      const seconds = elapsedMs(start) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      if (bytes < payloadBytes) throw new Error(`${reader.name} read ${bytes} bytes, expected at least ${payloadBytes}`);
      rates.get(reader.name)?.push(payloadBytes / 1e6 / seconds);
      cpuTimes.get(reader.name)?.push((cpu.user + cpu.system) / 1000);
    }
  }
  return [...rates].map(([reader, values]) => ({
    scenario,
    reader,
    summary: summarize(values),
    cpuMs: summarize(cpuTimes.get(reader) ?? []).median,
    floor: reader === floorName,
  }));
}

function ratio(rows: readonly LatencyResult[], scenario: string, peer: string, other: string): number {
  const median = (name: string): number => rows.find((row) => row.scenario === scenario && row.peer === name)?.summary.median ?? Number.NaN;
  return median(peer) / median(other);
}

async function main(): Promise<void> {
  const target = benchTarget();
  if (!target.host.startsWith('unix://')) throw new Error(`the benchmark needs a unix:// engine, got ${target.host}`);
  const socketPath = target.host.slice('unix://'.length);
  const runId = `bench-${randomBytes(4).toString('hex')}`;
  const admin = EngineClient.fromEnvironment({ host: target.host, env: {} });
  const apiVersion = await admin.negotiatedVersion();
  const engineVersion = await admin.system.version();
  const dockerCli = findOnPath('docker');
  const setup: PeerSetup = { host: target.host, socketPath, apiVersion, dockerCli };
  const peers: Peer[] = [await rawPeer(setup), berthPeer(setup), dockerodePeer(setup)];
  const cli = cliPeer(setup);
  if (cli) peers.push(cli);
  const floorName = 'raw socket (floor)';
  const berthName = 'Berth (undici)';
  const isCli = (peer: Peer): boolean => peer === cli;

  const latency: LatencyResult[] = [];
  const throughput: ThroughputResult[] = [];
  try {
    log(`engine ${target.host} (${engineVersion.Version}, API ${apiVersion}), run ${runId}`);
    const probe = fixtureLabels(runId, 'probe');
    const [probeId] = await createIdleContainers(admin, target.image, 1, probe.labels);

    log('small calls: ping');
    latency.push(...latencyResults('ping', await measureInterleaved(latencyContenders(peers, (peer) => peer.ping?.bind(peer), () => SMALL_CALL_SAMPLES), ROUNDS), floorName));
    log('small calls: inspect');
    const inspectContenders = latencyContenders(peers, (peer) => () => peer.inspect(probeId as string), (peer) => (isCli(peer) ? CLI_SAMPLES : SMALL_CALL_SAMPLES));
    latency.push(...latencyResults('inspect a container', await measureInterleaved(inspectContenders, ROUNDS), floorName));

    let created = 0;
    const listSet = fixtureLabels(runId, 'list');
    for (const size of LIST_SIZES) {
      if (size.count > created) {
        log(`creating ${size.count - created} containers`);
        await createIdleContainers(admin, target.image, size.count - created, listSet.labels);
        created = size.count;
      }
      log(`listing ${size.count} containers`);
      const contenders = latencyContenders(
        peers,
        (peer) => async () => {
          const count = await peer.list(listSet.filter);
          if (count !== size.count) throw new Error(`${peer.name} listed ${count} containers, expected ${size.count}`);
        },
        (peer) => (isCli(peer) ? size.cliSamples : size.samples),
      );
      latency.push(...latencyResults(`list ${size.count.toLocaleString('en')} containers`, await measureInterleaved(contenders, Math.min(10, size.cliSamples)), floorName));
    }

    log(`log streaming: writing ${LOG_BYTES / 2 ** 20} MiB`);
    const logId = await createLogContainer(admin, target.image, fixtureLabels(runId, 'logs').labels);
    const streamName = `${LOG_BYTES / 2 ** 20} MiB logs via the engine`;
    throughput.push(...(await measureThroughput(streamName, logReaders(setup, admin, logId), LOG_RUNS, LOG_BYTES, 'raw socket read (floor)')));
    log('log decoders alone');
    const chunks = await captureLogBody(setup, logId);
    const bodyBytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    throughput.push(...(await measureThroughput(`same body from memory (${chunks.length} chunks)`, decoderReaders(chunks), DECODER_RUNS, LOG_BYTES, 'no decoding (floor)')));
    log(`captured body: ${bodyBytes} bytes in ${chunks.length} chunks`);
  } finally {
    await Promise.all(peers.map((peer) => peer.close()));
    log(`removed ${await removeRunContainers(admin, runId)} benchmark containers`);
    await admin.close();
  }

  const targets: TargetCheck[] = [];
  for (const scenario of ['ping', 'inspect a container']) {
    const row = (peer: string): LatencyResult | undefined => latency.find((candidate) => candidate.scenario === scenario && candidate.peer === peer);
    const overFloor = ratio(latency, scenario, berthName, floorName);
    const paired = row(berthName)?.pairedFloorRatio ?? Number.NaN;
    const vsDockerode = ratio(latency, scenario, berthName, 'dockerode');
    targets.push({
      target: `${scenario}: Berth ≤ 1.5× the raw floor`,
      measured: `${overFloor.toFixed(2)}× (overall medians); ${paired.toFixed(2)}× (paired by round)`,
      met: overFloor <= 1.5,
    });
    targets.push({ target: `${scenario}: Berth ahead of dockerode`, measured: `${vsDockerode.toFixed(2)}× dockerode's time`, met: vsDockerode < 1 });
  }
  const rate = (scenario: string | undefined, reader: string): number =>
    throughput.find((row) => row.scenario === scenario && row.reader === reader)?.summary.median ?? Number.NaN;
  const endToEnd = throughput[0]?.scenario;
  const berthRate = rate(endToEnd, 'Berth (undici + FrameDemuxer)');
  const rawRate = rate(endToEnd, 'raw socket read (floor)');
  const modemRate = rate(endToEnd, 'dockerode + demuxStream');
  targets.push({ target: 'logs: Berth ≥ 90% of a raw read', measured: `${((berthRate / rawRate) * 100).toFixed(0)}%`, met: berthRate >= 0.9 * rawRate });
  targets.push({ target: 'logs: Berth ahead of docker-modem', measured: `${(berthRate / modemRate).toFixed(2)}× docker-modem's MB/s`, met: berthRate > modemRate });

  const report: BenchReport = {
    date: new Date().toISOString(),
    machine: {
      CPU: `${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores`,
      memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
      kernel: release(),
      node: process.version,
      engine: `${engineName(engineVersion.Components?.[0]?.Name)} ${engineVersion.Version} (API ${engineVersion.ApiVersion}, negotiated ${apiVersion}) on ${target.host}`,
      'docker CLI': dockerCli ? execFileSync(dockerCli, ['--version'], { encoding: 'utf8' }).trim() : 'not installed',
    },
    latency,
    throughput,
    targets,
    notes: [
      `Interleaved: ${ROUNDS} rounds for small calls (up to 10 for listing), each running a batch of every client in rotated order, after warm-up calls (connections open, API version negotiated).`,
      'Every client gets its result parsed (JSON.parse for the raw floor too); every client uses the same /v<negotiated> path prefix except the docker CLI, which negotiates per process.',
      'The docker CLI runs `docker -H <host> inspect ID` and `docker -H <host> ps -a --no-trunc --filter label=... --format "{{json .}}"`, one process per call, as editor extensions do.',
      `Listing: containers created with a run label, never started, NetworkMode none; each call lists exactly the set by label filter.`,
      `Logs: a finished non-TTY container that wrote ${LOG_BYTES / 2 ** 20} MiB to stdout in ${LOG_LINE_BYTES}-byte lines (json-file driver), read with follow=1; MB/s = 10^6 payload bytes per second. End to end the engine's own log reading bounds every reader; "from memory" replays the captured response body through each decoder only.`,
      'Spread is p10–p90. "Paired by round" is the median over rounds of the client\'s round median over the floor\'s round median: within a round the two ran at most seconds apart, so load drifting between rounds on a shared machine cancels out. Targets are judged on the overall medians.',
      'Client CPU is the benchmark process\'s user + system time per call (for the docker CLI, without the child process\'s own CPU), a figure less disturbed by other load than wall time.',
      'No timing is asserted anywhere; these figures describe this machine only.',
    ],
  };

  const markdown = renderMarkdown(report);
  writeFileSync(join(__dirname, 'results.md'), markdown);
  writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${latencyTable(latency)}\n\n${throughputTable(throughput)}\n\n${targetsTable(targets)}\n\nWrote bench/results.md and bench/results.json\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${errorMessage(error)}\n`);
  process.exitCode = 1;
});
