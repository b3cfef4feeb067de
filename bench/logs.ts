/**
 * Log streaming: reading the 100 MB of multiplexed output a finished non-TTY container wrote, end to end through
 * the engine, with Berth's demuxer, docker-modem's `demuxStream` and a raw socket read of the same bytes. Then the
 * decoders alone: the same captured body replayed from memory in the chunks it arrived in, so the engine's cost of
 * reading its log files is out of the picture.
 */
import { Readable, Writable } from 'node:stream';
import Docker from 'dockerode';
import { demux, EngineClient } from '../src/engine';
import { RawHttpConnection } from './raw-http';
import type { PeerSetup } from './peers';

export interface LogReader {
  readonly name: string;
  /** Reads the whole log; resolves the payload bytes (frame headers excluded where the reader demuxes). */
  read(): Promise<number>;
}

/** A sink that counts what docker-modem's demuxStream writes to it. */
function countingSink(onBytes: (count: number) => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      onBytes(chunk.length);
      callback();
    },
  });
}

export function logReaders(setup: PeerSetup, client: EngineClient, containerId: string): LogReader[] {
  const docker = new Docker({ socketPath: setup.socketPath, version: `v${setup.apiVersion}` });
  const path = `/v${setup.apiVersion}/containers/${containerId}/logs?stdout=1&stderr=1&follow=1`;
  return [
    {
      name: 'Berth (undici + FrameDemuxer)',
      read: async () => {
        let bytes = 0;
        for await (const chunk of client.containers.logs(containerId, { stdout: true, stderr: true, follow: true, tty: false })) bytes += chunk.data.length;
        return bytes;
      },
    },
    {
      name: 'dockerode + demuxStream',
      read: async () => {
        let bytes = 0;
        const stream = await docker.getContainer(containerId).logs({ stdout: true, stderr: true, follow: true });
        const sink = countingSink((count) => (bytes += count));
        await new Promise<void>((resolve, reject) => {
          stream.on('end', resolve);
          stream.on('error', reject);
          docker.modem.demuxStream(stream, sink, sink);
        });
        return bytes;
      },
    },
    {
      name: 'raw socket read (floor)',
      read: async () => {
        const connection = await RawHttpConnection.open(setup.socketPath);
        let bytes = 0;
        try {
          const status = await connection.send('GET', path, (slice) => (bytes += slice.length));
          if (status !== 200) throw new Error(`raw logs: HTTP ${status}`);
        } finally {
          connection.close();
        }
        return bytes;
      },
    },
  ];
}

/** The raw body of the log response, in the chunks the socket delivered. */
export async function captureLogBody(setup: PeerSetup, containerId: string): Promise<Buffer[]> {
  const connection = await RawHttpConnection.open(setup.socketPath);
  const chunks: Buffer[] = [];
  try {
    await connection.send('GET', `/v${setup.apiVersion}/containers/${containerId}/logs?stdout=1&stderr=1`, (slice) => chunks.push(Buffer.from(slice)));
  } finally {
    connection.close();
  }
  return chunks;
}

/** The captured chunks as an async iterable, the shape a response body has. */
function replay(chunks: readonly Buffer[]): AsyncIterable<Buffer> {
  return Readable.from(chunks, { objectMode: true });
}

/** The decoders alone, over the captured chunks. */
export function decoderReaders(chunks: readonly Buffer[]): LogReader[] {
  const modem = new Docker({ socketPath: '/nonexistent' }).modem;
  return [
    {
      name: 'Berth demux()',
      read: async () => {
        let bytes = 0;
        for await (const chunk of demux(replay(chunks))) bytes += chunk.data.length;
        return bytes;
      },
    },
    {
      name: 'docker-modem demuxStream',
      read: async () => {
        let bytes = 0;
        const stream = Readable.from(chunks, { objectMode: false });
        const sink = countingSink((count) => (bytes += count));
        await new Promise<void>((resolve, reject) => {
          stream.on('end', resolve);
          stream.on('error', reject);
          modem.demuxStream(stream, sink, sink);
        });
        return bytes;
      },
    },
    {
      name: 'no decoding (floor)',
      read: async () => {
        let bytes = 0;
        for await (const chunk of replay(chunks)) bytes += chunk.length;
        return bytes;
      },
    },
  ];
}
