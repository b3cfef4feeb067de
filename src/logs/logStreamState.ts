/**
 * The engine's log stamps, the per-stream state of the log reader (logMessages.ts) and how it counts what it showed.
 * No `vscode` here.
 */
import type { OutputChunk } from '../engine';
import { MAX_LINE_BYTES } from '../engine/boundedLine';

/** A line's buffer starts this small and doubles up to the line bound. */
const FIRST_BUFFER_BYTES = 1024;

type Stream = OutputChunk['stream'];

/** `2006-01-02T15:04:05.999999999+07:00`: the longest stamp an engine writes. */
export const MAX_STAMP_LENGTH = 35;
export const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:\d\d)$/;

export function zoneOf(stamp: string): string {
  return stamp.endsWith('Z') ? 'Z' : stamp.slice(-6);
}

/** Stamps of one shape compare as text (fixed width, one zone); other pairs by their instant. */
export function compareStamps(a: string, b: string): number {
  if (a.length === b.length && zoneOf(a) === zoneOf(b)) return a < b ? -1 : a > b ? 1 : 0;
  const difference = stampSeconds(a) - stampSeconds(b);
  if (difference !== 0) return Math.sign(difference);
  const fraction = (stamp: string): number => Number(`0${/\.\d+/.exec(stamp)?.[0] ?? ''}`);
  return Math.sign(fraction(a) - fraction(b));
}

/** Whole Unix seconds of a stamp. */
export function stampSeconds(stamp: string): number {
  return Math.floor(Date.parse(`${stamp.slice(0, 19)}${zoneOf(stamp)}`) / 1000);
}

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
    data.copy(this.buffer, this.kept, start, end);
    this.kept = needed;
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

/** Adds a message (or a part of one) to the parts of a line, merged into the last part while the second stays. */
export function addPending(pending: PendingPart[], stamp: string | undefined, bytes: number, wholes: number): void {
  const last = pending[pending.length - 1];
  // Merging a same-second run at once with its newest stamp leaves the newest stamp and the bytes of its second as
  // counting each message would.
  if (last && (stamp === last.stamp || (stamp !== undefined && last.stamp !== undefined && sameSecond(stamp, last.stamp)))) {
    if (stamp !== undefined && stamp > (last.stamp as string)) last.stamp = stamp;
    last.bytes += bytes;
    last.wholes += wholes;
    return;
  }
  pending.push({ stamp, bytes, wholes });
}

/** Same length, same text up to the seconds, same zone: then the stamps also compare as text. No allocation. */
export function sameSecond(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < 19; index++) if (a.charCodeAt(index) !== b.charCodeAt(index)) return false;
  const zone = a.endsWith('Z') ? 1 : 6;
  for (let index = a.length - zone; index < a.length; index++) if (a.charCodeAt(index) !== b.charCodeAt(index)) return false;
  return true;
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
    if (data !== this.scanned || offset < this.scannedFrom || (this.scannedAt !== -1 && this.scannedAt < offset)) {
      this.scanned = data;
      this.scannedFrom = offset;
      this.scannedAt = data.indexOf(0x0a, offset);
    }
    return this.scannedAt;
  }
}

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
/** What each of a stamp's first 19 bytes must be: 0 a digit, else that very byte (`2006-01-02T15:04:05`). */
const STAMP_HEAD = [0, 0, 0, 0, 0x2d, 0, 0, 0x2d, 0, 0, 0x54, 0, 0, 0x3a, 0, 0, 0x3a, 0, 0];

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= DIGIT_0 && byte <= DIGIT_9;
}

/**
 * The stamp that data[start, end) holds, or undefined when it holds none: the check STAMP makes, on the bytes, so a
 * flood of tiny messages costs no regular expression and, while the stamps repeat, no string (REFERENCE is handed back
 * when the bytes are its own).
 */
export function stampOfBytes(data: Buffer, start: number, end: number, reference: string | undefined): string | undefined {
  const length = end - start;
  if (length < 20 || length > MAX_STAMP_LENGTH) return undefined;
  for (let index = 0; index < STAMP_HEAD.length; index++) {
    const want = STAMP_HEAD[index] as number;
    const byte = data[start + index];
    if (want === 0 ? !isDigit(byte) : byte !== want) return undefined;
  }
  let at = start + 19;
  if (data[at] === 0x2e) {
    const digits = at + 1;
    at = digits;
    while (at < end && isDigit(data[at])) at++;
    if (at === digits || at - digits > 9) return undefined;
  }
  const zone = data[at];
  if (zone === 0x5a) {
    if (at + 1 !== end) return undefined;
  } else if (zone === 0x2b || zone === 0x2d) {
    if (at + 6 !== end || !isDigit(data[at + 1]) || !isDigit(data[at + 2]) || data[at + 3] !== 0x3a || !isDigit(data[at + 4]) || !isDigit(data[at + 5])) return undefined;
  } else {
    return undefined;
  }
  if (reference !== undefined && reference.length === length) {
    let same = true;
    for (let index = length - 1; index >= 0 && same; index--) same = reference.charCodeAt(index) === data[start + index];
    if (same) return reference;
  }
  return data.toString('latin1', start, end);
}
