/**
 * The engine's multiplexed framing of non-TTY logs and attach streams, as tests write it: `[type, 0, 0, 0, size uint32
 * BE]` then the payload. Type 0 is stdin, 1 stdout, 2 stderr, 3 a daemon error that ends the stream.
 */
import type { OutputChunk } from '../../src/engine';

export interface Frame {
  readonly stream: OutputChunk['stream'] | 'error';
  readonly payload: Buffer;
}

const FRAME_TYPE = { stdout: 1, stderr: 2, error: 3 } as const;

/** One multiplexed frame of type STREAM around DATA (a string is written as UTF-8); a type past 3 is a bad header. */
export function logFrame(stream: number, data: string | Buffer): Buffer {
  const payload = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

/** The wire bytes of FRAMES, one after another. */
export function frameBytes(frames: readonly Frame[]): Buffer {
  return Buffer.concat(frames.map(({ stream, payload }) => logFrame(FRAME_TYPE[stream], payload)));
}
