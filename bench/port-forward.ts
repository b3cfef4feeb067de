/**
 * `npm run bench:forward`: Berth's port forward against its peers, in one run on the private dockerd (or
 * BERTH_BENCH_HOST with BERTH_BENCH_IMAGE), contenders interleaved round by round. Writes bench/forward-results.{json,md}.
 * - Throughput of a 1 GiB transfer (a server in a `--network none` container that sends 1 GiB of zeros per
 *   connection): through Berth's forward; through `docker exec -i ID nc 127.0.0.1 PORT` spawned; and "direct", the
 *   same stream from a server on the host's loopback reached without Berth (host networking is not allowed on the
 *   test engines, so no container can serve on the host's loopback). Goals: >= 0.5x direct, >= 1.0x the exec pipe.
 * - Connection set-up over 100 connections (connect until the server's first byte), against one `docker exec ID true`
 *   round trip spawned, and against the engine client's own exec round trip. Goal: <= 1.0x docker exec.
 * - An idle forward: engine requests counted through the client's log, and the process's timers (active resources
 *   named Timeout) counted before and after the forward opened. Goal: 0 and 0.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { EngineClient, forwardPorts, parsePortForwardSpec, type ForwardSession } from '../src/engine';
import { execCapture } from '../src/engine/containerFiles';
import { containerSpec } from '../test/support/containerSpec';
import { loadTestEngines } from '../test/support/engines';
import { measureInterleaved, pairedRatio, type Contender } from './measure';
import { percentile, summarize, type Summary } from './stats';

const GIB = 1024 * 1024 * 1024;
const ROUNDS = Number(process.env.BERTH_BENCH_ROUNDS ?? 3);
const CONNECTIONS = 100;
const IDLE_MS = 10_000;
const STREAM_PORT = 9002;
const HELLO_PORT = 9003;
const SERVERS = [`nc -ll -p ${STREAM_PORT} -e head -c ${GIB} /dev/zero &`, `nc -ll -p ${HELLO_PORT} -e echo hi &`, 'touch /tmp/ready', 'exec sleep 3600'].join('\n');

/** Reads a connection to its end; resolves the byte count. */
function drainConnection(port: number): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    let bytes = 0;
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('data', (data: Buffer) => (bytes += data.length));
    socket.on('end', () => resolvePromise(bytes));
    socket.on('error', reject);
  });
}

/** Connects and waits for the server's first byte, then closes. */
function firstByte(port: number): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('data', () => {
      socket.destroy();
      resolvePromise();
    });
    socket.on('error', reject);
  });
}

/** A spawned command's stdout byte count (the exec pipe's transfer). */
function spawnedBytes(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (data: Buffer) => (bytes += data.length));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise(bytes) : reject(new Error(`${command} exited with ${code}`))));
  });
}

/** The same stream as the container's server (1 GiB of zeros per connection), on the host's loopback. */
async function directServer(): Promise<{ server: Server; port: number }> {
  const chunk = Buffer.alloc(64 * 1024);
  const server = createServer((socket) => {
    let left = GIB;
    const pump = (): void => {
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
      socket.end();
    };
    socket.on('error', () => socket.destroy());
    pump();
  });
  await new Promise<void>((resolvePromise) => server.listen({ host: '127.0.0.1', port: 0 }, resolvePromise));
  return { server, port: (server.address() as { port: number }).port };
}

function checked(bytes: number): void {
  if (bytes !== GIB) throw new Error(`a transfer carried ${bytes} bytes, not ${GIB}`);
}

