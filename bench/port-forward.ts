/**
 * `npm run bench:forward`: Berth's port forward against its peers, in one run on the private dockerd (or
 * BERTH_BENCH_HOST with BERTH_BENCH_IMAGE), contenders interleaved round by round. Writes bench/forward-results.{json,md}.
 * - Throughput of a 1 GiB transfer (BERTH_BENCH_FORWARD_MIB for another size; a server in a `--network none`
 *   container that sends it as zeros per connection, `dd bs=64k` so the server is not what limits): through Berth's
 *   forward; through it with `nc` alone (the relay before `dd` was piped after it); through `docker exec -i ID nc
 *   127.0.0.1 PORT` spawned; the exec path's floor (the engine client reading an exec of `dd` from /dev/zero: no TCP,
 *   no nc); and "direct", the same stream from a server on the host's loopback reached without Berth (host networking
 *   is not allowed on the test engines, so no container can serve on the host's loopback). Goals: >= 0.5x direct,
 *   >= 1.0x the exec pipe.
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
import { execCapture } from '../src/engine/files';
import { FrameDemuxer } from '../src/engine/connection';
import { containerSpec } from '../test/support/containerSpec';
import { enginesDockerConfig } from '../test/support/dockerHome';
import { loadTestEngines } from '../test/support/engines';
import { measureInterleaved, pairedRatio, type Contender, type Measurement } from './measure';
import { percentile, summarize, type Summary } from './stats';

const MIB = 1024 * 1024;
/** The transfer's size: a whole number of dd's 64 KiB blocks. */
const SIZE_MIB = Number(process.env.BERTH_BENCH_FORWARD_MIB ?? 1024);
const SIZE = SIZE_MIB * MIB;
const BLOCK = 64 * 1024;
const ROUNDS = Number(process.env.BERTH_BENCH_ROUNDS ?? 3);
const CONNECTIONS = 100;
const IDLE_MS = 10_000;
const STREAM_PORT = 9002;
const HELLO_PORT = 9003;
// busybox `head -c` copies 1 KiB at a time, slower than any relay here: dd's 64 KiB blocks keep the server out of it.
const ZEROS = ['dd', 'if=/dev/zero', `bs=${BLOCK}`, `count=${SIZE / BLOCK}`];
const SERVERS = [`nc -ll -p ${STREAM_PORT} -e ${ZEROS.join(' ')} &`, `nc -ll -p ${HELLO_PORT} -e echo hi &`, 'touch /tmp/ready', 'exec sleep 3600'].join('\n');

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

/** The exec path's floor: the stdout byte count of an exec of `dd` from /dev/zero, demultiplexed as the forward does. */
async function execDrain(client: EngineClient, id: string): Promise<number> {
  const { Id } = await client.exec.create(id, { cmd: ZEROS, attachStdout: true, attachStderr: true });
  const stream = await client.exec.startAttached(Id, { tty: false });
  let bytes = 0;
  const demuxer = new FrameDemuxer((chunk) => {
    if (chunk.stream === 'stdout') bytes += chunk.data.length;
  });
  for await (const data of stream) demuxer.push(data as Buffer);
  demuxer.end();
  return bytes;
}

