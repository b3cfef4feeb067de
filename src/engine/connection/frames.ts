/**
 * The multiplexed framing of non-TTY logs and attach streams: one decoder of the frame headers, which hands payloads on
 * as chunks (FrameDemuxer, demux), as runs of one stream (FrameJoiner), or as where they lie in the network chunk
 * (FramePayloads). Incremental and correct however the bytes are chunked.
 */
import { EngineError } from './errors';
import type { OutputChunk } from './types';

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
 * Where a payload lies: SOURCE[START, END) of STREAM, the network chunk itself (no copy, no view). `frameEnd`: the frame
 * ends there; `wholeFrame`: the range is the frame's whole payload.
 */
export type FramePayloadSink = (stream: OutputChunk['stream'], source: Buffer, start: number, end: number, frameEnd: boolean, wholeFrame: boolean) => void;

/**
 * Decodes the 8-byte multiplexed framing of non-TTY logs and attach streams: `[type, 0, 0, 0, size:uint32be]` then
 * `size` bytes, and hands each payload's place in the network chunk to a sink, so a frame split across chunks comes in
 * pieces of the same stream. Only a type-3 frame (a daemon error that ends the stream) is collected whole, and then
 * thrown as an EngineError.
 */
class FrameDecoder {
  private readonly header = Buffer.allocUnsafe(HEADER_SIZE);
  private headerFill = 0;
  /** Payload bytes still to come for the current frame, and its whole size. */
  private remaining = 0;
  private frameSize = 0;
  private stream: OutputChunk['stream'] | 'error' = 'stdout';
  private errorParts: Buffer[] = [];
  private failed = false;

  constructor(private readonly sink: FramePayloadSink) {}

