/**
 * JSON line streams of engine responses (events, build output, pull and push progress, stats): incremental and
 * correct however the bytes are chunked. The multiplexed frames of logs and attach streams: frames.ts.
 */
import { isAscii } from 'node:buffer';
import { EngineError, WRONG_CREDENTIALS_HINT, type EngineErrorKind } from './errors';

const MIB = 1024 * 1024;
/** One JSON line (an event, a progress or build message) is at most a few KiB; a line growing past this is refused. */
export const MAX_JSON_LINE_BYTES = 16 * MIB;

export const NEWLINE = 0x0a;
/** A chunk's lines are parsed in one call when its first line is shorter than this. */
const BATCH_LINE_BYTES = 128;

/**
 * Splits a byte stream into JSON values, one per line (`\n` or `\r\n`). Lines are split on bytes, and a line is decoded
 * only once it is complete, so a UTF-8 character split across chunks decodes correctly. Blank lines are skipped.
 */
export class JsonLineDecoder<T = unknown> {
  private partial: Buffer[] = [];
  private partialLength = 0;

  /** ON_VALUE also gets the line's text, for what JSON numbers cannot hold exactly (an event's `timeNano`). */
  constructor(protected readonly onValue: (value: T, text: string) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    const last = chunk.lastIndexOf(NEWLINE);
    if (last !== -1 && this.partialLength > 0) {
      const newline = chunk.indexOf(NEWLINE);
      const line = chunk.subarray(0, newline);
      this.refuseLongLine(this.partialLength + line.length);
      this.partial.push(line);
      const joined = Buffer.concat(this.partial, this.partialLength + line.length);
      this.partial = [];
      this.partialLength = 0;
      this.parseLines(joined.toString('utf8'));
      start = newline + 1;
    }
    // The chunk's whole lines are decoded at once: a stream of tiny values costs no Buffer and no decoding call per
    // line. A newline byte is never part of a UTF-8 character, so the text has a newline exactly where the bytes do.
    if (last >= start) this.completeLines(chunk, start, last);
    start = Math.max(start, last + 1);
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.refuseLongLine(this.partialLength + rest.length);
      this.partial.push(rest);
      this.partialLength += rest.length;
    }
  }

  /** The whole lines of a chunk, from START to END (the last line's newline). */
  protected completeLines(chunk: Buffer, start: number, end: number): void {
    this.parseLines(textOf(chunk, start, end));
  }

  /** A line that never ends would grow without bound: past MAX_JSON_LINE_BYTES the stream is refused. */
  private refuseLongLine(length: number): void {
    if (length <= MAX_JSON_LINE_BYTES) return;
    this.partial = [];
    this.partialLength = 0;
    throw new EngineError('protocol', `The engine sent a JSON line longer than ${MAX_JSON_LINE_BYTES / MIB} MiB without a line break; Berth stopped reading the stream`, {
      hint: 'The engine or something between it and Berth is misbehaving; check the engine host',
    });
  }

  /** Call when the source ends: a last line without a newline is still a value. */
  end(): void {
    if (this.partialLength === 0) return;
    const line = Buffer.concat(this.partial, this.partialLength);
    this.partial = [];
    this.partialLength = 0;
    this.parseLines(line.toString('utf8'));
  }

  /**
   * Each line of TEXT (lines joined by `\n`, the last without one) as a value. Short lines are parsed in one call, as
   * the elements of one array: a stream of tiny values then costs no parse call per value. The array has one element
   * per line when every line is one value; when it fails or miscounts (a line that is no JSON, a blank line, a line of
   * two values) the lines are parsed one by one, which hands on the same values and throws the same error as always.
   * Among good lines, one line that is not one value always fails or miscounts: brackets, commas and strings are
   * balanced everywhere else, and no string spans the newline after each comma (JSON forbids a raw newline in one).
   * Only several broken lines crafted together could form values across their breaks, and those are values an engine
   * could as well send as lines.
   */
  protected parseLines(text: string): void {
    const first = text.indexOf('\n');
    // Long lines gain nothing: their parse calls are few, and joining them copies them again.
    if (first !== -1 && first < BATCH_LINE_BYTES) {
      const lines = text.split('\n');
      let values: unknown;
      try {
        values = JSON.parse(`[${lines.join(',\n')}]`);
      } catch {
        values = undefined;
      }
      if (Array.isArray(values) && values.length === lines.length) {
        for (let index = 0; index < lines.length; index++) {
          const line = lines[index] as string;
          this.onValue(values[index] as T, isJsonWhitespace(line.charCodeAt(0)) ? line.trimStart() : line);
        }
        return;
      }
    }
    let start = 0;
    for (let newline = first; newline !== -1; newline = text.indexOf('\n', start)) {
      this.parse(text, start, newline);
      start = newline + 1;
    }
    this.parse(text, start, text.length);
  }

  private parse(lines: string, start: number, end: number): void {
    // JSON.parse skips the whitespace around a value itself; a line of whitespace only is no value.
    let first = start;
    while (first < end && isJsonWhitespace(lines.charCodeAt(first))) first++;
    if (first === end) return;
    const text = lines.slice(first, end);
    let value: T;
    try {
      value = JSON.parse(text) as T;
    } catch {
      const trimmed = text.trim();
      const shown = trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed;
      throw new EngineError('protocol', `The engine sent a line that is not JSON: ${shown}`);
    }
    this.onValue(value, text);
  }
}