/** The same stream as the container's server (SIZE bytes of zeros per connection), on the host's loopback. */
async function directServer(): Promise<{ server: Server; port: number }> {
  const chunk = Buffer.alloc(64 * 1024);
  const server = createServer((socket) => {
    let left = SIZE;
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
  if (bytes !== SIZE) throw new Error(`a transfer carried ${bytes} bytes, not ${SIZE}`);
}

async function main(): Promise<void> {
  const host = process.env.BERTH_BENCH_HOST ?? loadTestEngines().dockerHost;
  const image = process.env.BERTH_BENCH_IMAGE ?? loadTestEngines().image;
  let requests = 0;
  const client = EngineClient.fromEnvironment({ host, log: () => requests++ });
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', DOCKER_HOST: host, DOCKER_CONFIG: process.env.DOCKER_CONFIG ?? enginesDockerConfig(loadTestEngines().stateDir) };
  const { Id: id } = await client.containers.create(containerSpec(image, ['sh', '-c', SERVERS]));
  const direct = await directServer();
  let session: ForwardSession | undefined;
  let before: ForwardSession | undefined;
  try {
    await client.containers.start(id);
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

    // The relay as it was before `dd` was piped after `nc`, opened after the idle check so it does not count there.
    before = await forwardPorts(client, id, [parsePortForwardSpec(`:${STREAM_PORT}`)], { plainNc: true });
    const beforePort = (before.forwards[0] as { localPort: number }).localPort;
    const throughput: Contender[] = [
      { name: "Berth's forward (nc piped through dd)", run: async () => checked(await drainConnection(stream)), samples: ROUNDS, warmup: 0 },
      { name: "Berth's forward with nc alone (before)", run: async () => checked(await drainConnection(beforePort)), samples: ROUNDS, warmup: 0 },
      { name: `docker exec -i ID nc 127.0.0.1 ${STREAM_PORT} (spawned)`, run: async () => checked(await spawnedBytes('docker', ['exec', '-i', id, 'nc', '127.0.0.1', String(STREAM_PORT)], env)), samples: ROUNDS, warmup: 0 },
      { name: "floor of any exec path: the engine client reads an exec of dd (no TCP, no nc)", run: async () => checked(await execDrain(client, id)), samples: ROUNDS, warmup: 0 },
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
    await before?.close();
    direct.server.close();
    await client.containers.remove(id, { force: true });
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

function report(moved: Map<string, Measurement>, connected: typeof moved, idle: { requests: number; timers: number; seconds: number }): void {
  const names = [...moved.keys()];
  const [berth, plainNc, execPipe, floor, direct] = names.map((name) => moved.get(name) as Measurement) as [Measurement, Measurement, Measurement, Measurement, Measurement];
  const throughputRows: Row[] = names.map((name) => {
    const summary = summarize(moved.get(name)?.samples ?? []);
    return { contender: name, summary, mibPerSecond: SIZE_MIB / (summary.median / 1000) };
  });
  // Throughput ratios: time of the peer over time of the contender, paired by round (higher is better for it).
  const speed = (of: Measurement, against: Measurement): number => 1 / pairedRatio(of, against);
  const versusDirect = speed(berth, direct);
  const versusExec = speed(berth, execPipe);
  const ratios = { versusDirect, versusExec, beforeVersusDirect: speed(plainNc, direct), beforeVersusExec: speed(plainNc, execPipe), versusBefore: speed(berth, plainNc), floorVersusDirect: speed(floor, direct), versusFloor: speed(berth, floor) };
  const setupNames = [...connected.keys()];
  const setupRows: Row[] = setupNames.map((name) => {
    const samples = connected.get(name)?.samples ?? [];
    return { contender: name, summary: summarize(samples), p95: percentile([...samples].sort((a, b) => a - b), 0.95) };
  });
  const forwardSetup = setupRows[0] as Row;
  const dockerExec = setupRows[1] as Row;
  const lines = [
    `| ${SIZE_MIB >= 1024 ? `${SIZE_MIB / 1024} GiB` : `${SIZE_MIB} MiB`} transfer | median s | MiB/s | p10–p90 s |`,
    '| --- | --- | --- | --- |',
    ...throughputRows.map((row) => `| ${row.contender} | ${(row.summary.median / 1000).toFixed(2)} | ${(row.mibPerSecond ?? 0).toFixed(0)} | ${(row.summary.p10 / 1000).toFixed(2)}–${(row.summary.p90 / 1000).toFixed(2)} |`),
    '',
    `Throughput: ${versusDirect.toFixed(2)}× direct (goal ≥ 0.5×), ${versusExec.toFixed(2)}× the docker exec pipe (goal ≥ 1.0×), paired by round.`,
    `Before (nc alone): ${ratios.beforeVersusDirect.toFixed(2)}× direct, ${ratios.beforeVersusExec.toFixed(2)}× the docker exec pipe; now ${ratios.versusBefore.toFixed(2)}× before.`,
    `The exec path's floor is ${ratios.floorVersusDirect.toFixed(2)}× direct; the forward reaches ${ratios.versusFloor.toFixed(2)}× that floor.`,
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
  writeFileSync(join(out, 'forward-results.json'), `${JSON.stringify({ sizeMiB: SIZE_MIB, throughput: throughputRows, setup: setupRows, ...ratios, idle }, null, 2)}\n`);
  console.log(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
