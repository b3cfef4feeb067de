/**
 * Turns the engine's timestamped log stream (`timestamps=1`) back into the lines `docker logs` prints, and keeps
 * the place to resume from after a restart or an engine outage. No `vscode` here.
 *
 * The stream is a sequence of messages, each `STAMP SP content`, the content ending in `\n` or not (a partial
 * message). Engines store a long line as several partial messages, each with its own stamp: dockerd's json-file
 * every 16 KiB, Podman every 8 KiB, and in a TTY wherever a read from the pty ended. So a stamp is expected at the
 * start of each message, never at the start of a network chunk. Where a message ends:
 * - non-TTY: the multiplexed frame ends (one frame is one message; `OutputChunk.frameEnd`);
 * - TTY (raw bytes, no frames): at `\n`, or where the next message's stamp follows a partial one. Such a stamp has
 *   the very shape of the engine's stamps (same length and zone) and is not older than the message it ends; a time
 *   printed by the program itself is older than the engine's stamp of that line, so it stays in the text.
 *
 * Resuming: the engine's `since` has whole seconds and includes them, so the resumed stream replays every message
 * from the second of the newest one shown. Per stream, the reader counts the content bytes it showed in that second
 * and drops exactly that many bytes of the replay; bytes, not messages, because an engine may split the replay into
 * other parts than it sent live. A message newer than any shown ends the dropping early.
 */
import type { OutputChunk } from '../engine';
import { FramePayloads, LINE_CUT_MARKER, MAX_LINE_BYTES, utf8Boundary, type FramePayloadSink } from '../engine/connection';
import { MAX_STAMP_LENGTH, STAMP, StampFinder, StampSeconds, compareStamps } from './logStamps';
import { NewlineScanner, REPEAT_BYTES, REPEAT_RUN, StreamState, type PendingPart } from './logStreamState';

export { compareStamps, stampSeconds } from './logStamps';

type Stream = OutputChunk['stream'];
const SPACE = 0x20;
const NEWLINE = 0x0a;

/**
 * Receives whole lines (ending in `\n`), or at the end of a stream the unfinished rest of one, with the engine's
 * stamp of (the second of) its first message when it had one.
 */
export type LineOutput = (stream: Stream, text: string, stamp?: string) => void;

/** A line handed on, with the parts of messages it counts as shown. */
interface Delivery {
  readonly stream: Stream;
  readonly text: string;
  readonly state: StreamState;
  readonly parts: readonly PendingPart[];
  readonly at: number;
}

export class LogMessageReader {
  private readonly streams = new Map<Stream, StreamState>();
  private readonly newlines = new NewlineScanner();
  private readonly stamps = new StampFinder();
  /** Where the content of each message of a run of repeated stamps ends (StreamState.readRepeats). */
  private readonly repeatEnds = new Int32Array(REPEAT_RUN);
  /** The last stream's state: one map look-up per stream change, not per message. */
  private lastState: StreamState | undefined;
  /** Set by `deferFor`: each line waits this long before it is handed on; until then it is not counted as shown. */
  private deferMs: number | undefined;
  private readonly deferred: Delivery[] = [];
  private deferTimer: ReturnType<typeof setTimeout> | undefined;
  /** The newest stamp shown and its whole second. */
  private newest: string | undefined;
  private newestSecond: number | undefined;
  /** Messages shown, and the whole second of the first stamped one. */
  shownMessages = 0;
  oldestSecond: number | undefined;
  private readonly seconds = new StampSeconds();
  /** The frames of the stream being read, when its chunks come multiplexed (`rawFrames`). */
  private frames: FramePayloads | undefined;

  constructor(public output: LineOutput) {}

  /** `since` for the next request (whole seconds), or undefined when nothing was shown yet. */
  get resumeSince(): number | undefined {
    return this.newestSecond;
  }

  /**
   * A resumed stream begins: drop the replay of what was shown. An unfinished line not handed on (a broken stream,
   * or one `end` held back) was not counted as shown, so the replay brings it again, whole: it goes.
   */
  beginResume(): void {
    this.deferred.length = 0;
    this.stopDeferTimer();
    for (const state of this.streams.values()) {
      state.resetMessage();
      // The unfinished line not handed on goes uncounted; a line being cut stays cut (its replayed rest is dropped).
      state.kept = 0;
      state.lineBytes = 0;
      state.pending = [];
      state.skip = this.newestSecond === undefined ? 0 : state.shownInNewestSecond;
    }
  }

