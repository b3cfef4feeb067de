/**
 * Build output's JSON lines, with runs of `{"stream":"…"}` lines handed on merged: the one JSON stream whose message
 * sizes a container sets (a RUN step's writes).
 */
import { isAscii } from 'node:buffer';
import { JsonLineDecoder, NEWLINE, textOf } from './decoders';

const MIB = 1024 * 1024;
/** A chunk's stream lines are gathered in a buffer of this size, or of the chunk's; one past MIB is let go after it. */
const MERGE_BUFFER_BYTES = 64 * 1024;
const MAX_KEPT_MERGE_BYTES = MIB;

/**
 * The JSON lines of a build's output. Each `{"stream":"…"}` line carries text the build printed (a RUN step's output
 * comes in the pieces the container wrote it in), to be appended in order: each run of such lines in a chunk is handed
 * on as ONE `{ stream }` value holding their texts joined, not one value per line, so a container printing a byte at
 * a time costs no object and no parse call per byte. The other lines, a stream line that is not exactly
 * `{"stream":"…"}`, and one whose body is longer than BODY_BUDGET bytes (few such lines fit in a chunk: merging them
 * saves little) are decoded as JsonLineDecoder does, in order with the merged ones, as is a line cut across chunks.
 * The text handed on is the same string the lines decoded one by one append, and the other values and the error
 * thrown are theirs. ON_VALUE gets no line text.
 */
export class BuildOutputDecoder<T extends { stream?: string } = { stream?: string }> extends JsonLineDecoder<T> {
  // Allocated as a bigger one would be (an empty Buffer is of another kind): the optimized code reading `out` stays
  // valid when one replaces it.
  private readonly run: StreamRun = { out: Buffer.allocUnsafeSlow(MERGE_BUFFER_BYTES), used: 0, long: false };
  /** The chunk's lines being read, from `linesStart` to `linesEnd`: whether ASCII, and their text once needed. */
  private linesStart = 0;
  private linesEnd = 0;
  private ascii = false;
  private text: string | undefined;

  constructor(onValue: (value: T) => void) {
    super(onValue);
  }

  protected override completeLines(chunk: Buffer, start: number, end: number): void {
    const run = this.run;
    const length = end - start + 2;
    if (run.out.length < length) run.out = Buffer.allocUnsafeSlow(length);
    run.out[0] = QUOTE;
    this.linesStart = start;
    this.linesEnd = end;
    this.ascii = isAscii(chunk);
    this.text = undefined;
    const words = new DataView(chunk.buffer, chunk.byteOffset, chunk.length);
    // The lines from `pending` on are not handed on yet; those before `at` are other lines. After a long line the next
    // is measured before it is read: a stream of long lines is not read byte by byte up to BODY_BUDGET each.
    let pending = start;
    let at = start;
    let afterLong = false;
    for (;;) {
      let lineEnd = -1;
      if (afterLong) {
        lineEnd = this.lineEnd(chunk, at);
        afterLong = lineEnd - at > LONGEST_READ_LINE_BYTES;
      }
      const runEnd = afterLong ? -1 : readStreamRun(chunk, words, at, end, run);
      if (runEnd === -1) {
        if (lineEnd === -1) lineEnd = this.lineEnd(chunk, at);
      } else {
        if (at > pending) this.otherLines(chunk, pending, at - 1);
        this.handOnRun(chunk, at, runEnd);
        pending = runEnd + 1;
        lineEnd = runEnd;
      }
      afterLong ||= run.long;
      if (lineEnd >= end) break;
      at = lineEnd + 1;
    }
    if (pending <= end) this.otherLines(chunk, pending, end);
    this.text = undefined;
    if (run.out.length > MAX_KEPT_MERGE_BYTES) run.out = Buffer.allocUnsafeSlow(MERGE_BUFFER_BYTES);
  }

  /**
   * Where the line at AT ends: its newline, or the end of the lines. In ASCII lines, found in their text (decoded for
   * the other lines anyway): a string search costs less than a Buffer's.
   */
  private lineEnd(chunk: Buffer, at: number): number {
    if (this.ascii) {
      this.text ??= chunk.toString('latin1', this.linesStart, this.linesEnd);
      const newline = this.text.indexOf('\n', at - this.linesStart);
      return newline === -1 ? this.linesEnd : newline + this.linesStart;
    }
    const newline = chunk.indexOf(NEWLINE, at);
    return newline === -1 || newline > this.linesEnd ? this.linesEnd : newline;
  }

  /** The lines from START to END decoded as JsonLineDecoder does. */
  private otherLines(chunk: Buffer, start: number, end: number): void {
    if (this.ascii) {
      this.text ??= chunk.toString('latin1', this.linesStart, this.linesEnd);
      this.parseLines(this.text.slice(start - this.linesStart, end - this.linesStart));
    } else {
      super.completeLines(chunk, start, end);
    }
  }

  /** The run of stream lines from START to END as one value; line by line if its joined bodies are no JSON string. */
  private handOnRun(chunk: Buffer, start: number, end: number): void {
    const run = this.run;
    run.out[run.used++] = QUOTE;
    let text: string;
    try {
      text = JSON.parse(textOf(run.out.subarray(0, run.used), 0, run.used)) as string;
    } catch {
      this.otherLines(chunk, start, end);
      return;
    }
    this.onValue({ stream: text } as T, '');
  }
}

