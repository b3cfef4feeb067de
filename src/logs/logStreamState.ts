/**
 * The engine's log stamps, the per-stream state of the log reader (logMessages.ts) and how it counts what it showed.
 * No `vscode` here.
 */
import type { OutputChunk } from '../engine';

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
  /** The current message: its stamp and its content so far (replayed bytes left out). */
  stamp: string | undefined;
  message: Buffer[] = [];
  messageBytes = 0;
  /** Part of the current message already went with the line (spillMessage). */
  spilled = false;
  /** Replayed bytes still to drop after a resume. */
  skip = 0;
  /** Content bytes shown in the newest second. */
  shownInNewestSecond = 0;
  /** Content of the finished messages of the unfinished line, and its size. */
  line: Buffer[] = [];
  lineBytes = 0;
  /**
   * The stamps and sizes of the line's messages (or parts of one) not handed on yet: they count as shown once handed
   * on; `ends`: the part is the last of its message.
   */
  pending: PendingPart[] = [];
}

export interface PendingPart {
  readonly stamp: string | undefined;
  bytes: number;
  readonly ends: boolean;
}

/** Bytes of messages of one second (the newest stamp among them) and how many of those messages ended. */
export interface ShownCount {
  readonly state: StreamState;
  stamp: string | undefined;
  bytes: number;
  wholes: number;
}

/**
 * Adds to the counts of a delivery, merged into the last one while the second stays the same: a line of a million
 * one-byte messages counts once per second of stamps, not once per message. Counting a same-second run at once with
 * its newest stamp leaves the newest stamp and the bytes of its second as counting each would.
 */
export function addCount(counts: ShownCount[], state: StreamState, stamp: string | undefined, bytes: number, wholes: number): void {
  const last = counts[counts.length - 1];
  if (last && last.state === state && (stamp === undefined ? last.stamp === undefined : last.stamp !== undefined && sameSecond(stamp, last.stamp))) {
    if (stamp !== undefined && stamp > (last.stamp as string)) last.stamp = stamp;
    last.bytes += bytes;
    last.wholes += wholes;
    return;
  }
  counts.push({ state, stamp, bytes, wholes });
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
