/**
 * `npm run bench:logs`: the logs follower (what Show Logs and Open Logs in Editor read through) on a finished
 * container's 100 MiB log, in MB/s of payload, against a raw socket read of the same timestamped response in the
 * same run. Two logs: 1 KiB lines, and 40,000-byte lines (each stored as three partial messages). The follower
 * before issue 9 (bench/logs-follower-before.ts) runs beside the current one. Asserts nothing about time; writes
 * bench/logs-follower-results.md.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineClient, type OutputChunk } from '../src/engine';
import { FrameDemuxer } from '../src/engine/connection';
import { LogMessageReader } from '../src/logs/logMessages';
import { followContainerLogs } from '../src/logs/logFollower';
import { loadTestEngines } from '../test/support/engines';
import { createLogContainer, fixtureLabels, LOG_BYTES, removeRunContainers } from './fixtures';
import { BeforeReader } from './logs-follower-before';
import { RawHttpConnection } from './raw-http';
import { elapsedMs, rotated, summarize } from './stats';

const ROUNDS = 5;
const LOGS = [
  { name: '1 KiB lines', lineBytes: 1024 },
  { name: '40,000-byte lines', lineBytes: 40_000 },
  { name: '1 MiB lines', lineBytes: 1_048_576 },
];

interface Reader {
  name: string;
  /** Reads the whole log; resolves the bytes it delivered. */
  read(): Promise<number>;
}

function readers(client: EngineClient, socketPath: string, apiVersion: string, id: string): Reader[] {
  const signal = new AbortController().signal;
  return [
    {
      name: 'raw socket read (floor)',
      read: async () => {
        const connection = await RawHttpConnection.open(socketPath);
        let bytes = 0;
        try {
          await connection.send('GET', `/v${apiVersion}/containers/${id}/logs?stdout=1&stderr=1&timestamps=1`, (slice) => (bytes += slice.length));
        } finally {
          connection.close();
        }
        return bytes;
      },
    },
    {
      name: 'follower after issue 9',
      read: async () => {
        let bytes = 0;
        const sink = { output: (_stream: string, text: string) => (bytes += text.length), notice: () => undefined };
        await followContainerLogs(client, id, sink, { tail: 'all', signal, followRestarts: false });
        return bytes;
      },
    },
    {
      name: 'follower before issue 9',
      read: async () => {
        let bytes = 0;
        const reader = new BeforeReader((_stream, text) => (bytes += text.length));
        for await (const chunk of client.containers.logs(id, { tail: 'all', timestamps: true, tty: false })) reader.push(chunk);
        reader.end();
        return bytes;
      },
    },
  ];
}

/** The timestamped response body as the socket delivered it, demultiplexed the way the client does. */
async function capture(socketPath: string, apiVersion: string, id: string): Promise<OutputChunk[]> {
  const chunks: OutputChunk[] = [];
  const demuxer = new FrameDemuxer((chunk) => chunks.push(chunk));
  const connection = await RawHttpConnection.open(socketPath);
  try {
    await connection.send('GET', `/v${apiVersion}/containers/${id}/logs?stdout=1&stderr=1&timestamps=1`, (slice) => demuxer.push(Buffer.from(slice)));
  } finally {
    connection.close();
  }
  return chunks;
}

/** The two readers alone, on the captured chunks: their own cost, without the engine's. */
function memoryReaders(chunks: readonly OutputChunk[]): Reader[] {
  return [
    {
      name: 'reader after issue 9, from memory',
      read: () => {
        let bytes = 0;
        const reader = new LogMessageReader((_stream, text) => (bytes += text.length));
        for (const chunk of chunks) reader.push(chunk, true);
        reader.end(true);
        return Promise.resolve(bytes);
      },
    },
    {
      name: 'reader before issue 9, from memory',
      read: () => {
        let bytes = 0;
        const reader = new BeforeReader((_stream, text) => (bytes += text.length));
        for (const chunk of chunks) reader.push(chunk);
        reader.end();
        return Promise.resolve(bytes);
      },
    },
  ];
}

async function measure(contenders: readonly Reader[]): Promise<Map<string, number[]>> {
  const rates = new Map<string, number[]>(contenders.map((reader) => [reader.name, []]));
  for (const reader of contenders) await reader.read();
  for (let round = 0; round < ROUNDS; round++) {
    for (const reader of rotated(contenders, round)) {
      const start = process.hrtime.bigint();
      const bytes = await reader.read();
      if (bytes < LOG_BYTES) throw new Error(`${reader.name} delivered ${bytes} bytes of ${LOG_BYTES}`);
      rates.get(reader.name)?.push(LOG_BYTES / 1e6 / (elapsedMs(start) / 1000));
    }
  }
  return rates;
}

async function main(): Promise<void> {
  const engines = loadTestEngines();
  const client = EngineClient.fromEnvironment({ host: engines.dockerHost, env: {} });
  const apiVersion = await client.negotiatedVersion();
  const runId = `bench-logs-${process.pid}`;
  const rows: string[] = ['| log (100 MiB) | reader | MB/s median (p10–p90) | ratio to the raw read |', '| --- | --- | --- | --- |'];
  try {
    for (const log of LOGS) {
      process.stderr.write(`[bench] writing ${log.name}\n`);
      const id = await createLogContainer(client, engines.image, fixtureLabels(runId, 'logs').labels, log.lineBytes);
      const socketPath = engines.dockerHost.slice('unix://'.length);
      const rates = await measure(readers(client, socketPath, apiVersion, id));
      const floor = summarize(rates.get('raw socket read (floor)') ?? []).median;
      for (const [name, values] of rates) {
        const summary = summarize(values);
        rows.push(`| ${log.name} | ${name} | ${summary.median.toFixed(0)} (${summary.p10.toFixed(0)}–${summary.p90.toFixed(0)}) | ${(summary.median / floor).toFixed(2)} |`);
      }
      const memory = await measure(memoryReaders(await capture(socketPath, apiVersion, id)));
      for (const [name, values] of memory) {
        const summary = summarize(values);
        rows.push(`| ${log.name} | ${name} | ${summary.median.toFixed(0)} (${summary.p10.toFixed(0)}–${summary.p90.toFixed(0)}) | ${(summary.median / floor).toFixed(2)} |`);
      }
      await client.containers.remove(id, { force: true });
    }
  } finally {
    await removeRunContainers(client, runId);
    await client.close();
  }
  const table = rows.join('\n');
  const note = `${ROUNDS} interleaved rounds after one untimed read each; dockerd ${engines.dockerHost}, json-file driver; MB = 10^6 bytes of log payload. The raw read takes the same timestamped response without decoding it; "from memory" replays that response, captured and demultiplexed once, through the reader alone (its ratio is to the raw read too, to show the reader is never the bound).`;
  writeFileSync(join(__dirname, 'logs-follower-results.md'), `# Logs follower throughput\n\n${table}\n\n${note}\n`);
  process.stdout.write(`${table}\n\n${note}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
