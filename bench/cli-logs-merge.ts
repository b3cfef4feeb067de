/**
 * `npm run bench:cli-logs`: `berth logs A B …` (20 containers merged in timestamp order, with name prefixes) against
 * `docker-compose logs --no-color` (Debian's 1.29) for the same 20-service project on the same private dockerd, in
 * the same run. Both write to a file; rounds alternate who goes first. Every line is counted on both sides, and each
 * container's lines must come in the same order on both (none lost, none repeated). Issue 35's goal: ≥ 1.0× the
 * rate. Berth is built as it ships (esbuild.js --production). Writes bench/cli-logs-results.{md,json}.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EngineClient } from '../src/engine';
import { composeFixture, type ServiceSpec } from '../test/support/composeProject';
import { loadTestEngines, uniqueName } from '../test/support/engines';
import { elapsedMs, summarize, type Summary } from './stats';

const SERVICES = 20;
/** Both sizes of issue 35's figures, in the same run: `BERTH_BENCH_CLI_LOGS_LINES=100000,200000`. */
const LINE_COUNTS = (process.env.BERTH_BENCH_CLI_LOGS_LINES ?? '100000,200000').split(',').map(Number);
const ROUNDS = Number(process.env.BERTH_BENCH_CLI_LOGS_ROUNDS ?? 5);
const repoRoot = resolve(__dirname, '..');
const LINE = / \| (line \d+ of s\d+)$/;

/** Runs the command under /usr/bin/time, its stdout to `file`; resolves its CPU time (user + system, ms). */
function runToFile(command: string, args: readonly string[], env: NodeJS.ProcessEnv, file: string): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%U %S', command, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const out = createWriteStream(file);
    child.stdout.pipe(out);
    child.on('error', reject);
    child.on('close', (code) =>
      out.end(() => {
        const [user = Number.NaN, system = Number.NaN] = (stderr.trim().split('\n').pop() ?? '').split(' ').map(Number);
        if (code === 0) resolvePromise((user + system) * 1000);
        else reject(new Error(`${command}: exit ${code}: ${stderr}`));
      }),
    );
  });
}

/** Each container's lines in the order printed, keyed by the prefix's name. */
function perContainer(file: string): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const name = line.slice(0, line.indexOf(' |')).trim();
    let lines = byName.get(name);
    if (!lines) byName.set(name, (lines = []));
    lines.push(match[1] as string);
  }
  return byName;
}

interface SizeResult {
  readonly lines: number;
  readonly berth: Summary;
  readonly peer: Summary;
  readonly berthCpu: Summary;
  readonly peerCpu: Summary;
  readonly berthRate: number;
  readonly peerRate: number;
  readonly ratio: number;
  readonly cpuRatio: number;
}