/** The text of BYTES from START to END. When all of BYTES is ASCII, each byte is its character: a copy, no decoding. */
export function textOf(bytes: Buffer, start: number, end: number): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8', start, end);
}

/** Space, tab, CR and LF: what JSON allows around a value (and `trim` removed before). */
function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}

/** Decodes an async byte stream of JSON lines into values. */
export async function* jsonLines<T = unknown>(source: AsyncIterable<Buffer>): AsyncGenerator<T, void, undefined> {
  const pending: T[] = [];
  const decoder = new JsonLineDecoder<T>((value) => pending.push(value));
  for await (const chunk of source) {
    decoder.push(chunk);
    for (let i = 0; i < pending.length; i++) yield pending[i] as T;
    pending.length = 0;
  }
  decoder.end();
  for (const value of pending) yield value;
}

/** A line of a pull or push stream, which may carry an in-band failure. */
export interface ProgressLine {
  status?: string;
  id?: string;
  progress?: string;
  progressDetail?: { current?: number; total?: number };
  error?: string;
  errorDetail?: { message?: string; code?: number };
  aux?: unknown;
}

/**
 * The error an in-band `errorDetail` / `error` line stands for, or undefined for a normal progress line. When the
 * call carried credentials, a refusal says that they are wrong rather than asking to sign in.
 */
export function progressLineError(line: ProgressLine, operation: 'pull' | 'push' = 'pull', credentialsSent = false): EngineError | undefined {
  if (line.errorDetail === undefined && line.error === undefined) return undefined;
  const message = line.errorDetail?.message ?? line.error ?? 'unknown error';
  const kind = classifyRegistryMessage(message);
  const hint = kind === 'unauthorized' && credentialsSent ? WRONG_CREDENTIALS_HINT : registryHint(kind, operation);
  return new EngineError(kind, message, { engineMessage: message, hint });
}

/** Yields progress lines and throws the EngineError of the first `errorDetail` line, although the HTTP status was 200. */
export async function* progressLines(
  source: AsyncIterable<Buffer>,
  operation: 'pull' | 'push' = 'pull',
): AsyncGenerator<ProgressLine, void, undefined> {
  for await (const line of jsonLines<ProgressLine>(source)) {
    const error = progressLineError(line, operation);
    if (error) throw error;
    yield line;
  }
}

function classifyRegistryMessage(message: string): EngineErrorKind {
  const lower = message.toLowerCase();
  if (/unauthori[sz]ed|authentication required|no basic auth credentials|access denied|denied:|forbidden|incorrect username or password/.test(lower)) {
    return 'unauthorized';
  }
  if (/manifest unknown|not found|does not exist|unknown blob|no such image/.test(lower)) return 'not-found';
  return 'server';
}

export function registryHint(kind: EngineErrorKind, operation: 'pull' | 'push'): string | undefined {
  if (kind === 'unauthorized') {
    return `Sign in to the registry (Berth: Sign In to Registry, or docker login) with an account allowed to ${operation} it, then try again`;
  }
  if (kind === 'not-found') return 'Check the image name and tag';
  return undefined;
}