/** A run of stream lines being read: their bodies gathered in `out` after a quote, `used` bytes of it. */
interface StreamRun {
  out: Buffer;
  used: number;
  /** Whether the run ended at a body longer than BODY_BUDGET. */
  long: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSING_BRACE = 0x7d;
const LETTER_U = 0x75;
/** What stands between two stream lines' bodies: a body's end, a newline, and the next line's start. */
const STREAM_SEPARATOR = Buffer.from('"}\n{"stream":"', 'latin1');
/** Bytes 3–13 of the separator: every stream line's start. */
const LINE_START_BYTES = 11;
/** `{"stream":""}`. */
const SHORTEST_LINE_BYTES = LINE_START_BYTES + 2;
/**
 * The separator's bytes 0–7 and 6–13, and a line start's first 8 bytes (the separator's 3–10), read as doubles: 8
 * bytes compare at one load. Doubles are equal exactly when their bits are, but for NaN (equal to nothing) and ±0;
 * these three are ordinary numbers, so a double equal to one of them has its very bytes.
 */
const SEPARATOR_FIRST = STREAM_SEPARATOR.readDoubleLE(0);
const SEPARATOR_LAST = STREAM_SEPARATOR.readDoubleLE(6);
const LINE_START_FIRST = STREAM_SEPARATOR.readDoubleLE(3);
/**
 * The bytes of a body read one by one, at most: a longer body's line is parsed alone, as JsonLineDecoder does, which
 * costs no more per byte. Short bodies are what a container writing in small pieces makes.
 */
const BODY_BUDGET = 256;
/** A line longer than this has a body longer than BODY_BUDGET. */
const LONGEST_READ_LINE_BYTES = SHORTEST_LINE_BYTES + BODY_BUDGET;

/**
 * Reads the run of stream lines from START (a line's start; the last line ends at END, the others at a newline): each
 * line exactly `{"stream":"…"}`, with no whitespace, no `\r`, no other key, and a body of at most BODY_BUDGET bytes.
 * Their bodies go to `run.out` after its first byte, `run.used` says how far; the result is where the run's last line
 * ends, or -1 when the line at START is no such line. Each body is cut into the units JSON reads a string in (a byte;
 * a backslash and the byte after it; `\u` and the four bytes after it), so the quote it ends at is the one the line's
 * JSON ends the string at, and no unit of the joined bodies spans two lines: a bad escape or control character in a
 * body is one in the joined string too, at the same place, and fails its parse. A body starting with a UTF-8
 * continuation byte ends the run, so that decoding the joined bytes gives each body's own characters (a character cut
 * between two lines stays two replacement characters, and each body is decoded afresh, as after its line's quote).
 */
function readStreamRun(bytes: Buffer, words: DataView, start: number, end: number, run: StreamRun): number {
  run.long = false;
  if (end - start < SHORTEST_LINE_BYTES || words.getFloat64(start, true) !== LINE_START_FIRST || words.getFloat64(start + 3, true) !== SEPARATOR_LAST) return -1;
  const out = run.out;
  let o = 1;
  // The end of the run's last whole line so far, and the bytes of `out` its bodies take.
  let runEnd = -1;
  let used = 1;
  let at = start + LINE_START_BYTES;
  body: for (;;) {
    let byte = bytes[at] as number;
    if (byte >= 0x80 && byte < 0xc0) break;
    const limit = at + BODY_BUDGET;
    const stopAt = limit < end ? limit : end;
    while (byte !== QUOTE) {
      if (byte === BACKSLASH) {
        const escaped = bytes[at + 1] as number;
        out[o++] = byte;
        out[o++] = escaped;
        if (escaped === LETTER_U) {
          // Four bytes more, whatever they are: JSON.parse reads the same six, and refuses them unless hex digits.
          if (end - at < 6) break body;
          out[o++] = bytes[at + 2] as number;
          out[o++] = bytes[at + 3] as number;
          out[o++] = bytes[at + 4] as number;
          out[o++] = bytes[at + 5] as number;
          at += 6;
        } else {
          at += 2;
        }
      } else {
        out[o++] = byte;
        at++;
      }
      if (at >= stopAt) {
        run.long = at >= limit;
        break body;
      }
      byte = bytes[at] as number;
    }
    // The closing quote: `"}` and the run's end, or the separator and the next line, or `"}` and a line of another kind.
    if (end - at === 2) {
      if (bytes[at + 1] === CLOSING_BRACE) {
        runEnd = end;
        used = o;
      }
      break;
    }
    if (end - at >= STREAM_SEPARATOR.length + 2 && words.getFloat64(at, true) === SEPARATOR_FIRST && words.getFloat64(at + 6, true) === SEPARATOR_LAST) {
      runEnd = at + 2;
      used = o;
      at += STREAM_SEPARATOR.length;
      continue;
    }
    if (end - at > 2 && bytes[at + 1] === CLOSING_BRACE && bytes[at + 2] === NEWLINE) {
      runEnd = at + 2;
      used = o;
    }
    break;
  }
  run.used = used;
  return runEnd;
}
