/**
 * The engine's log stamps and the per-stream state of the log reader (logMessages.ts). No `vscode` here.
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