  /** Hands on the lines still deferred and the unfinished lines `end` held back. */
  releaseHeld(): void {
    this.releaseDeferred(Number.POSITIVE_INFINITY);
    for (const [stream, state] of this.streams) if (state.lineBytes > 0 || state.cutting) this.emitLine(stream, state, false);
    this.releaseDeferred(Number.POSITIVE_INFINITY);
  }

  /**
   * From now on each line waits MS before it is handed on (undefined: lines go at once again; those waiting stay
   * until `releaseHeld`, or go uncounted at `beginResume`). Podman's follow sends, in the last moment before it ends
   * at a restart, a few messages of the new run picked out of order: held this way, they never show, and the next
   * read brings the new run whole.
   */
  deferFor(ms: number | undefined): void {
    this.deferMs = ms;
    if (ms === undefined) this.stopDeferTimer();
    else this.armDeferTimer();
  }

  private releaseDeferred(ageMs: number): void {
    const limit = ageMs === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : Date.now() - ageMs;
    while (this.deferred.length > 0 && (this.deferred[0] as Delivery).at <= limit) {
      const { stream, text, state, parts } = this.deferred.shift() as Delivery;
      for (const part of parts) this.countShown(state, part.stamp, part.bytes, part.wholes);
      if (text !== '') this.output(stream, text, parts[0]?.stamp);
    }
    if (this.deferred.length === 0) this.stopDeferTimer();
  }

  private armDeferTimer(): void {
    const first = this.deferred[0];
    if (this.deferMs === undefined || first === undefined || this.deferTimer !== undefined) return;
    const ms = this.deferMs;
    this.deferTimer = setTimeout(() => {
      this.deferTimer = undefined;
      this.releaseDeferred(ms);
      this.armDeferTimer();
    }, Math.max(0, first.at + ms - Date.now()));
  }

  private stopDeferTimer(): void {
    if (this.deferTimer !== undefined) clearTimeout(this.deferTimer);
    this.deferTimer = undefined;
  }

  /** A line is handed on now, or once it waited `deferMs`. */
  private deliver(stream: Stream, text: string, state: StreamState, parts: readonly PendingPart[]): void {
    if (this.deferMs === undefined && this.deferred.length === 0) {
      for (const part of parts) this.countShown(state, part.stamp, part.bytes, part.wholes);
      if (text !== '') this.output(stream, text, parts[0]?.stamp);
      return;
    }
    this.deferred.push({ stream, text, state, parts, at: Date.now() });
    if (this.deferMs === undefined) this.releaseDeferred(Number.POSITIVE_INFINITY);
    else this.armDeferTimer();
  }

  /**
   * `framed`: the chunks say where each frame ends (non-TTY output). Chunks marked `multiplexed` carry the frames
   * themselves: each frame's payload is read where it lies in the chunk, a tiny one whole in one step.
   */
  push(chunk: OutputChunk, framed: boolean): void {
    if (chunk.multiplexed === true) (this.frames ??= new FramePayloads(this.takePayload)).push(chunk.data);
    else this.read(chunk.stream, chunk.data, chunk.frameEnd === true, framed);
  }

  private readonly takePayload: FramePayloadSink = (stream, source, start, end, frameEnd, wholeFrame) => {
    const state = this.state(stream);
    if (wholeFrame && state.takeWholeMessage(this.stamps, this.newlines, source, start, end)) return;
    this.read(stream, start === 0 && end === source.length ? source : source.subarray(start, end), frameEnd, true);
  };

  private read(stream: Stream, chunkData: Buffer, frameEnd: boolean, framed: boolean): void {
    const state = this.state(stream);
    let data = chunkData;
    if (state.carry) {
      data = Buffer.concat([state.carry, data]);
      state.carry = undefined;
    }
    let offset = 0;
    while (offset < data.length) {
      if (state.atStart) offset = this.readStamp(state, data, offset);
      else offset = this.readContent(stream, state, data, offset, framed);
    }
    if (frameEnd) {
      if (state.atStart && state.head !== '') this.startUnstamped(state);
      if (!state.atStart) this.finishMessage(stream, state, false);
    }
  }