/** One size: its own project of 20 exited services, both sides run ROUNDS times, alternating who goes first. */
async function measureSize(lines: number, dockerHost: string, image: string, client: EngineClient, workDir: string): Promise<SizeResult> {
  const perService = lines / SERVICES;
  const services = Object.fromEntries(
    Array.from({ length: SERVICES }, (_, index): [string, ServiceSpec] => [
      `s${index}`,
      { command: ['sh', '-c', `i=0; while [ $i -lt ${perService} ]; do echo "line $i of s${index}"; i=$((i+1)); done`] },
    ]),
  );
  const fixture = await composeFixture(dockerHost, image, uniqueName('benchclilogs').toLowerCase().replace(/[^a-z0-9]/g, ''), services);
  try {
    await fixture.compose(['up', '-d']);
    const names = Object.keys(services).map((service) => `${fixture.project}_${service}_1`);
    for (const containerName of names) {
      const { result } = await client.containers.wait(containerName, { condition: 'not-running' });
      await result;
    }
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workDir, DOCKER_HOST: dockerHost, DOCKER_CONFIG: workDir };
    const sides = {
      berth: { command: process.execPath, args: [join(workDir, 'cli.js'), 'logs', '--no-color', ...names] },
      'docker-compose': { command: 'docker-compose', args: ['-f', fixture.file, '-p', fixture.project, 'logs', '--no-color'] },
    };
    const ms: Record<keyof typeof sides, number[]> = { berth: [], 'docker-compose': [] };
    const cpu: Record<keyof typeof sides, number[]> = { berth: [], 'docker-compose': [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order: Array<keyof typeof sides> = round % 2 === 0 ? ['berth', 'docker-compose'] : ['docker-compose', 'berth'];
      for (const side of order) {
        const file = join(workDir, `${side}.log`);
        const start = process.hrtime.bigint();
        cpu[side].push(await runToFile(sides[side].command, sides[side].args, env, file));
        ms[side].push(elapsedMs(start));
        const printed = perContainer(file);
        const counted = [...printed.values()].reduce((sum, own) => sum + own.length, 0);
        if (counted !== lines || printed.size !== SERVICES) throw new Error(`${side} printed ${counted} of ${lines} lines from ${printed.size} containers`);
        for (const [name, own] of printed) {
          if (own.some((text, index) => text !== `line ${index} of ${/(?:^|_)(s\d+)_1$/.exec(name)?.[1] ?? ''}`)) throw new Error(`${side}: ${name}'s lines out of order`);
        }
      }
      console.log(`${lines} lines, round ${round + 1}: berth ${ms.berth.at(-1)?.toFixed(0)} ms, docker-compose ${ms['docker-compose'].at(-1)?.toFixed(0)} ms, load ${loadavg()[0]?.toFixed(1)}`);
    }
    const berth = summarize(ms.berth);
    const peer = summarize(ms['docker-compose']);
    const berthRate = lines / (berth.median / 1000);
    const peerRate = lines / (peer.median / 1000);
    const berthCpu = summarize(cpu.berth);
    const peerCpu = summarize(cpu['docker-compose']);
    return { lines, berth, peer, berthCpu, peerCpu, berthRate, peerRate, ratio: berthRate / peerRate, cpuRatio: peerCpu.median / berthCpu.median };
  } finally {
    await fixture.dispose();
  }
}

async function main(): Promise<void> {
  const engines = loadTestEngines();
  const client = EngineClient.fromEnvironment({ host: engines.dockerHost });
  const workDir = mkdtempSync(join(tmpdir(), 'berth-bench-cli-logs-'));
  const loadBefore = loadavg()[0] ?? Number.NaN;
  try {
    execFileSync(process.execPath, [join(repoRoot, 'esbuild.js'), '--production', `--cli-outdir=${workDir}`], { cwd: repoRoot, stdio: 'inherit' });
    const sizes: SizeResult[] = [];
    for (const lines of LINE_COUNTS) sizes.push(await measureSize(lines, engines.dockerHost, engines.image, client, workDir));
    const loadAfter = loadavg()[0] ?? Number.NaN;
    const results = { date: new Date().toISOString().slice(0, 10), services: SERVICES, rounds: ROUNDS, load: [loadBefore, loadAfter], sizes };
    writeFileSync(join(repoRoot, 'bench', 'cli-logs-results.json'), `${JSON.stringify(results, null, 2)}\n`);
    const md = [
      '# `berth logs A B …` against `docker-compose logs` (`npm run bench:cli-logs`)',
      '',
      `${results.date}, private dockerd, Debian's docker-compose 1.29, ${SERVICES} exited containers of one project per size, ${ROUNDS} alternating rounds, output to a file, every size in the same run (1-minute load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end, 2 cores).`,
      '',
      '| Lines | Side | wall median ms (p10–p90) | lines/s | rate ratio (goal ≥ 1.0×) | CPU ms (user + sys, median) | lines per CPU s, ratio |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...sizes.flatMap((size) => [
        `| ${size.lines} | berth logs --no-color (20 names, merged by stamp) | ${size.berth.median.toFixed(0)} (${size.berth.p10.toFixed(0)}–${size.berth.p90.toFixed(0)}) | ${Math.round(size.berthRate)} | ${size.ratio.toFixed(2)}× | ${size.berthCpu.median.toFixed(0)} | ${size.cpuRatio.toFixed(2)}× |`,
        `| ${size.lines} | docker-compose logs --no-color | ${size.peer.median.toFixed(0)} (${size.peer.p10.toFixed(0)}–${size.peer.p90.toFixed(0)}) | ${Math.round(size.peerRate)} | 1.00× | ${size.peerCpu.median.toFixed(0)} | 1.00× |`,
      ]),
      '',
    ].join('\n');
    writeFileSync(join(repoRoot, 'bench', 'cli-logs-results.md'), md);
    process.stdout.write(md);
  } finally {
    await client.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
