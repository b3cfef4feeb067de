/**
 * The engine's log stamps (`timestamps=1`): their shape, their order, and finding them in the bytes of a TTY stream.
 * No `vscode` here.
 */

/** `2006-01-02T15:04:05.999999999+07:00`: the longest stamp an engine writes. */
export const MAX_STAMP_LENGTH = 35;
export const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:\d\d)$/;

const SPACE = 0x20;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
/** What each of a stamp's first 19 bytes must be: 0 a digit, else that very byte (`2006-01-02T15:04:05`). */
const STAMP_HEAD = [0, 0, 0, 0, 0x2d, 0, 0, 0x2d, 0, 0, 0x54, 0, 0, 0x3a, 0, 0, 0x3a, 0, 0];
/** 8-byte words compared per stamp: enough to cover the longest. */
const WORDS = Math.ceil(MAX_STAMP_LENGTH / 8);
/** A next stamp this close is found by reading the bytes; past it, a native search pays for its call. */
const NEAR_BYTES = 16;

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

/** Same length, same text up to the seconds, same zone: then the stamps also compare as text. No allocation. */
export function sameSecond(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < 19; index++) if (a.charCodeAt(index) !== b.charCodeAt(index)) return false;
  const zone = a.endsWith('Z') ? 1 : 6;
  for (let index = a.length - zone; index < a.length; index++) if (a.charCodeAt(index) !== b.charCodeAt(index)) return false;
  return true;
}

/** Whole Unix seconds of stamps, parsed once per second: most stamps share the second of the one before. */
export class StampSeconds {
  private stamp: string | undefined;
  private value = 0;

  of(stamp: string): number {
    if (this.stamp !== undefined && sameSecond(stamp, this.stamp)) return this.value;
    this.stamp = stamp;
    this.value = stampSeconds(stamp);
    return this.value;
  }
}

/** The bytes of the last stamp compared with: a stamp repeats in message after message, its bytes are read once. */
const stampBytes = new Uint8Array(MAX_STAMP_LENGTH);
let stampBytesOf: string | undefined;

function bytesOf(stamp: string): Uint8Array {
  if (stamp !== stampBytesOf) {
    for (let index = 0; index < stamp.length; index++) stampBytes[index] = stamp.charCodeAt(index);
    stampBytesOf = stamp;
  }
  return stampBytes;
}

/** How many of the first bytes at data[start] are STAMP's (the caller keeps the stamp's length inside data). */
function sameBytes(stamp: string, data: Buffer, start: number): number {
  const bytes = bytesOf(stamp);
  const length = stamp.length;
  let same = 0;
  while (same < length && bytes[same] === data[start + same]) same++;
  return same;
}

function isDigit(byte: number): boolean {
  return byte >= DIGIT_0 && byte <= DIGIT_9;
}

/**
 * The stamp that data[start, end) holds, or undefined when it holds none: the check STAMP makes, on the bytes, so a
 * flood of tiny messages costs no regular expression and, while the stamps repeat, no string (REFERENCE is handed back
 * when the bytes are its own). The caller keeps [start, end) inside data.
 */
export function stampOfBytes(data: Buffer, start: number, end: number, reference: string | undefined): string | undefined {
  const length = end - start;
  if (length < 20 || length > MAX_STAMP_LENGTH) return undefined;
  if (reference !== undefined && reference.length === length) {
    // Most stamps repeat the one before up to its last digits: the bytes that match it are a stamp's already, and a
    // rest of the reference's very shape makes one too (the shape of the rest decides only when it differs).
    const same = end <= data.length ? sameBytes(reference, data, start) : 0;
    if (same === length) return reference;
    if (same >= 19 && sameShapeFrom(reference, data, start, same)) return data.toString('latin1', start, end);
  }
  for (let index = 0; index < STAMP_HEAD.length; index++) {
    const want = STAMP_HEAD[index] as number;
    const byte = data[start + index] as number;
    if (want === 0 ? !isDigit(byte) : byte !== want) return undefined;
  }
  let at = start + 19;
  if (data[at] === 0x2e) {
    const digits = at + 1;
    at = digits;
    while (at < end && isDigit(data[at] as number)) at++;
    if (at === digits || at - digits > 9) return undefined;
  }
  if (at >= end) return undefined;
  const zone = data[at] as number;
  if (zone === 0x5a) {
    if (at + 1 !== end) return undefined;
  } else if (zone === 0x2b || zone === 0x2d) {
    if (at + 6 !== end || !isDigit(data[at + 1] as number) || !isDigit(data[at + 2] as number) || data[at + 3] !== 0x3a || !isDigit(data[at + 4] as number) || !isDigit(data[at + 5] as number)) return undefined;
  } else {
    return undefined;
  }
  return data.toString('latin1', start, end);
}