  /**
   * The stream ended. `clean`: the engine closed it (the container stopped); the last message is whole, and an
   * unfinished line is delivered as it is, or with `holdUnfinished` kept back for `releaseHeld` or a resume (a
   * followed stream's last bytes may belong to a run started since: Podman's follow once sent the new run's first
   * part of a line without the line before it). Otherwise (the connection broke) the message in progress is
   * dropped: the resumed stream brings it again, whole.
   */
  end(clean: boolean, holdUnfinished = false): void {
    const frames = this.frames;
    this.frames = undefined;
    try {
      if (clean) frames?.end();
    } catch (error) {
      this.end(false); // a frame cut short: the connection broke
      throw error;
    }
    for (const [stream, state] of this.streams) {
      if (!clean) {
        state.resetMessage();
        continue;
      }
      if (state.carry) {
        const carry = state.carry;
        state.carry = undefined;
        if (state.atStart) state.head += carry.toString('latin1');
        else this.take(stream, state, carry, 0, carry.length);
      }
      if (state.atStart && state.head !== '') this.startUnstamped(state);
      if (!state.atStart) this.finishMessage(stream, state, false);
      if ((state.lineBytes > 0 || state.cutting) && !holdUnfinished) this.emitLine(stream, state, false);
    }
  }

  private state(stream: Stream): StreamState {
    if (this.lastState?.streamName === stream) return this.lastState;
    let state = this.streams.get(stream);
    if (!state) {
      state = new StreamState(stream);
      this.streams.set(stream, state);
    }
    this.lastState = state;
    return state;
  }

  /** Reads the stamp at the start of a message; resolves the offset after it. */
  private readStamp(state: StreamState, data: Buffer, offset: number): number {
    const previous = state.stamp;
    if (previous !== undefined && state.head === '' && data[offset + previous.length] === SPACE) {
      // Most messages carry a stamp of the previous one's length: a stamp holds no space, so that one is the first.
      const stamp = this.stamps.holds(previous, data, offset) ? previous : this.stamps.read(data, offset, offset + previous.length, previous);
      if (stamp !== undefined) {
        this.startMessage(state, stamp);
        return offset + previous.length + 1;
      }
    }
    const room = MAX_STAMP_LENGTH + 1 - state.head.length;
    const space = data.indexOf(SPACE, offset);
    if (space === -1 || space - offset >= room) {
      if (data.length - offset < room && data.indexOf(NEWLINE, offset) === -1) {
        // The stamp may continue in the next chunk.
        state.head += data.toString('latin1', offset);
        return data.length;
      }
      this.startUnstamped(state);
      return offset;
    }
    let stamp: string | undefined;
    if (state.head === '') {
      stamp = this.stamps.read(data, offset, space, state.stamp);
    } else {
      const joined = state.head + data.toString('latin1', offset, space);
      stamp = STAMP.test(joined) ? joined : undefined;
    }
    if (stamp === undefined) {
      this.startUnstamped(state);
      return offset;
    }
    state.head = '';
    this.startMessage(state, stamp);
    return space + 1;
  }

  /** An engine that stamps nothing (or bytes that are no stamp): what was taken for a stamp is content. */
  private startUnstamped(state: StreamState): void {
    const taken = state.head;
    state.head = '';
    this.startMessage(state, undefined);
    if (taken !== '') this.take(state.streamName, state, Buffer.from(taken, 'latin1'), 0, taken.length);
  }

  private startMessage(state: StreamState, stamp: string | undefined): void {
    state.atStart = false;
    state.spilled = false;
    state.stamp = stamp;
    state.messageBytes = 0;
    if (state.skip > 0 && stamp !== undefined && this.newest !== undefined && compareStamps(stamp, this.newest) > 0) {
      for (const each of this.streams.values()) each.skip = 0;
    }
  }

  /**
   * Content data[start, end) of the current message, less what is left of the replay to drop. Kept while the line
   * fits the bound; the bytes past it cut the line, and while it is cut they are only counted.
   */
  private take(stream: Stream, state: StreamState, data: Buffer, start: number, end: number): void {
    if (state.skip > 0) {
      const dropped = Math.min(state.skip, end - start);
      state.skip -= dropped;
      start += dropped;
    }
    if (end <= start) return;
    state.messageBytes += end - start;
    if (state.cutting) return;
    const room = MAX_LINE_BYTES - state.kept;
    state.keep(data, start, Math.min(end, start + room));
    if (end - start > room) this.cutLine(stream, state);
  }

