/**
 * The one bound of the text line splitters (compose logs; docs/security.md "Line splitters"): a container decides
 * how long its lines are, so a line is kept up to MAX_LINE_BYTES and shown cut there, with LINE_CUT_MARKER; the rest
 * of it is read and dropped, never held. Plain Node.
 */

/** The longest line kept whole; a terminal or document line this long is already unreadable. */
export const MAX_LINE_BYTES = 64 * 1024;

/** Appended to a line that was cut, so nobody takes the cut line for the whole one. */
export const LINE_CUT_MARKER = ' [… line cut by Berth: longer than 64 KiB]';

const NEWLINE = 0x0a;
const FIRST_SIZE = 1024;

/**
 * The bytes of one line (or one engine message) gathered across chunks, up to `max` bytes, copied into one buffer that
 * grows by doubling: linear in the bytes given, and it keeps no network chunk alive.
 */
export class BoundedLine {
  private buffer: Buffer | undefined;
  private kept = 0;
  private dropped = false;
  private lastByte = -1;

  constructor(private readonly max: number = MAX_LINE_BYTES) {}

  /** Bytes gathered (kept) so far. */
  get length(): number {
    return this.kept;
  }

  /** Whether anything was given since the last take, kept or not. */
  get started(): boolean {
    return this.lastByte !== -1;
  }

  /** Adds data[start, end); what does not fit is dropped and the line marked cut. */
  add(data: Buffer, start = 0, end = data.length): void {
    if (end <= start) return;
    this.lastByte = data[end - 1] as number;
    const room = this.max - this.kept;
    let stop = end;
    if (stop - start > room) {
      this.dropped = true;
      stop = start + room;
    }
    if (stop <= start) return;
    const needed = this.kept + (stop - start);
    if (!this.buffer || this.buffer.length < needed) {
      let size = Math.max(FIRST_SIZE, this.buffer?.length ?? 0);
      while (size < needed) size *= 2;
      const grown = Buffer.allocUnsafe(Math.min(size, this.max));
      if (this.buffer) this.buffer.copy(grown, 0, 0, this.kept);
      this.buffer = grown;
    }
    data.copy(this.buffer, this.kept, start, stop);
    this.kept = needed;
  }

  /** Drops what was gathered without decoding it (the line was cut already); whether it ended the line. */
  discard(): boolean {
    const endsLine = this.lastByte === NEWLINE;
    this.reset();
    return endsLine;
  }

  /**
   * The line's text and how it ended, then starts afresh: `cut` when bytes were dropped (the text then ends at the last
   * whole UTF-8 character kept), `endsLine` when the last byte given was a newline (kept or dropped).
   */
  take(): { text: string; cut: boolean; endsLine: boolean } {
    let end = this.kept;
    if (this.dropped && this.buffer) end = utf8Boundary(this.buffer, end);
    const text = this.buffer ? this.buffer.toString('utf8', 0, end) : '';
    const result = { text, cut: this.dropped, endsLine: this.lastByte === NEWLINE };
    this.reset();
    return result;
  }

  private reset(): void {
    this.kept = 0;
    this.dropped = false;
    this.lastByte = -1;
    // A buffer grown for one long line goes with it; small ones are reused.
    if (this.buffer && this.buffer.length > FIRST_SIZE * 4) this.buffer = undefined;
  }
}

/** `end`, moved back before a UTF-8 character that the cut at `end` left incomplete. */
export function utf8Boundary(bytes: Buffer, end: number): number {
  let lead = end - 1;
  while (lead > 0 && lead > end - 4 && ((bytes[lead] as number) & 0xc0) === 0x80) lead--;
  if (lead < 0) return end;
  const first = bytes[lead] as number;
  const needed = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return end - lead < needed ? lead : end;
}
