/**
 * The per-stream state of the log reader (logMessages.ts) and how it counts what it showed. No `vscode` here.
 */
import type { OutputChunk } from '../engine';
import { MAX_LINE_BYTES } from '../engine/connection';
import { sameSecond, type StampFinder } from './logStamps';

/** A line's buffer starts this small and doubles up to the line bound. */
const FIRST_BUFFER_BYTES = 1024;
/** Up to this many bytes, a copy or a search reads the bytes itself: cheaper than a native call for tiny messages. */
const SMALL_BYTES = 32;
/** A TTY message this short, behind a repeated stamp, is read in the loop of a run; a longer one by a native search. */
export const REPEAT_BYTES = 16;
const NEWLINE = 0x0a;
/** The most messages of such a run found at once: a 64 KiB read of 1-byte messages is one or two runs. */
export const REPEAT_RUN = 4096;

type Stream = OutputChunk['stream'];

export class StreamState {
  constructor(readonly streamName: Stream) {}
  /** Between messages: the next bytes are a stamp (or, from an engine that stamps nothing, content). */
  atStart = true;
  /** Bytes of a stamp split across chunks. */
  head = '';
  /** TTY: the last bytes of a chunk that may begin a stamp, put in front of the next chunk. */
  carry: Buffer | undefined;
  /** The current message: its stamp and how many of its content bytes came so far (replayed bytes left out). */
  stamp: string | undefined;
  messageBytes = 0;
  /** Part of the current message was already counted with a cut line (it still ends as a whole message). */
  spilled = false;
  /** Replayed bytes still to drop after a resume. */
  skip = 0;
  /** Content bytes shown in the newest second. */
  shownInNewestSecond = 0;
  /**
   * The unfinished line's bytes, then the current message's: `lineBytes` of them belong to finished messages, `kept`
   * in all. One buffer that grows by doubling up to the line bound, so a line of a million tiny messages is a copy per
   * message, not an object per message.
   */
  buffer: Buffer | undefined;
  kept = 0;
  lineBytes = 0;
  /** The line passed the bound and was shown cut: its further bytes are counted and dropped until it ends. */
  cutting = false;
  /**
   * The stamps and sizes of the line's messages not counted as shown yet, a run of one second merged into one part:
   * they count as shown once the line is handed on.
   */
  pending: PendingPart[] = [];

  /** The message in progress is dropped: the next bytes are a stamp again, and the line keeps its finished messages. */
  resetMessage(): void {
    this.atStart = true;
    this.head = '';
    this.carry = undefined;
    this.kept = this.lineBytes;
    this.messageBytes = 0;
    this.spilled = false;
  }

  /**
   * A whole frame's payload data[start, end), one message, taken in one step when it is the common case: behind the
   * stamp of the message before, no newline, no replay to drop, and the line within its bound or cut already (then
   * its bytes are only counted). Resolves false (having changed nothing) for the general path otherwise.
   */
  takeWholeMessage(stamps: StampFinder, newlines: NewlineScanner, data: Buffer, start: number, end: number): boolean {
    const stamp = this.stamp;
    if (stamp === undefined || !this.atStart || this.head !== '' || this.skip > 0) return false;
    const from = start + stamp.length + 1;
    if (from > end || !stamps.holdsSpaced(stamp, data, start)) return false;
    if (end - from <= SMALL_BYTES) {
      for (let at = from; at < end; at++) if (data[at] === NEWLINE) return false;
    } else {
      const newline = newlines.next(data, from);
      if (newline !== -1 && newline < end) return false;
    }
    if (!this.cutting) {
      if (this.kept + (end - from) > MAX_LINE_BYTES) return false;
      this.keep(data, from, end);
    }
    // As the general path would: the message starts, its content is kept (or counted), and it ends with its frame.
    if (end > from) {
      const last = this.pending[this.pending.length - 1];
      if (last !== undefined && last.stamp === stamp) {
        last.bytes += end - from;
        last.wholes++;
      } else {
        this.addPending(stamp, end - from, 1);
      }
    }
    this.lineBytes = this.kept;
    return true;
  }