/** Whether data[start + from, start + reference.length) has a digit where the reference has one and its other bytes. */
function sameShapeFrom(reference: string, data: Buffer, start: number, from: number): boolean {
  for (let index = from; index < reference.length; index++) {
    const want = reference.charCodeAt(index);
    const byte = data[start + index] as number;
    if (isDigit(want) ? !isDigit(byte) : byte !== want) return false;
  }
  return true;
}

/**
 * TTY: finds where the next message's stamp begins. Such a stamp has the current one's year, length and zone and is
 * not older; `found` is it, or undefined when the chunk ends inside what may be one.
 */
export class StampFinder {
  found: string | undefined;
  /** The stamp last searched after, and its year (as bytes, made once per year). */
  private searchedFor: string | undefined;
  private yearOf = '\0';
  private year = Buffer.alloc(0);
  /**
   * The stamp searched after as 8-byte words read as doubles (at 0, 8, … and its last 8 bytes), and the chunk seen
   * through a DataView to read them. A stamp's bytes are printable ASCII, so none of its words is a NaN, an infinity
   * or a zero: such a double equals only the very same 8 bytes, and a compare of doubles is a compare of bytes.
   */
  private readonly words = new Float64Array(WORDS);
  private readonly wordAt = new Uint8Array(WORDS);
  /**
   * The same for the stamp and the space after it, as a run of repeats compares them: four words for a stamp of up to
   * 31 bytes (nanoseconds in UTC), five for a longer one.
   */
  private readonly runWords = new Float64Array(WORDS);
  private readonly runWordAt = new Uint8Array(WORDS);
  private runFive = false;
  /** Messages of no content in the last run `repeats` found. */
  emptyInRun = 0;
  private viewOf: ArrayBufferLike | undefined;
  private viewData: Buffer | undefined;
  private viewBase = 0;
  private view: DataView | undefined;

  private searchAfter(current: string): void {
    this.searchedFor = current;
    const bytes = Buffer.from(current, 'latin1');
    let count = 0;
    for (let at = 0; at + 8 < bytes.length; at += 8) this.wordAt[count++] = at;
    this.wordAt[count++] = bytes.length - 8;
    // A shorter stamp compares its last word again: every compare reads WORDS words, in a loop without branches.
    for (; count < WORDS; count++) this.wordAt[count] = bytes.length - 8;
    for (let word = 0; word < WORDS; word++) this.words[word] = bytes.readDoubleLE(this.wordAt[word]);
    const spaced = Buffer.from(`${current} `, 'latin1');
    this.runFive = spaced.length > 32;
    for (let word = 0; word < WORDS; word++) {
      this.runWordAt[word] = Math.min(word * 8, spaced.length - 8);
      this.runWords[word] = spaced.readDoubleLE(this.runWordAt[word]);
    }
    if (!current.startsWith(this.yearOf)) {
      this.yearOf = current.slice(0, 5);
      this.year = Buffer.from(this.yearOf, 'latin1');
    }
  }

  /** stampOfBytes, as a method: a call into another module costs a property read per message in an unbundled run. */
  read(data: Buffer, start: number, end: number, reference: string | undefined): string | undefined {
    return stampOfBytes(data, start, end, reference);
  }

  /**
   * Where the next message's stamp begins inside data[from, to), or -1. Each byte is read once: a stamp starts with
   * its year, and tiny messages put it a few bytes on, where reading beats a native search's call.
   */
  next(current: string, data: Buffer, from: number, to: number): number {
    this.found = undefined;
    if (current !== this.searchedFor) this.searchAfter(current);
    const first = this.year[0] as number;
    const length = current.length + 1;
    let at = from;
    while (at < to) {
      const near = Math.min(to, at + NEAR_BYTES);
      while (at < near && data[at] !== first) at++;
      if (at === near) {
        if (at === to) break;
        const found = data.indexOf(this.year, at);
        if (found === -1) {
          // Only a year cut by the end of the chunk is left to look for.
          at = Math.max(at, to - (this.year.length - 1));
          continue;
        }
        if (found >= to) return -1;
        at = found;
      }
      if (at + length <= to) {
        // Mostly the stamp before again: a compare of its words finds it, and a mismatch in the year ends the look.
        if (data[at + length - 1] === SPACE && this.holds(current, data, at)) {
          this.found = current;
          return at;
        }
        const same = sameBytes(current, data, at);
        if (same === length - 1 && data[at + same] === SPACE) {
          this.found = current;
          return at;
        }
        if (same < this.year.length) {
          at++;
          continue;
        }
      }
      const year = this.yearAt(data, at);
      if (year === 'cut') {
        if (to === data.length) return at;
      } else if (year === 'whole') {
        if (at + length > data.length) return to === data.length ? at : -1;
        if (at + length <= to && data[at + length - 1] === SPACE) {
          const candidate = stampOfBytes(data, at, at + length - 1, current);
          if (candidate !== undefined && (candidate === current || (zoneOf(candidate) === zoneOf(current) && compareStamps(candidate, current) >= 0))) {
            this.found = candidate;
            return at;
          }
        }
      }
      at++;
    }
    return -1;
  }

