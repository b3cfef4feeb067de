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
import { MAX_STAMP_LENGTH, NewlineScanner, STAMP, StreamState, addCount, compareStamps, sameSecond, zoneOf, type PendingPart, type ShownCount } from './logStreamState';

export { compareStamps, stampSeconds } from './logStreamState';

type Stream = OutputChunk['stream'];
const SPACE = 0x20;
const NEWLINE = 0x0a;

/**
 * Receives whole lines (ending in `\n`), or at the end of a stream the unfinished rest of one, with the engine's
 * stamp of (the second of) its first message when it had one.
 */
export type LineOutput = (stream: Stream, text: string, stamp?: string) => void;

/**
 * An unfinished line is handed on once it holds this much (cut at a character boundary), so a container that writes
 * without newlines costs bounded memory; the sink shows the pieces back to back, as one line.
 */
export const MAX_HELD_LINE_BYTES = 64 * 1024;

/** A line handed on, with what it adds to the counts of what was shown. */
interface Delivery {
  readonly stream: Stream;
  readonly text: string;
  readonly counts: ShownCount[];
  readonly at: number;
}

export class LogMessageReader {
  private readonly streams = new Map<Stream, StreamState>();
  private readonly newlines = new NewlineScanner();
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
  /** The second of the last stamp parsed, by its text up to the seconds and its zone: most stamps share it. */
  private secondStamp: string | undefined;
  private secondValue = 0;

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
      this.resetMessage(state);
      this.dropLine(state);
      state.skip = this.newestSecond === undefined ? 0 : state.shownInNewestSecond;
    }
  }

  /** Hands on the lines still deferred and the unfinished lines `end` held back. */
  releaseHeld(): void {
    this.releaseDeferred(Number.POSITIVE_INFINITY);
    for (const [stream, state] of this.streams) if (state.line.length > 0) this.emitLine(stream, state);
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
      const { stream, text, counts } = this.deferred.shift() as Delivery;
      for (const count of counts) this.countShown(count.state, count.stamp, count.bytes, count.wholes);
      if (text !== '') this.output(stream, text, counts[0]?.stamp);
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
  private deliver(stream: Stream, text: string, counts: Delivery['counts']): void {
    if (this.deferMs === undefined && this.deferred.length === 0) {
      for (const count of counts) this.countShown(count.state, count.stamp, count.bytes, count.wholes);
      if (text !== '') this.output(stream, text, counts[0]?.stamp);
      return;
    }
    this.deferred.push({ stream, text, counts, at: Date.now() });
    if (this.deferMs === undefined) this.releaseDeferred(Number.POSITIVE_INFINITY);
    else this.armDeferTimer();
  }

  /** `framed`: the chunks say where each frame ends (non-TTY output). */
  push(chunk: OutputChunk, framed: boolean): void {
    const state = this.state(chunk.stream);
    let data = chunk.data;
    if (state.carry) {
      data = Buffer.concat([state.carry, data]);
      state.carry = undefined;
    }
    let offset = 0;
    while (offset < data.length) {
      if (state.atStart) offset = this.readStamp(state, data, offset);
      else offset = this.readContent(chunk.stream, state, data, offset, framed);
    }
    if (chunk.frameEnd === true) {
      if (state.atStart && state.head !== '') this.startUnstamped(state);
      if (!state.atStart) this.finishMessage(chunk.stream, state, false);
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
    for (const [stream, state] of this.streams) {
      if (!clean) {
        this.resetMessage(state);
        continue;
      }
      if (state.carry) {
        if (state.atStart) state.head += state.carry.toString('latin1');
        else state.message.push(state.carry);
        state.carry = undefined;
      }
      if (state.atStart && state.head !== '') this.startUnstamped(state);
      if (!state.atStart) this.finishMessage(stream, state, false);
      if (state.line.length > 0 && !holdUnfinished) this.emitLine(stream, state);
    }
  }

  private dropLine(state: StreamState): void {
    state.line = [];
    state.lineBytes = 0;
    state.pending = [];
  }

  private state(stream: Stream): StreamState {
    let state = this.streams.get(stream);
    if (!state) {
      state = new StreamState(stream);
      this.streams.set(stream, state);
    }
    return state;
  }

  private resetMessage(state: StreamState): void {
    state.atStart = true;
    state.head = '';
    state.carry = undefined;
    state.message = [];
    state.messageBytes = 0;
    state.spilled = false;
  }

  /** Reads the stamp at the start of a message; resolves the offset after it. */
  private readStamp(state: StreamState, data: Buffer, offset: number): number {
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
    const candidate = state.head + data.toString('latin1', offset, space);
    if (!STAMP.test(candidate)) {
      this.startUnstamped(state);
      return offset;
    }
    state.head = '';
    this.startMessage(state, candidate);
    return space + 1;
  }

  /** An engine that stamps nothing (or bytes that are no stamp): what was taken for a stamp is content. */
  private startUnstamped(state: StreamState): void {
    const taken = state.head;
    state.head = '';
    this.startMessage(state, undefined);
    if (taken !== '') this.take(state, Buffer.from(taken, 'latin1'));
  }

  private startMessage(state: StreamState, stamp: string | undefined): void {
    state.atStart = false;
    state.spilled = false;
    state.stamp = stamp;
    state.message = [];
    state.messageBytes = 0;
    if (state.skip > 0 && stamp !== undefined && this.newest !== undefined && compareStamps(stamp, this.newest) > 0) {
      for (const each of this.streams.values()) each.skip = 0;
    }
  }

  /** Content of the current message, less what is left of the replay to drop. */
  private take(state: StreamState, content: Buffer): void {
    let part = content;
    if (state.skip > 0) {
      const dropped = Math.min(state.skip, part.length);
      state.skip -= dropped;
      part = part.subarray(dropped);
    }
    if (part.length === 0) return;
    state.message.push(part);
    state.messageBytes += part.length;
    // One huge message (a non-TTY frame of any size) is not held whole: its part so far joins the line and goes.
    if (state.lineBytes + state.messageBytes >= MAX_HELD_LINE_BYTES) this.spillMessage(state);
  }

  /** Moves the current message's content so far into the line (the message goes on) and hands the line on. */
  private spillMessage(state: StreamState): void {
    state.pending.push({ stamp: state.stamp, bytes: state.messageBytes, ends: false });
    for (const part of state.message) state.line.push(part);
    state.lineBytes += state.messageBytes;
    state.message = [];
    state.messageBytes = 0;
    state.spilled = true;
    this.emitHeldLine(state.streamName, state);
  }

  /** Content up to the end of the message, the line, or the chunk; resolves the offset after it. */
  private readContent(stream: Stream, state: StreamState, data: Buffer, offset: number, framed: boolean): number {
    const newline = this.newlines.next(data, offset);
    const end = newline === -1 ? data.length : newline + 1;
    if (!framed && state.stamp !== undefined) {
      const next = this.findNextStamp(state, data, offset, end);
      if (next !== undefined) {
        if (next.at > offset) this.take(state, data.subarray(offset, next.at));
        if (next.stamp === undefined) {
          // A possible stamp cut by the end of the chunk: look again with the next chunk.
          state.carry = Buffer.from(data.subarray(next.at));
          return data.length;
        }
        this.finishMessage(stream, state, false);
        this.startMessage(state, next.stamp);
        return next.at + next.stamp.length + 1;
      }
    }
    if (end > offset) this.take(state, data.subarray(offset, end));
    if (newline !== -1) this.finishMessage(stream, state, true);
    return end;
  }

  /**
   * TTY: where the next message's stamp begins inside [from, to), if there is one; `stamp` is undefined when the
   * chunk ends inside what may be one. Scans each byte once: it looks for the stamp's year, which every stamp of
   * the engine's shape starts with.
   */
  private findNextStamp(state: StreamState, data: Buffer, from: number, to: number): { at: number; stamp?: string } | undefined {
    const current = state.stamp ?? '';
    const year = current.slice(0, 5);
    const length = current.length + 1;
    for (let at = data.indexOf(year, from, 'latin1'); at !== -1 && at < to; at = data.indexOf(year, at + 1, 'latin1')) {
      if (at + length > data.length) return to === data.length ? { at } : undefined;
      if (at + length > to || data[at + length - 1] !== SPACE) continue;
      const candidate = data.toString('latin1', at, at + length - 1);
      if (zoneOf(candidate) === zoneOf(current) && STAMP.test(candidate) && compareStamps(candidate, current) >= 0) return { at, stamp: candidate };
    }
    if (to !== data.length) return undefined;
    // The chunk may end in the first bytes of the year.
    for (let size = Math.min(year.length - 1, to - from); size > 0; size--) {
      if (data.toString('latin1', to - size, to) === year.slice(0, size)) return { at: to - size };
    }
    return undefined;
  }

  private finishMessage(stream: Stream, state: StreamState, endsLine: boolean): void {
    state.atStart = true;
    // A spilled message that ended with its spill still ends here: a part of no bytes counts it as whole.
    if (state.messageBytes > 0 || state.spilled) {
      state.pending.push({ stamp: state.stamp, bytes: state.messageBytes, ends: true });
      for (const part of state.message) state.line.push(part);
      state.lineBytes += state.messageBytes;
    }
    state.message = [];
    state.messageBytes = 0;
    if (endsLine && state.line.length > 0) this.emitLine(stream, state);
    else if (state.lineBytes >= MAX_HELD_LINE_BYTES) this.emitHeldLine(stream, state);
  }

  /** Hands on a long unfinished line up to its last whole UTF-8 character; the rest stays for what follows. */
  private emitHeldLine(stream: Stream, state: StreamState): void {
    const held = Buffer.concat(state.line);
    let cut = held.length;
    // Back over continuation bytes (10xxxxxx) to the lead byte of the last character; keep it if it is incomplete.
    let lead = cut - 1;
    while (lead > 0 && lead > cut - 4 && ((held[lead] as number) & 0xc0) === 0x80) lead--;
    const first = held[lead] as number;
    const needed = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
    if (cut - lead < needed) cut = lead;
    state.line = cut < held.length ? [held.subarray(cut)] : [];
    state.lineBytes = held.length - cut;
    // The messages handed on count as shown; one cut in two counts its first part now and the rest later.
    const counts: Delivery['counts'] = [];
    let left = cut;
    let done = 0;
    // An index, not shift(): a line of a million one-byte messages costs one pass, not a pass per message.
    while (left > 0 && done < state.pending.length) {
      const first = state.pending[done] as PendingPart;
      const bytes = Math.min(first.bytes, left);
      addCount(counts, state, first.stamp, bytes, bytes === first.bytes && first.ends ? 1 : 0);
      left -= bytes;
      first.bytes -= bytes;
      if (first.bytes === 0) done++;
    }
    if (done > 0) state.pending.splice(0, done);
    if (cut > 0) this.deliver(stream, held.toString('utf8', 0, cut), counts);
  }

  /** BYTES of messages of one second were handed on, the last ones of WHOLES messages. */
  private countShown(state: StreamState, stamp: string | undefined, bytes: number, wholes: number): void {
    this.shownMessages += wholes;
    if (stamp === undefined) {
      state.shownInNewestSecond += bytes;
      return;
    }
    const second = this.secondOf(stamp);
    this.oldestSecond ??= second;
    if (this.newest === undefined || compareStamps(stamp, this.newest) > 0) {
      if (second !== this.newestSecond) for (const each of this.streams.values()) each.shownInNewestSecond = 0;
      this.newest = stamp;
      this.newestSecond = second;
    }
    if (second === this.newestSecond) state.shownInNewestSecond += bytes;
  }

  private secondOf(stamp: string): number {
    if (this.secondStamp !== undefined && sameSecond(stamp, this.secondStamp)) return this.secondValue;
    this.secondStamp = stamp;
    this.secondValue = Math.floor(Date.parse(`${stamp.slice(0, 19)}${zoneOf(stamp)}`) / 1000);
    return this.secondValue;
  }

  private emitLine(stream: Stream, state: StreamState): void {
    const parts = state.line;
    const counts: ShownCount[] = [];
    for (const message of state.pending) addCount(counts, state, message.stamp, message.bytes, message.ends ? 1 : 0);
    state.pending = [];
    state.line = [];
    state.lineBytes = 0;
    const text = parts.length === 1 ? (parts[0] as Buffer).toString('utf8') : Buffer.concat(parts).toString('utf8');
    this.deliver(stream, text, counts);
  }
}
