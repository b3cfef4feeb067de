/**
 * The multiplexed framing of non-TTY logs and attach streams: one decoder of the frame headers, which hands payloads on
 * as chunks (FrameDemuxer, demux), as runs of one stream (FrameJoiner), or as where they lie in the network chunk
 * (FramePayloads). Incremental and correct however the bytes are chunked.
 */
import { EngineError } from './errors';
import type { JoinFramesOption, OutputChunk } from './types';

const HEADER_SIZE = 8;
const STREAM_STDIN = 0;
const STREAM_STDOUT = 1;
const STREAM_STDERR = 2;
const STREAM_SYSTEMERR = 3;
const MIB = 1024 * 1024;
/** A daemon error frame is one message: anything larger is not an error text, and is not collected. */
export const MAX_ERROR_FRAME_BYTES = MIB;

/**
 * The payload size in the header at data[at] (the caller keeps the header inside data): read byte by byte, which costs
 * less per frame than readUInt32BE's checks when the frames are tiny.
 */
function frameSizeAt(data: Buffer, at: number): number {
  return (data[at + 4] as number) * 0x1000000 + (((data[at + 5] as number) << 16) | ((data[at + 6] as number) << 8) | (data[at + 7] as number));
}

/**
 * Decodes the 8-byte multiplexed framing of non-TTY logs and attach streams: `[type, 0, 0, 0, size:uint32be]` then
 * `size` bytes. Payload bytes are passed on as they arrive, as views into the incoming chunks (no copies), so a frame
 * split across chunks is delivered in pieces of the same stream. Only a type-3 frame (a daemon error that ends the
 * stream) is collected whole, and then thrown as an EngineError.
 */
export class FrameDemuxer {
  private readonly header = Buffer.allocUnsafe(HEADER_SIZE);
  private headerFill = 0;
  /** Payload bytes still to come for the current frame, and its whole size. */
  protected remaining = 0;
  protected frameSize = 0;
  protected stream: OutputChunk['stream'] | 'error' = 'stdout';
  private errorParts: Buffer[] = [];
  private failed = false;

  constructor(private readonly onChunk: (chunk: OutputChunk) => void) {}

  /** Feeds one network chunk. Throws EngineError once a type-3 frame is complete or a header is malformed. */
  push(chunk: Buffer): void {
    if (this.failed) throw new EngineError('protocol', 'The output stream was used after it failed');
    const length = chunk.length;
    let offset = 0;
    while (offset < length) {
      if (this.remaining > 0) {
        const end = Math.min(length, offset + this.remaining);
        this.remaining -= end - offset;
        this.deliverRange(chunk, offset, end);
        offset = end;
        continue;
      }
      if (this.headerFill === 0 && length - offset >= HEADER_SIZE) {
        // The common case: the whole header is inside this chunk.
        this.startFrame(chunk[offset] as number, frameSizeAt(chunk, offset), chunk, offset);
        offset += HEADER_SIZE;
      } else {
        const take = Math.min(HEADER_SIZE - this.headerFill, length - offset);
        chunk.copy(this.header, this.headerFill, offset, offset + take);
        this.headerFill += take;
        offset += take;
        if (this.headerFill === HEADER_SIZE) {
          this.headerFill = 0;
          this.startFrame(this.header[0] as number, this.header.readUInt32BE(4), this.header, 0);
        }
      }
    }
  }

  /** Call when the source ends. A frame cut short means the connection broke mid-frame. */
  end(): void {
    if (this.failed) return;
    if (this.headerFill > 0 || this.remaining > 0) {
      this.failed = true;
      throw new EngineError('protocol', 'The engine closed the output stream in the middle of a frame', {
        hint: 'The connection to the engine broke; try again',
      });
    }
  }

  private startFrame(type: number, size: number, source: Buffer, at: number): void {
    if (type === STREAM_STDOUT || type === STREAM_STDIN) this.stream = 'stdout';
    else if (type === STREAM_STDERR) this.stream = 'stderr';
    else if (type === STREAM_SYSTEMERR) this.stream = 'error';
    else {
      this.failed = true;
      const bytes = source.subarray(at, at + HEADER_SIZE).toString('hex');
      throw new EngineError('protocol', `Unexpected frame header ${bytes} in the engine's output stream`, {
        hint: 'If this container has a TTY, its output is raw and must not be demultiplexed',
      });
    }
    if (this.stream === 'error' && size > MAX_ERROR_FRAME_BYTES) {
      this.failed = true;
      throw new EngineError('protocol', `The engine sent an error frame of ${size} bytes, more than the ${MAX_ERROR_FRAME_BYTES / MIB} MiB an error message may have; Berth refused it`, {
        hint: 'The engine or something between it and Berth is misbehaving; check the engine host',
      });
    }
    this.remaining = size;
    this.frameSize = size;
    if (size === 0 && this.stream === 'error') this.fail();
  }

