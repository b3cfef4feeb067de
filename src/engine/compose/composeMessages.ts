/**
 * Splits one container's timestamped log stream (compose logs) into lines: a message per frame without a TTY, per
 * newline with one. Engines store a long line as several stamped partial messages (dockerd every 16 KiB); the
 * parts of one line are joined, up to MAX_LINE_BYTES, and a longer line is shown cut with LINE_CUT_MARKER while the
 * rest of it is read and dropped. Each byte is handled a bounded number of times, however the stream is chunked.
 * Without a TTY the frames come either demultiplexed (a chunk per frame, `frameEnd`) or as the response's bytes
 * (`rawFrames`, chunks marked `multiplexed`): then the one frame decoder hands on where each payload lies, and a
 * whole frame is read where it lies, with no chunk object, view or copy per frame. Both ways hand on the same lines.
 * Plain Node.
 */
import { BoundedLine, FramePayloads, LINE_CUT_MARKER, MAX_LINE_BYTES, type FramePayloadSink, type OutputChunk } from '../connection';

type Stream = 'stdout' | 'stderr';
export type MessageSink = (stream: Stream, seconds: number, nanos: number, text: string) => void;

/** `2006-01-02T15:04:05.999999999+07:00 `: a message's stamp and its space fit in this many bytes. */
const STAMP_ROOM = 36;
const STAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d) ?/;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
/** A message's bound (its stamp and a whole line): a larger one is cut there by its BoundedLine, not read in place. */
const MAX_MESSAGE_BYTES = MAX_LINE_BYTES + STAMP_ROOM;

/** `2024-01-02T03:04:05.123456789Z content` → its instant and the content; no stamp → undefined. */
export function splitStamp(message: string): { seconds: number; nanos: number; text: string } | undefined {
  const match = STAMP.exec(message);
  if (!match) return undefined;
  const ms = Date.parse(`${match[1] ?? ''}${match[3] ?? ''}`);
  if (!Number.isFinite(ms)) return undefined;
  return { seconds: Math.floor(ms / 1000), nanos: Number((match[2] ?? '').padEnd(9, '0')), text: message.slice(match[0].length) };
}

/** The line being joined from partial messages: the first part's stamp, the texts, and whether it was cut. */
interface JoinedLine {
  readonly seconds: number;
  readonly nanos: number;
  readonly texts: string[];
  length: number;
  cut: boolean;
}

class StreamSplit {
  /** The current message (non-TTY: the frame; TTY: up to the newline), stamp included. */
  readonly message = new BoundedLine(MAX_MESSAGE_BYTES);
  joined: JoinedLine | undefined;

  constructor(readonly stream: Stream) {}
}

/** The stamp (and its space) of the last stamped message, and its instant. The stamp is ASCII. */
interface LastStamp {
  readonly prefix: string;
  readonly seconds: number;
  readonly nanos: number;
}

export class MessageSplitter {
  private readonly streams = new Map<Stream, StreamSplit>();
  private lastStamp: LastStamp | undefined;
  /** The last stream's split: one map look-up per stream change, not per frame. */
  private lastSplit: StreamSplit | undefined;
  /** The frames of the stream being read, when its chunks come multiplexed (`rawFrames`). */
  private frames: FramePayloads | undefined;

  constructor(
    private readonly tty: boolean,
    private readonly onMessage: MessageSink,
  ) {}

  push(chunk: OutputChunk): void {
    if (chunk.multiplexed === true) {
      (this.frames ??= new FramePayloads(this.takePayload)).push(chunk.data);
      return;
    }
    const split = this.split(chunk.stream);
    const data = chunk.data;
    if (!this.tty) {
      split.message.add(data);
      if (chunk.frameEnd === true) this.message(chunk.stream, split);
      return;
    }
    let start = 0;
    for (let newline = data.indexOf(NEWLINE, start); newline !== -1; newline = data.indexOf(NEWLINE, start)) {
      split.message.add(data, start, newline + 1);
      this.message(chunk.stream, split);
      start = newline + 1;
    }
    split.message.add(data, start);
  }

  /**
   * The stream ended: what is left is one unfinished line per stream. Multiplexed, a frame cut short throws first (the
   * connection broke), and nothing more is handed on, as when the demuxer throws before `end` is reached.
   */
  end(): void {
    const frames = this.frames;
    this.frames = undefined;
    frames?.end();
    for (const [stream, split] of this.streams) {
      if (split.message.started) this.message(stream, split, true);
      if (split.joined) this.emit(stream, split.joined);
      split.joined = undefined;
    }
  }

  /**
   * splitStamp, but a message behind the stamp of the message before (and its space) reuses that stamp's instant: a
   * flood of tiny messages then costs no regular expression and no date parse per message.
   */
  private stampOf(message: string): { seconds: number; nanos: number; text: string } {
    const last = this.lastStamp;
    if (last !== undefined && message.startsWith(last.prefix)) return { seconds: last.seconds, nanos: last.nanos, text: message.slice(last.prefix.length) };
    const stamped = splitStamp(message);
    if (!stamped) return { seconds: 0, nanos: 0, text: message };
    const prefix = message.slice(0, message.length - stamped.text.length);
    // Only a stamp ended by its space: without one, a later message's space would be content here but not to the regex.
    this.lastStamp = prefix.endsWith(' ') ? { prefix, seconds: stamped.seconds, nanos: stamped.nanos } : undefined;
    return stamped;
  }

