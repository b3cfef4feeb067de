/**
 * `npm run bench:compose`: issue 11's figures, against Debian's docker-compose 1.29 on the same private dockerd, in
 * the same run (every service `network_mode: none`).
 * - Group stop of a project with 20 running services: Berth's API group action (at most 8 stops at once) against
 *   `docker-compose stop`. Rounds alternate who goes first; the project is started again through the API between.
 * - Merged logs of 10 services that wrote 100,000 lines in total: Berth's merged reader (engine streams, stamps,
 *   ordering, prefixes) feeding what the document and the terminal get (plain and coloured lines) against
 *   `docker-compose logs --no-color` written to a file. Lines are counted on both sides: none may be lost.
 * Writes bench/compose-results.{md,json}.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import { EngineClient, LinePrefixer, ProjectLogs, actOnProject } from '../src/engine';
import { composeFixture, type ServiceSpec } from '../test/support/composeProject';
import { loadTestEngines, uniqueName } from '../test/support/engines';
import { publishResultPage } from './report';
import { elapsedMs, summarize, type Summary } from './stats';

const SERVICES = Number(process.env.BERTH_BENCH_COMPOSE_SERVICES ?? 20);
const ROUNDS = Number(process.env.BERTH_BENCH_COMPOSE_ROUNDS ?? 5);
const LOG_SERVICES = 10;
const LOG_LINES = Number(process.env.BERTH_BENCH_COMPOSE_LINES ?? 100_000);
const repoRoot = resolve(__dirname, '..');

/** A service that ends at once on SIGTERM (busybox sleep as PID 1 would wait out the stop timeout). */
const quickToStop: ServiceSpec = { command: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 0.1; done'] };
const name = (prefix: string): string => uniqueName(prefix).toLowerCase().replace(/[^a-z0-9]/g, '');

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv, stdoutFile?: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, [...args], { env, stdio: ['ignore', stdoutFile ? 'pipe' : 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
    if (stdoutFile && child.stdout) child.stdout.pipe(createWriteStream(stdoutFile));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise() : reject(new Error(`${command} ${args.join(' ')}: exit ${code}: ${stderr}`))));
  });
}

async function groupStop(client: EngineClient, host: string, image: string): Promise<{ berth: Summary; peer: Summary; ratio: number }> {
  const services = Object.fromEntries(Array.from({ length: SERVICES }, (_, index) => [`s${index}`, quickToStop]));
  const fixture = await composeFixture(host, image, name('benchstop'), services);
  const env = { ...process.env, DOCKER_HOST: host, DOCKER_CONTEXT: '' };
  const berthMs: number[] = [];
  const peerMs: number[] = [];
  try {
    await fixture.compose(['up', '-d']);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['berth', 'peer'] : ['peer', 'berth'];
      for (const who of order) {
        await actOnProject(client, fixture.project, 'start');
        const start = process.hrtime.bigint();
        if (who === 'berth') {
          const result = await actOnProject(client, fixture.project, 'stop');
          if (result.done.length !== SERVICES || result.failed.length > 0) throw new Error(`Berth stopped ${result.done.length} of ${SERVICES}`);
          berthMs.push(elapsedMs(start));
        } else {
          await run('docker-compose', ['-f', fixture.file, '-p', fixture.project, 'stop'], env);
          peerMs.push(elapsedMs(start));
        }
      }
    }
  } finally {
    await fixture.dispose();
  }
  const berth = summarize(berthMs);
  const peer = summarize(peerMs);
  return { berth, peer, ratio: berth.median / peer.median };
}