async function main(): Promise<void> {
  const host = process.env.BERTH_BENCH_HOST ?? loadTestEngines().dockerHost;
  const image = process.env.BERTH_BENCH_IMAGE ?? loadTestEngines().image;
  let requests = 0;
  const client = EngineClient.fromEnvironment({ host, log: () => requests++ });
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', DOCKER_HOST: host, DOCKER_CONFIG: process.env.DOCKER_CONFIG ?? join(loadTestEngines().stateDir, 'docker-config') };
  const { Id: id } = await client.createContainer(containerSpec(image, ['sh', '-c', SERVERS]));
  const direct = await directServer();
  let session: ForwardSession | undefined;
  try {
    await client.startContainer(id);
    for (let attempt = 0; (await execCapture(client, id, ['test', '-e', '/tmp/ready'])).exitCode !== 0; attempt++) {
      if (attempt > 100) throw new Error('the servers in the bench container did not start');
    }
    // Timers before the forward opens: the idle check compares against these.
    const timersBefore = countTimers();
    session = await forwardPorts(client, id, [parsePortForwardSpec(`:${STREAM_PORT}`), parsePortForwardSpec(`:${HELLO_PORT}`)]);
    const [stream, hello] = session.forwards.map((forward) => forward.localPort) as [number, number];

    const idleRequestsBefore = requests;
    const timersOpen = countTimers();
    await new Promise((resolvePromise) => setTimeout(resolvePromise, IDLE_MS));
    const idle = { requests: requests - idleRequestsBefore, timers: timersOpen - timersBefore, seconds: IDLE_MS / 1000 };

    const throughput: Contender[] = [
      { name: "Berth's forward", run: async () => checked(await drainConnection(stream)), samples: ROUNDS, warmup: 0 },
      { name: `docker exec -i ID nc 127.0.0.1 ${STREAM_PORT} (spawned)`, run: async () => checked(await spawnedBytes('docker', ['exec', '-i', id, 'nc', '127.0.0.1', String(STREAM_PORT)], env)), samples: ROUNDS, warmup: 0 },
      { name: 'direct: the same stream from a host loopback server, no Berth', run: async () => checked(await drainConnection(direct.port)), samples: ROUNDS, warmup: 0 },
    ];
    const moved = await measureInterleaved(throughput, ROUNDS);
    const setup: Contender[] = [
      { name: "Berth's forward: connect to first byte", run: () => firstByte(hello), samples: CONNECTIONS, warmup: 2 },
      { name: 'docker exec ID true (spawned)', run: () => spawnedBytes('docker', ['exec', id, 'true'], env), samples: 20, warmup: 1 },
      { name: "the engine client's exec of true", run: () => execCapture(client, id, ['true']), samples: 20, warmup: 1 },
    ];
    const connected = await measureInterleaved(setup, ROUNDS);
    report(moved, connected, idle);
  } finally {
    await session?.close();
    direct.server.close();
    await client.removeContainer(id, { force: true });
    await client.close();
  }
}

function countTimers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout' || name === 'Immediate').length;
}

interface Row {
  readonly contender: string;
  readonly summary: Summary;
  readonly mibPerSecond?: number;
  readonly p95?: number;
}

function report(moved: Map<string, { samples: number[]; byRound: number[][]; cpuMsPerCall: number }>, connected: typeof moved, idle: { requests: number; timers: number; seconds: number }): void {
  const names = [...moved.keys()];
  const [berth, execPipe, direct] = names.map((name) => moved.get(name)) as [NonNullable<ReturnType<typeof moved.get>>, NonNullable<ReturnType<typeof moved.get>>, NonNullable<ReturnType<typeof moved.get>>];
  const throughputRows: Row[] = names.map((name) => {
    const summary = summarize(moved.get(name)?.samples ?? []);
    return { contender: name, summary, mibPerSecond: 1024 / (summary.median / 1000) };
  });
  // Throughput ratios: time of the peer over time of Berth, paired by round (higher is better for Berth).
  const versusDirect = 1 / pairedRatio(berth, direct);
  const versusExec = 1 / pairedRatio(berth, execPipe);
  const setupNames = [...connected.keys()];
  const setupRows: Row[] = setupNames.map((name) => {
    const samples = connected.get(name)?.samples ?? [];
    return { contender: name, summary: summarize(samples), p95: percentile([...samples].sort((a, b) => a - b), 0.95) };
  });
  const forwardSetup = setupRows[0] as Row;
  const dockerExec = setupRows[1] as Row;
  const lines = [
    '| 1 GiB transfer | median s | MiB/s | p10–p90 s |',
    '| --- | --- | --- | --- |',
    ...throughputRows.map((row) => `| ${row.contender} | ${(row.summary.median / 1000).toFixed(2)} | ${(row.mibPerSecond ?? 0).toFixed(0)} | ${(row.summary.p10 / 1000).toFixed(2)}–${(row.summary.p90 / 1000).toFixed(2)} |`),
    '',
    `Throughput: ${versusDirect.toFixed(2)}× direct (goal ≥ 0.5×), ${versusExec.toFixed(2)}× the docker exec pipe (goal ≥ 1.0×), paired by round.`,
    '',
    '| connection set-up | median ms | p95 ms | samples |',
    '| --- | --- | --- | --- |',
    ...setupRows.map((row) => `| ${row.contender} | ${row.summary.median.toFixed(1)} | ${(row.p95 ?? Number.NaN).toFixed(1)} | ${row.summary.samples} |`),
    '',
    `Set-up: median ${(forwardSetup.summary.median / dockerExec.summary.median).toFixed(2)}× a docker exec round trip (goal ≤ 1.0×).`,
    '',
    `Idle forward over ${idle.seconds} s: ${idle.requests} engine requests, ${idle.timers} timers added (goal 0 and 0).`,
  ];
  const text = `${lines.join('\n')}\n`;
  const out = resolve(__dirname);
  writeFileSync(join(out, 'forward-results.md'), `# Port forwarding: Berth against direct and the docker exec pipe\n\n${text}`);
  writeFileSync(join(out, 'forward-results.json'), `${JSON.stringify({ throughput: throughputRows, setup: setupRows, versusDirect, versusExec, idle }, null, 2)}\n`);
  console.log(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