  private split(stream: Stream): StreamSplit {
    if (this.lastSplit?.stream === stream) return this.lastSplit;
    let split = this.streams.get(stream);
    if (!split) {
      split = new StreamSplit(stream);
      this.streams.set(stream, split);
    }
    this.lastSplit = split;
    return split;
  }

  /**
   * A payload of a multiplexed frame, where it lies in the network chunk. A line already cut only looks for its end
   * (the last byte of a frame); a whole frame that fits the message bound is read in place; any other payload (a frame
   * split across chunks, one past the bound) goes through the message's buffer as a demultiplexed chunk would.
   */
  private readonly takePayload: FramePayloadSink = (stream, source, start, end, frameEnd, wholeFrame) => {
    const split = this.split(stream);
    const cutLine = split.joined?.cut === true ? split.joined : undefined;
    if (cutLine) {
      if (frameEnd && source[end - 1] === NEWLINE) {
        split.joined = undefined;
        this.emit(stream, cutLine);
      }
      return;
    }
    if (wholeFrame && end - start <= MAX_MESSAGE_BYTES) {
      this.wholeMessage(split, source, start, end);
      return;
    }
    split.message.add(source, start, end);
    if (frameEnd) this.message(stream, split);
  };

  /**
   * One whole message in source[start, end), within the message bound. Behind the stamp of the message before (the
   * parts of one long line, a flood of tiny messages) only the content is decoded: no string of the stamp, no slice.
   */
  private wholeMessage(split: StreamSplit, source: Buffer, start: number, end: number): void {
    const endsLine = source[end - 1] === NEWLINE;
    const last = this.lastStamp;
    if (last === undefined || !startsWith(source, start, end, last.prefix)) {
      const stamped = this.stampOf(source.toString('utf8', start, end));
      this.join(split.stream, split, stamped.seconds, stamped.nanos, endsLine ? stripNewline(stamped.text) : stamped.text, false, endsLine, false);
      return;
    }
    const from = start + last.prefix.length;
    // The newline, and a return before it, are not part of the line (as stripNewline, on the bytes).
    const to = endsLine ? (end - 2 >= from && source[end - 2] === RETURN ? end - 2 : end - 1) : end;
    this.join(split.stream, split, last.seconds, last.nanos, to > from ? source.toString('utf8', from, to) : '', false, endsLine, false);
  }

  private message(stream: Stream, split: StreamSplit, last = false): void {
    const cutLine = split.joined?.cut === true ? split.joined : undefined;
    if (cutLine) {
      // The line will be shown cut: the rest of it is only read to its end, not decoded.
      if (split.message.discard() || last) {
        split.joined = undefined;
        this.emit(stream, cutLine);
      }
      return;
    }
    const { text, cut, endsLine } = split.message.take();
    const stamped = this.stampOf(text);
    this.join(stream, split, stamped.seconds, stamped.nanos, endsLine && !cut ? stripNewline(stamped.text) : stamped.text, cut, endsLine, last);
  }

  /** A message's CONTENT (its newline stripped unless it was cut) joins the line; the line goes when it ends. */
  private join(stream: Stream, split: StreamSplit, seconds: number, nanos: number, content: string, cut: boolean, endsLine: boolean, last: boolean): void {
    let body = content;
    const joined = (split.joined ??= { seconds, nanos, texts: [], length: 0, cut: false });
    const room = MAX_LINE_BYTES - joined.length;
    if (body.length > room) {
      body = body.slice(0, Math.max(0, room));
      joined.cut = true;
    }
    if (body !== '') joined.texts.push(body);
    joined.length += body.length;
    joined.cut ||= cut;
    if (!endsLine && !last) return;
    split.joined = undefined;
    this.emit(stream, joined);
  }

  private emit(stream: Stream, joined: JoinedLine): void {
    const text = joined.texts.length === 1 ? (joined.texts[0] as string) : joined.texts.join('');
    const lines = (joined.cut ? text + LINE_CUT_MARKER : text).split('\n');
    for (const line of lines) this.onMessage(stream, joined.seconds, joined.nanos, line);
  }
}

/** The text without its final newline, and without a return before that. */
function stripNewline(text: string): string {
  return text.slice(0, text.endsWith('\r\n') ? -2 : -1);
}

/**
 * Whether source[start, end) begins with the ASCII PREFIX: then, and only then, its text begins with it (a byte that
 * is not ASCII never decodes to an ASCII character). From the end: stamps of one second differ in their last digits.
 */
function startsWith(source: Buffer, start: number, end: number, prefix: string): boolean {
  const length = prefix.length;
  if (end - start < length) return false;
  for (let i = length - 1; i >= 0; i--) if (source[start + i] !== prefix.charCodeAt(i)) return false;
  return true;
}