  /**
   * The line passed the bound: what it holds is shown, cut at a character with the marker, and every byte of it so
   * far counts as shown (the rest is never shown, so a resume must not bring it back as a new line).
   */
  private cutLine(stream: Stream, state: StreamState): void {
    const buffer = state.buffer as Buffer;
    const text = buffer.toString('utf8', 0, utf8Boundary(buffer, state.kept)) + LINE_CUT_MARKER;
    state.addPending(state.stamp, state.messageBytes, 0);
    const parts = state.pending;
    state.pending = [];
    state.messageBytes = 0;
    state.spilled = true;
    state.kept = 0;
    state.lineBytes = 0;
    state.buffer = undefined;
    state.cutting = true;
    this.deliver(stream, text, state, parts);
  }

  /** Content up to the end of the message, the line, or the chunk; resolves the offset after it. */
  private readContent(stream: Stream, state: StreamState, data: Buffer, offset: number, framed: boolean): number {
    const newline = this.newlines.next(data, offset);
    const end = newline === -1 ? data.length : newline + 1;
    // TTY: each stamp found ends a message and starts the next, up to the line's end (a stamp never holds the newline).
    // After a long message the next is likely long too: its run of repeats would look for a stamp in vain.
    let short = true;
    for (let stamp = state.stamp; !framed && stamp !== undefined; stamp = state.stamp) {
      if (short) offset = state.readRepeats(this.stamps, this.repeatEnds, data, offset, end);
      const next = this.stamps.next(stamp, data, offset, end);
      if (next === -1) break;
      short = next - offset <= REPEAT_BYTES;
      if (next > offset) this.take(stream, state, data, offset, next);
      const found = this.stamps.found;
      if (found === undefined) {
        // A possible stamp cut by the end of the chunk: look again with the next chunk.
        state.carry = Buffer.from(data.subarray(next));
        return data.length;
      }
      this.finishMessage(stream, state, false);
      this.startMessage(state, found);
      offset = next + found.length + 1;
    }
    if (end > offset) this.take(stream, state, data, offset, end);
    if (newline !== -1) this.finishMessage(stream, state, true);
    return end;
  }

  private finishMessage(stream: Stream, state: StreamState, endsLine: boolean): void {
    state.atStart = true;
    // A message cut with its line still ends here: a part of no bytes counts it as whole.
    if (state.messageBytes > 0 || state.spilled) state.addPending(state.stamp, state.messageBytes, 1);
    state.messageBytes = 0;
    state.spilled = false;
    state.lineBytes = state.kept;
    if (endsLine) this.emitLine(stream, state, true);
  }

  /** BYTES of messages of one second were handed on, the last ones of WHOLES messages. */
  private countShown(state: StreamState, stamp: string | undefined, bytes: number, wholes: number): void {
    this.shownMessages += wholes;
    if (stamp === undefined) {
      state.shownInNewestSecond += bytes;
      return;
    }
    const second = this.seconds.of(stamp);
    this.oldestSecond ??= second;
    if (this.newest === undefined || compareStamps(stamp, this.newest) > 0) {
      if (second !== this.newestSecond) for (const each of this.streams.values()) each.shownInNewestSecond = 0;
      this.newest = stamp;
      this.newestSecond = second;
    }
    if (second === this.newestSecond) state.shownInNewestSecond += bytes;
  }

  /**
   * Hands on the line of finished messages (the current message's bytes stay for what follows). A cut line was shown
   * already: only its end goes, `\n` when ENDS (the newline was read), and its counts.
   */
  private emitLine(stream: Stream, state: StreamState, ends: boolean): void {
    const parts = state.pending;
    state.pending = [];
    let text = '';
    if (state.cutting) {
      state.cutting = false;
      if (ends) text = '\n';
    } else if (state.buffer && state.lineBytes > 0) {
      text = state.buffer.toString('utf8', 0, state.lineBytes);
      if (state.kept > state.lineBytes) state.buffer.copyWithin(0, state.lineBytes, state.kept);
      state.kept -= state.lineBytes;
    }
    state.lineBytes = 0;
    state.releaseLongBuffer();
    this.deliver(stream, text, state, parts);
  }
}