  /** Feeds one network chunk. Throws EngineError once a type-3 frame is complete or a header is malformed. */
  push(chunk: Buffer): void {
    if (this.failed) throw new EngineError('protocol', 'The output stream was used after it failed');
    const length = chunk.length;
    const sink = this.sink;
    let offset = this.remaining > 0 || this.headerFill > 0 ? this.pushPiecewise(chunk, 0) : 0;
    while (offset < length) {
      // Whole stdout/stderr frames: a flood of tiny ones is the costly case, so they skip the frame state entirely.
      while (length - offset >= HEADER_SIZE) {
        const type = chunk[offset] as number;
        const start = offset + HEADER_SIZE;
        const end = start + frameSizeAt(chunk, offset);
        if (type > STREAM_STDERR || end > length) break;
        if (end > start) sink(type === STREAM_STDERR ? 'stderr' : 'stdout', chunk, start, end, true, true);
        offset = end;
      }
      if (offset < length) offset = this.pushPiecewise(chunk, offset);
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

  /**
   * Reads from `offset` until it is between frames again (or the chunk ends): a header or payload cut by the chunk's
   * end, an error frame, a bad header. Returns where it stopped.
   */
  private pushPiecewise(chunk: Buffer, offset: number): number {
    const length = chunk.length;
    while (offset < length) {
      if (this.remaining > 0) {
        const end = Math.min(length, offset + this.remaining);
        this.remaining -= end - offset;
        this.deliverRange(chunk, offset, end);
        offset = end;
      } else if (this.headerFill === 0 && length - offset >= HEADER_SIZE) {
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
      if (this.remaining === 0 && this.headerFill === 0) break;
    }
    return offset;
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
  private deliverRange(source: Buffer, start: number, end: number): void {
    const stream = this.stream;
    if (stream !== 'error') {
      this.sink(stream, source, start, end, this.remaining === 0, end - start === this.frameSize);
      return;
    }
    this.errorParts.push(Buffer.from(source.subarray(start, end)));
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
 * Payloads as chunks: a view into the network chunk per frame (or per piece of a frame split across chunks). An object
 * per frame is costly for a flood of tiny frames: readers use FrameJoiner or FramePayloads.
 */
export class FrameDemuxer extends FrameDecoder {
  constructor(onChunk: (chunk: OutputChunk) => void) {
    super((stream, source, start, end, frameEnd) => onChunk({ stream, data: start === 0 && end === source.length ? source : source.subarray(start, end), frameEnd }));
  }
}

/** Below this many bytes a payload is copied in JS: cheaper than a native copy's call, which makes a view each time. */
const SHORT_COPY = 64;
/** The least a joined run's buffer grows by. */
const MIN_RUN_BUFFER = 16 * 1024;

/**
 * Runs of adjacent payloads of one stream, each copied as it comes into a buffer sized from the network chunk, which
 * the runs are views of; a run of one range is passed on as a view of the network chunk. The open run ends at a stream
 * switch and at `take()`.
 */
class JoinedRuns {
  private joined: OutputChunk[] = [];
  /** Where runs are copied to: the open run is `buffer[runStart, fill)`; what lies before it was handed on. */
  private buffer = Buffer.alloc(0);
  private runStart = 0;
  private fill = 0;
  /** The open run while it is one range: kept as that range of its network chunk, not copied. */
  private lone: Buffer | undefined;
  private loneStart = 0;
  private loneEnd = 0;
  private runStream: OutputChunk['stream'] = 'stdout';
  private runFrameEnd = false;
  private bufferView: DataView = new DataView(new ArrayBuffer(0));
  /** The last network chunk copied from, and a view of it: one DataView per chunk, not per frame. */
  private viewSource: Buffer | undefined;
  private sourceView: DataView = new DataView(new ArrayBuffer(0));

  readonly add: FramePayloadSink = (stream, source, start, end, frameEnd) => {
    if (stream !== this.runStream) {
      this.closeRun();
      this.runStream = stream;
    }
    this.runFrameEnd = frameEnd;
    if (this.fill === this.runStart) {
      if (this.lone === undefined) {
        this.lone = source;
        this.loneStart = start;
        this.loneEnd = end;
        return;
      }
      // A second range: the run is copied from here on, into room for the rest of this network chunk.
      const lone = this.lone;
      this.lone = undefined;
      this.reserve(this.loneEnd - this.loneStart + source.length - start);
      this.copy(lone, this.loneStart, this.loneEnd);
    } else if (this.fill + end - start > this.buffer.length) this.reserve(source.length - start);
    this.copy(source, start, end);
  };

  take(): OutputChunk[] {
    this.closeRun();
    this.viewSource = undefined;
    const joined = this.joined;
    this.joined = [];
    return joined;
  }

  /** Room for `bytes` more after the open run; a new buffer takes the open run along (what was handed on stays). */
  private reserve(bytes: number): void {
    if (this.fill + bytes <= this.buffer.length) return;
    const open = this.fill - this.runStart;
    // Doubling keeps a run fed in many small network chunks linear.
    const grown = Buffer.allocUnsafe(Math.max(open + bytes, 2 * open, MIN_RUN_BUFFER));
    this.buffer.copy(grown, 0, this.runStart, this.fill);
    this.buffer = grown;
    this.bufferView = new DataView(grown.buffer, grown.byteOffset, grown.length);
    this.runStart = 0;
    this.fill = open;
  }

  private copy(source: Buffer, start: number, end: number): void {
    if (end - start >= SHORT_COPY) {
      this.fill += source.copy(this.buffer, this.fill, start, end);
      return;
    }
    const buffer = this.buffer;
    let fill = this.fill;
    let i = start;
    if (end - start >= 8) {
      // Four bytes a step (DataView reads and writes need no alignment): a short copy is the joiner's main cost.
      const from = this.viewOf(source);
      const to = this.bufferView;
      for (; i + 4 <= end; i += 4, fill += 4) to.setUint32(fill, from.getUint32(i));
    }
    for (; i < end; i++) buffer[fill++] = source[i] as number;
    this.fill = fill;
  }

  private viewOf(source: Buffer): DataView {
    if (source !== this.viewSource) {
      this.viewSource = source;
      this.sourceView = new DataView(source.buffer, source.byteOffset, source.length);
    }
    return this.sourceView;
  }

  private closeRun(): void {
    const lone = this.lone;
    if (lone !== undefined) {
      const start = this.loneStart;
      const end = this.loneEnd;
      this.joined.push({ stream: this.runStream, data: start === 0 && end === lone.length ? lone : lone.subarray(start, end), frameEnd: this.runFrameEnd });
      this.lone = undefined;
    } else if (this.fill > this.runStart) {
      this.joined.push({ stream: this.runStream, data: this.buffer.subarray(this.runStart, this.fill), frameEnd: this.runFrameEnd });
      this.runStart = this.fill;
    }
  }
}

/**
 * A frame decoder for JoinFramesOption: runs of adjacent payloads of one stream, up to `take()`, become one chunk each,
 * so a stream of short frames costs no object per frame. Order within and across the streams is kept; a joined chunk
 * carries its last frame's `frameEnd`.
 */
export class FrameJoiner extends FrameDecoder {
  private readonly runs: JoinedRuns;

  constructor() {
    const runs = new JoinedRuns();
    super(runs.add);
    this.runs = runs;
  }

  /** The chunks joined since the last call, in order. */
  take(): OutputChunk[] {
    return this.runs.take();
  }
}

/**
 * Pushes CHUNKS into JOINER and yields the runs. A frame that ends the stream (an error frame, a bad header) throws
 * after the runs before it, so what the container wrote just before the daemon's error is not lost with it.
 */
export function* joinedRuns(joiner: FrameJoiner, chunks: Iterable<Buffer>): Generator<OutputChunk, void, undefined> {
  let failure: { error: unknown } | undefined;
  try {
    for (const chunk of chunks) joiner.push(chunk);
  } catch (error) {
    failure = { error };
  }
  yield* joiner.take();
  if (failure !== undefined) throw failure.error;
}

/**
 * A frame decoder that hands on where each payload lies in the network chunk instead of a chunk object and a view per
 * frame: for a reader that takes the frames itself, so a flood of tiny frames costs no allocation per frame.
 */
export class FramePayloads extends FrameDecoder {}

/**
 * Demultiplexes an async byte stream into stdout/stderr chunks, a run of one stream in a network chunk per chunk: no
 * reader of container output needs a chunk per frame (the log readers take the frames themselves, FramePayloads).
 */
export async function* demux(source: AsyncIterable<Buffer>): AsyncGenerator<OutputChunk, void, undefined> {
  const joiner = new FrameJoiner();
  for await (const chunk of source) yield* joinedRuns(joiner, [chunk]);
  joiner.end();
}

/** Raw (TTY) output: every byte is stdout. */
export async function* rawOutput(source: AsyncIterable<Buffer>): AsyncGenerator<OutputChunk, void, undefined> {
  for await (const data of source) yield { stream: 'stdout', data };
}