  /** Payload bytes `start` to `end` of `source`, for the current frame's stream. */
  protected deliverRange(source: Buffer, start: number, end: number): void {
    this.deliver(start === 0 && end === source.length ? source : source.subarray(start, end));
  }

  private deliver(data: Buffer): void {
    if (this.stream !== 'error') {
      this.onChunk({ stream: this.stream, data, frameEnd: this.remaining === 0 });
      return;
    }
    this.errorParts.push(Buffer.from(data));
    if (this.remaining === 0) this.fail();
  }

  private fail(): never {
    this.failed = true;
    const message = Buffer.concat(this.errorParts).toString('utf8').trim() || 'unknown error';
    this.errorParts = [];
    throw new EngineError('server', message, {
      engineMessage: message,
      hint: 'The engine ended the output stream with this error',
    });
  }
}

/**
 * A FrameDemuxer for JoinFramesOption: runs of adjacent payloads of one stream, up to `take()`, become one chunk each.
 * The payloads are noted as ranges of the incoming chunks and copied once into a buffer of the run's size (a run of
 * one range is passed on as a view), so a stream of short frames costs no object per frame. Order within and across
 * the streams is kept; a joined chunk carries its last frame's `frameEnd`.
 */
export class FrameJoiner extends FrameDemuxer {
  private joined: OutputChunk[] = [];
  private sources: Buffer[] = [];
  /** Start and end of each range in `sources`, two numbers per range. */
  private bounds: number[] = [];
  private runLength = 0;
  private runStream: OutputChunk['stream'] = 'stdout';
  private runFrameEnd = false;

  constructor() {
    super(() => undefined);
  }

  /** The chunks joined since the last call, in order. */
  take(): OutputChunk[] {
    this.closeRun();
    const joined = this.joined;
    this.joined = [];
    return joined;
  }

  protected override deliverRange(source: Buffer, start: number, end: number): void {
    const stream = this.stream;
    if (stream === 'error') {
      super.deliverRange(source, start, end);
      return;
    }
    if (stream !== this.runStream) this.closeRun();
    this.runStream = stream;
    this.sources.push(source);
    this.bounds.push(start, end);
    this.runLength += end - start;
    this.runFrameEnd = this.remaining === 0;
  }

  private closeRun(): void {
    const count = this.sources.length;
    if (count === 0) return;
    let data: Buffer;
    if (count === 1) {
      const source = this.sources[0] as Buffer;
      const start = this.bounds[0] as number;
      const end = this.bounds[1] as number;
      data = start === 0 && end === source.length ? source : source.subarray(start, end);
    } else {
      data = Buffer.allocUnsafe(this.runLength);
      let offset = 0;
      for (let i = 0; i < count; i++) offset += (this.sources[i] as Buffer).copy(data, offset, this.bounds[2 * i], this.bounds[2 * i + 1]);
    }
    this.joined.push({ stream: this.runStream, data, frameEnd: this.runFrameEnd });
    this.sources = [];
    this.bounds = [];
    this.runLength = 0;
  }
}

/**
 * Where a payload lies: SOURCE[START, END) of STREAM, the network chunk itself (no copy, no view). `frameEnd`: the frame
 * ends there; `wholeFrame`: the range is the frame's whole payload.
 */
export type FramePayloadSink = (stream: OutputChunk['stream'], source: Buffer, start: number, end: number, frameEnd: boolean, wholeFrame: boolean) => void;

/**
 * A FrameDemuxer that hands on where each payload lies in the network chunk instead of a chunk object and a view per
 * frame: for a reader that takes the frames itself, so a flood of tiny frames costs no allocation per frame.
 */
export class FramePayloads extends FrameDemuxer {
  constructor(private readonly onPayload: FramePayloadSink) {
    super(() => undefined);
  }

  protected override deliverRange(source: Buffer, start: number, end: number): void {
    const stream = this.stream;
    if (stream === 'error') super.deliverRange(source, start, end);
    else this.onPayload(stream, source, start, end, this.remaining === 0, end - start === this.frameSize);
  }
}

/** Demultiplexes an async byte stream into stdout/stderr chunks. */
export async function* demux(source: AsyncIterable<Buffer>, options: JoinFramesOption = {}): AsyncGenerator<OutputChunk, void, undefined> {
  if (options.joinFrames === true) {
    const joiner = new FrameJoiner();
    for await (const chunk of source) {
      joiner.push(chunk);
      yield* joiner.take();
    }
    joiner.end();
    return;
  }
  const pending: OutputChunk[] = [];
  const demuxer = new FrameDemuxer((chunk) => pending.push(chunk));
  for await (const chunk of source) {
    demuxer.push(chunk);
    for (let i = 0; i < pending.length; i++) yield pending[i] as OutputChunk;
    pending.length = 0;
  }
  demuxer.end();
}

/** Raw (TTY) output: every byte is stdout. */
export async function* rawOutput(source: AsyncIterable<Buffer>): AsyncGenerator<OutputChunk, void, undefined> {
  for await (const data of source) yield { stream: 'stdout', data };
}