  /** Copies data[start, end) after the bytes kept (the caller keeps the line within MAX_LINE_BYTES). */
  keep(data: Buffer, start: number, end: number): void {
    if (end <= start) return;
    const needed = this.kept + (end - start);
    if (!this.buffer || this.buffer.length < needed) {
      let size = Math.max(FIRST_BUFFER_BYTES, this.buffer?.length ?? 0);
      while (size < needed) size *= 2;
      const grown = Buffer.allocUnsafe(Math.min(size, MAX_LINE_BYTES));
      if (this.buffer) this.buffer.copy(grown, 0, 0, this.kept);
      this.buffer = grown;
    }
    if (end - start <= SMALL_BYTES) {
      const buffer = this.buffer;
      let to = this.kept;
      for (let at = start; at < end; at++) buffer[to++] = data[at] as number;
    } else {
      data.copy(this.buffer, this.kept, start, end);
    }
    this.kept = needed;
  }

  /**
   * TTY: a run of short messages each behind the current stamp again, found in one loop and counted as one part, as
   * message after message would be (a flood of tiny messages then costs no call per message). The run stops, leaving
   * the rest to the general path, at a byte that may begin another stamp, a long message, the end of data[.., end), a
   * replay to drop, or a line at its bound. ENDS is room for the run's message ends. Resolves the offset of the
   * message in progress.
   */
  readRepeats(stamps: StampFinder, ends: Int32Array, data: Buffer, offset: number, end: number): number {
    if (this.skip > 0) return offset;
    const stamp = this.stamp as string;
    const found = stamps.repeats(stamp, data, offset, end, REPEAT_BYTES, ends);
    if (found === 0) return offset;
    const skipped = stamp.length + 1;
    let start = offset;
    let bytes = this.messageBytes;
    let wholes = 0;
    if (this.cutting) {
      // A cut line's bytes are only counted: the run's content is its span less its stamps. The message in progress
      // counts as whole with bytes before the run, or with a part counted with the cut line (spilled).
      const last = ends[found - 1] as number;
      const firstEmptyCounts = ends[0] === offset && (bytes > 0 || this.spilled);
      wholes = found - stamps.emptyInRun + (firstEmptyCounts ? 1 : 0);
      bytes += last - offset - (found - 1) * skipped;
      start = last + skipped;
    } else {
      let spilled = this.spilled;
      for (let index = 0; index < found; index++) {
        const at = ends[index] as number;
        const size = at - start;
        // The line's bytes are copied while it stays within the bound; past it, the general path cuts the line.
        if (this.kept + size > MAX_LINE_BYTES) break;
        this.keep(data, start, at);
        if (size > 0 || spilled || (index === 0 && bytes > 0)) wholes++;
        bytes += size;
        spilled = false;
        start = at + skipped;
      }
    }
    if (start === offset) return offset;
    if (wholes > 0) this.addPending(stamp, bytes, wholes);
    this.messageBytes = 0;
    this.spilled = false;
    this.lineBytes = this.kept;
    return start;
  }

  /** Adds a message (or a part of one) to the line's parts, merged into the last part while the second stays. */
  addPending(stamp: string | undefined, bytes: number, wholes: number): void {
    const last = this.pending[this.pending.length - 1];
    // Merging a same-second run at once with its newest stamp leaves the newest stamp and the bytes of its second as
    // counting each message would.
    if (last && (stamp === last.stamp || (stamp !== undefined && last.stamp !== undefined && sameSecond(stamp, last.stamp)))) {
      if (stamp !== undefined && stamp > (last.stamp as string)) last.stamp = stamp;
      last.bytes += bytes;
      last.wholes += wholes;
      return;
    }
    this.pending.push({ stamp, bytes, wholes });
  }

  /** A buffer grown for one long line goes with it once empty; a small one is reused. */
  releaseLongBuffer(): void {
    if (this.kept === 0 && this.buffer && this.buffer.length > FIRST_BUFFER_BYTES * 4) this.buffer = undefined;
  }
}

export interface PendingPart {
  stamp: string | undefined;
  bytes: number;
  wholes: number;
}

/**
 * The first newline at or after an offset of a chunk. A TTY chunk holds many messages and may hold no newline: the
 * last search is kept, so a chunk is scanned once, not once per message in it.
 */
export class NewlineScanner {
  private scanned: Buffer | undefined;
  private scannedFrom = 0;
  private scannedAt = -1;

  next(data: Buffer, offset: number): number {
    if (data.length - offset <= SMALL_BYTES) {
      for (let at = offset; at < data.length; at++) if (data[at] === 0x0a) return at;
      return -1;
    }
    if (data !== this.scanned || offset < this.scannedFrom || (this.scannedAt !== -1 && this.scannedAt < offset)) {
      this.scanned = data;
      this.scannedFrom = offset;
      this.scannedAt = data.indexOf(0x0a, offset);
    }
    return this.scannedAt;
  }
}
