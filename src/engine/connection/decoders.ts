/**
 * Stream decoders for engine responses. Both are incremental and stay correct however the bytes are chunked:
 * frames and lines may be split across chunks, and one chunk may carry many of them.
 */
import { EngineError, WRONG_CREDENTIALS_HINT, type EngineErrorKind } from './errors';
import type { JoinFramesOption, OutputChunk } from './types';

const HEADER_SIZE = 8;
const STREAM_STDIN = 0;
const STREAM_STDOUT = 1;
const STREAM_STDERR = 2;
const STREAM_SYSTEMERR = 3;
const MIB = 1024 * 1024;
/** A daemon error frame is one message: anything larger is not an error text, and is not collected. */
export const MAX_ERROR_FRAME_BYTES = MIB;
/** One JSON line (an event, a progress or build message) is at most a few KiB; a line growing past this is refused. */
export const MAX_JSON_LINE_BYTES = 16 * MIB;

/**
 * Decodes the 8-byte multiplexed framing of non-TTY logs and attach streams: `[type, 0, 0, 0, size:uint32be]` then
 * `size` bytes. Payload bytes are passed on as they arrive, as views into the incoming chunks (no copies), so a frame
 * split across chunks is delivered in pieces of the same stream. Only a type-3 frame (a daemon error that ends the
 * stream) is collected whole, and then thrown as an EngineError.
 */
export class FrameDemuxer {
  private readonly header = Buffer.allocUnsafe(HEADER_SIZE);
  private headerFill = 0;
  /** Payload bytes still to come for the current frame. */
  protected remaining = 0;
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
        this.startFrame(chunk[offset] as number, chunk.readUInt32BE(offset + 4), chunk, offset);
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

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into JSON values, one per line (`\n` or `\r\n`). Lines are split on bytes, and a line is decoded
 * only once it is complete, so a UTF-8 character split across chunks decodes correctly. Blank lines are skipped.
 */
export class JsonLineDecoder<T = unknown> {
  private partial: Buffer[] = [];
  private partialLength = 0;

  /** ON_VALUE also gets the line's text, for what JSON numbers cannot hold exactly (an event's `timeNano`). */
  constructor(private readonly onValue: (value: T, text: string) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    const last = chunk.lastIndexOf(NEWLINE);
    if (last !== -1 && this.partialLength > 0) {
      const newline = chunk.indexOf(NEWLINE);
      const line = chunk.subarray(0, newline);
      this.refuseLongLine(this.partialLength + line.length);
      this.partial.push(line);
      const joined = Buffer.concat(this.partial, this.partialLength + line.length);
      this.partial = [];
      this.partialLength = 0;
      this.parseLines(joined.toString('utf8'));
      start = newline + 1;
    }
    // The chunk's whole lines are decoded at once: a stream of tiny values costs no Buffer and no decoding call per
    // line. A newline byte is never part of a UTF-8 character, so the text has a newline exactly where the bytes do.
    if (last >= start) this.parseLines(chunk.toString('utf8', start, last));
    start = Math.max(start, last + 1);
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.refuseLongLine(this.partialLength + rest.length);
      this.partial.push(rest);
      this.partialLength += rest.length;
    }
  }

  /** A line that never ends would grow without bound: past MAX_JSON_LINE_BYTES the stream is refused. */
  private refuseLongLine(length: number): void {
    if (length <= MAX_JSON_LINE_BYTES) return;
    this.partial = [];
    this.partialLength = 0;
    throw new EngineError('protocol', `The engine sent a JSON line longer than ${MAX_JSON_LINE_BYTES / MIB} MiB without a line break; Berth stopped reading the stream`, {
      hint: 'The engine or something between it and Berth is misbehaving; check the engine host',
    });
  }

  /** Call when the source ends: a last line without a newline is still a value. */
  end(): void {
    if (this.partialLength === 0) return;
    const line = Buffer.concat(this.partial, this.partialLength);
    this.partial = [];
    this.partialLength = 0;
    this.parseLines(line.toString('utf8'));
  }

  /** Each line of TEXT (lines joined by `\n`, the last without one) as a value. */
  private parseLines(text: string): void {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      this.parse(text, start, newline);
      start = newline + 1;
    }
    this.parse(text, start, text.length);
  }

  private parse(lines: string, start: number, end: number): void {
    // JSON.parse skips the whitespace around a value itself; a line of whitespace only is no value.
    let first = start;
    while (first < end && isJsonWhitespace(lines.charCodeAt(first))) first++;
    if (first === end) return;
    const text = lines.slice(first, end);
    let value: T;
    try {
      value = JSON.parse(text) as T;
    } catch {
      const trimmed = text.trim();
      const shown = trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed;
      throw new EngineError('protocol', `The engine sent a line that is not JSON: ${shown}`);
    }
    this.onValue(value, text);
  }
}

/** Space, tab, CR and LF: what JSON allows around a value (and `trim` removed before). */
function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}

/** Decodes an async byte stream of JSON lines into values. */
export async function* jsonLines<T = unknown>(source: AsyncIterable<Buffer>): AsyncGenerator<T, void, undefined> {
  const pending: T[] = [];
  const decoder = new JsonLineDecoder<T>((value) => pending.push(value));
  for await (const chunk of source) {
    decoder.push(chunk);
    for (let i = 0; i < pending.length; i++) yield pending[i] as T;
    pending.length = 0;
  }
  decoder.end();
  for (const value of pending) yield value;
}

/** A line of a pull or push stream, which may carry an in-band failure. */
export interface ProgressLine {
  status?: string;
  id?: string;
  progress?: string;
  progressDetail?: { current?: number; total?: number };
  error?: string;
  errorDetail?: { message?: string; code?: number };
  aux?: unknown;
}

/**
 * The error an in-band `errorDetail` / `error` line stands for, or undefined for a normal progress line. When the
 * call carried credentials, a refusal says that they are wrong rather than asking to sign in.
 */
export function progressLineError(line: ProgressLine, operation: 'pull' | 'push' = 'pull', credentialsSent = false): EngineError | undefined {
  if (line.errorDetail === undefined && line.error === undefined) return undefined;
  const message = line.errorDetail?.message ?? line.error ?? 'unknown error';
  const kind = classifyRegistryMessage(message);
  const hint = kind === 'unauthorized' && credentialsSent ? WRONG_CREDENTIALS_HINT : registryHint(kind, operation);
  return new EngineError(kind, message, { engineMessage: message, hint });
}

/** Yields progress lines and throws the EngineError of the first `errorDetail` line, although the HTTP status was 200. */
export async function* progressLines(
  source: AsyncIterable<Buffer>,
  operation: 'pull' | 'push' = 'pull',
): AsyncGenerator<ProgressLine, void, undefined> {
  for await (const line of jsonLines<ProgressLine>(source)) {
    const error = progressLineError(line, operation);
    if (error) throw error;
    yield line;
  }
}

function classifyRegistryMessage(message: string): EngineErrorKind {
  const lower = message.toLowerCase();
  if (/unauthori[sz]ed|authentication required|no basic auth credentials|access denied|denied:|forbidden|incorrect username or password/.test(lower)) {
    return 'unauthorized';
  }
  if (/manifest unknown|not found|does not exist|unknown blob|no such image/.test(lower)) return 'not-found';
  return 'server';
}

export function registryHint(kind: EngineErrorKind, operation: 'pull' | 'push'): string | undefined {
  if (kind === 'unauthorized') {
    return `Sign in to the registry (Berth: Sign In to Registry, or docker login) with an account allowed to ${operation} it, then try again`;
  }
  if (kind === 'not-found') return 'Check the image name and tag';
  return undefined;
}
