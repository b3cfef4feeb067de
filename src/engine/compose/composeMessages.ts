/**
 * Splits one container's timestamped log stream (compose logs) into lines: a message per frame without a TTY, per
 * newline with one. Engines store a long line as several stamped partial messages (dockerd every 16 KiB); the
 * parts of one line are joined, up to MAX_LINE_BYTES, and a longer line is shown cut with LINE_CUT_MARKER while the
 * rest of it is read and dropped. Each byte is handled a bounded number of times, however the stream is chunked.
 * Plain Node.
 */
import { BoundedLine, LINE_CUT_MARKER, MAX_LINE_BYTES, type OutputChunk } from '../connection';

type Stream = 'stdout' | 'stderr';
export type MessageSink = (stream: Stream, seconds: number, nanos: number, text: string) => void;

/** `2006-01-02T15:04:05.999999999+07:00 `: a message's stamp and its space fit in this many bytes. */
const STAMP_ROOM = 36;
const STAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d) ?/;
const NEWLINE = 0x0a;

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
  readonly message = new BoundedLine(MAX_LINE_BYTES + STAMP_ROOM);
  joined: JoinedLine | undefined;
}

export class MessageSplitter {
  private readonly streams = new Map<Stream, StreamSplit>();
  private lastStamp: { readonly prefix: string; readonly seconds: number; readonly nanos: number } | undefined;

  constructor(
    private readonly tty: boolean,
    private readonly onMessage: MessageSink,
  ) {}

  push(chunk: OutputChunk): void {
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

  /** The stream ended: what is left is one unfinished line per stream. */
  end(): void {
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
    let split = this.streams.get(stream);
    if (!split) {
      split = new StreamSplit();
      this.streams.set(stream, split);
    }
    return split;
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
    let body = stamped.text;
    if (endsLine && !cut) body = body.slice(0, body.endsWith('\r\n') ? -2 : -1);
    const joined = (split.joined ??= { seconds: stamped.seconds, nanos: stamped.nanos, texts: [], length: 0, cut: false });
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