async function mergedLogs(client: EngineClient, host: string, image: string): Promise<Record<string, number>> {
  const perService = LOG_LINES / LOG_SERVICES;
  const writer: ServiceSpec = { command: ['sh', '-c', `i=0; while [ $i -lt ${perService} ]; do echo "line $i of the service"; i=$((i+1)); done; sleep 1000`] };
  const fixture = await composeFixture(host, image, name('benchlogs'), Object.fromEntries(Array.from({ length: LOG_SERVICES }, (_, index) => [`w${index}`, writer])));
  const env = { ...process.env, DOCKER_HOST: host, DOCKER_CONTEXT: '' };
  try {
    await fixture.compose(['up', '-d']);
    // Wait until every service wrote all its lines (bounded).
    const until = Date.now() + 300_000;
    for (;;) {
      let total = 0;
      const logs = new ProjectLogs(client, fixture.project, { lines: (batch) => (total += batch.length), notice: () => undefined }, { follow: false, signal: AbortSignal.timeout(120_000) });
      await logs.run();
      if (total >= LOG_LINES) break;
      if (Date.now() > until) throw new Error(`only ${total} of ${LOG_LINES} lines were written in time`);
      await new Promise((done) => setTimeout(done, 1000));
    }
    const document: string[] = [];
    let terminal = 0;
    const plain = new LinePrefixer(false);
    const coloured = new LinePrefixer(true);
    let berthLines = 0;
    const start = process.hrtime.bigint();
    await new ProjectLogs(client, fixture.project, {
      lines: (batch) => {
        berthLines += batch.length;
        for (const line of batch) document.push(plain.format(line));
        terminal += batch.map((line) => `${coloured.format(line)}\r\n`).join('').length;
      },
      notice: () => undefined,
    }, { follow: false, signal: AbortSignal.timeout(300_000) }).run();
    const berthMs = elapsedMs(start);
    const file = join(fixture.dir, 'peer.log');
    const peerStart = process.hrtime.bigint();
    await run('docker-compose', ['-f', fixture.file, '-p', fixture.project, 'logs', '--no-color'], env, file);
    const peerMs = elapsedMs(peerStart);
    const peerLines = (await readFile(file, 'utf8')).split('\n').filter((line) => / \| line \d+ of the service$/.test(line)).length;
    await rm(file);
    if (berthLines !== LOG_LINES || peerLines !== LOG_LINES) throw new Error(`lines lost: Berth ${berthLines}, docker-compose ${peerLines}, expected ${LOG_LINES}`);
    if (terminal === 0 || document.length !== LOG_LINES) throw new Error('the sinks got nothing');
    const berthRate = berthLines / (berthMs / 1000);
    const peerRate = peerLines / (peerMs / 1000);
    return { berthMs, peerMs, berthLines, peerLines, berthRate, peerRate, ratio: berthRate / peerRate };
  } finally {
    await fixture.dispose();
  }
}

async function main(): Promise<void> {
  const engines = loadTestEngines();
  const client = EngineClient.fromEnvironment({ host: engines.dockerHost });
  try {
    const stop = await groupStop(client, engines.dockerHost, engines.image);
    const logs = await mergedLogs(client, engines.dockerHost, engines.image);
    const results = { services: SERVICES, rounds: ROUNDS, stop, logs };
    writeFileSync(join(repoRoot, 'bench', 'compose-results.json'), `${JSON.stringify(results, null, 2)}\n`);
    const ms = (value: number): string => `${value.toFixed(0)} ms`;
    publishResultPage(join(repoRoot, 'bench', 'compose-results.md'), {
      title: 'Compose benchmarks (`npm run bench:compose`)',
      intro: [`Private dockerd, Debian's docker-compose 1.29 as the peer, measured in the same run.`],
      columns: ['Measure', 'Berth', 'docker-compose', 'Ratio (goal)'],
      rows: [
        `| Group stop, ${SERVICES} running services (median of ${ROUNDS}, p10–p90) | ${ms(stop.berth.median)} (${ms(stop.berth.p10)}–${ms(stop.berth.p90)}) | ${ms(stop.peer.median)} (${ms(stop.peer.p10)}–${ms(stop.peer.p90)}) | ${stop.ratio.toFixed(2)}× time (≤ 1.0×) |`,
        `| Merged logs, ${LOG_SERVICES} services, ${LOG_LINES} lines (lines/s; lines counted) | ${Math.round(logs.berthRate ?? 0)} lines/s (${logs.berthLines}) | ${Math.round(logs.peerRate ?? 0)} lines/s (${logs.peerLines}) | ${(logs.ratio ?? 0).toFixed(2)}× rate (≥ 1.0×) |`,
      ],
    });
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