  /**
   * A run of short messages behind CURRENT repeated, from the content at data[from] on: each message's content ends
   * within `near` bytes where CURRENT and a space follow, inside data[.., to). Writes where each content ends into
   * ENDS (up to its length) and resolves how many it wrote. Stops at the first byte that may begin a stamp and is not
   * CURRENT's repeat, so another stamp (or one cut by the chunk's end) is left to `next`.
   */
  repeats(current: string, data: Buffer, from: number, to: number, near: number, ends: Int32Array): number {
    const view = this.viewFor(current, data);
    const words = this.runWords;
    const w0 = words[0] as number;
    const w1 = words[1] as number;
    const w2 = words[2] as number;
    const w3 = words[3] as number;
    const w4 = words[4] as number;
    const five = this.runFive;
    const base = this.viewBase;
    const at2 = base + (this.runWordAt[2] as number);
    const at3 = base + (this.runWordAt[3] as number);
    const at4 = base + (this.runWordAt[4] as number);
    const first = current.charCodeAt(0);
    const skipped = current.length + 1;
    // The last offset where CURRENT and its space still end inside data[.., to).
    const last = to - skipped;
    let count = 0;
    let empty = 0;
    let start = from;
    while (count < ends.length) {
      const limit = Math.min(last + 1, start + near);
      let at = start;
      while (at < limit && data[at] !== first) at++;
      if (at >= limit) break;
      const word = base + at;
      if (
        view.getFloat64(word, true) !== w0 ||
        view.getFloat64(word + 8, true) !== w1 ||
        view.getFloat64(at2 + at, true) !== w2 ||
        view.getFloat64(at3 + at, true) !== w3 ||
        (five && view.getFloat64(at4 + at, true) !== w4)
      ) {
        break;
      }
      if (at === start) empty++;
      ends[count++] = at;
      start = at + skipped;
    }
    this.emptyInRun = empty;
    return count;
  }

  /** The view of data's memory, and CURRENT's words, ready for compares. */
  private viewFor(current: string, data: Buffer): DataView {
    if (current !== this.searchedFor) this.searchAfter(current);
    if (data !== this.viewData) {
      this.viewData = data;
      this.viewBase = data.byteOffset;
      if (data.buffer !== this.viewOf) {
        this.viewOf = data.buffer;
        this.view = new DataView(data.buffer);
      }
    }
    return this.view as DataView;
  }

  /**
   * Whether data[at] holds CURRENT, read eight bytes at a time (the caller keeps it inside data). The view covers the
   * memory the chunk lies in, so the messages of one network read, each a part of it, share one view.
   */
  holds(current: string, data: Buffer, at: number): boolean {
    const view = this.viewFor(current, data);
    const words = this.words;
    const wordAt = this.wordAt;
    const start = this.viewBase + at;
    for (let word = 0; word < WORDS; word++) if (view.getFloat64(start + (wordAt[word] as number), true) !== words[word]) return false;
    return true;
  }

  /**
   * Whether data[at] holds CURRENT and a space, as a run of repeats compares them (the caller keeps both inside data):
   * one compare per frame of a flood of tiny frames.
   */
  holdsSpaced(current: string, data: Buffer, at: number): boolean {
    const view = this.viewFor(current, data);
    const words = this.runWords;
    const wordAt = this.runWordAt;
    const start = this.viewBase + at;
    return (
      view.getFloat64(start, true) === words[0] &&
      view.getFloat64(start + 8, true) === words[1] &&
      view.getFloat64(start + (wordAt[2] as number), true) === words[2] &&
      view.getFloat64(start + (wordAt[3] as number), true) === words[3] &&
      (!this.runFive || view.getFloat64(start + (wordAt[4] as number), true) === words[4])
    );
  }

  /** Whether the year stands at data[at] whole, cut by the chunk's end, or not at all. */
  private yearAt(data: Buffer, at: number): 'whole' | 'cut' | 'none' {
    const year = this.year;
    const available = Math.min(year.length, data.length - at);
    for (let index = 1; index < available; index++) if (data[at + index] !== year[index]) return 'none';
    return available === year.length ? 'whole' : 'cut';
  }
}
