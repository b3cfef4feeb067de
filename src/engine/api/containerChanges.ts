/**
 * What a container changed: `GET /containers/{id}/changes` read as a stream (the answer is one JSON array, which can
 * hold hundreds of thousands of paths), and a tree model of it for views. The decoder hands out each complete element
 * as soon as its bytes are in, so the first rows can be shown before the whole answer is read. It scans every byte
 * once (linear) and holds at most one element (bounded): everything an engine sends is treated as hostile.
 */
import { EngineError } from '../connection';

/** The engine's kinds: 0 modified, 1 added, 2 deleted. */
export type ChangeKind = 0 | 1 | 2;

export interface ContainerChange {
  readonly Path: string;
  readonly Kind: ChangeKind;
}

/** The letter `docker diff` prints for each kind. */
export const CHANGE_LETTERS: Readonly<Record<ChangeKind, 'C' | 'A' | 'D'>> = { 0: 'C', 1: 'A', 2: 'D' };

/** `docker diff`'s line for one change. */
export function changeLine(change: ContainerChange): string {
  return `${CHANGE_LETTERS[change.Kind]} ${change.Path}\n`;
}

/** One element larger than this is not a path (Linux paths end at 4 KiB; escaped, six bytes a character at most). */
export const MAX_CHANGE_ELEMENT_BYTES = 64 * 1024;

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function protocolError(what: string): EngineError {
  return new EngineError('protocol', `The engine's list of container changes is not what the Engine API describes: ${what}`, {
    hint: 'The engine or something between it and Berth is misbehaving; check the engine host',
  });
}

/** Checks one decoded element: a hostile engine's odd element is refused, not shown. */
export function toContainerChange(value: unknown): ContainerChange {
  if (typeof value !== 'object' || value === null) throw protocolError('an element is not an object');
  const { Path: path, Kind: kind } = value as { Path?: unknown; Kind?: unknown };
  if (typeof path !== 'string' || path === '') throw protocolError('an element has no Path');
  if (kind !== 0 && kind !== 1 && kind !== 2) throw protocolError(`the Kind of ${JSON.stringify(path.slice(0, 200))} is not 0, 1 or 2`);
  return { Path: path, Kind: kind };
}

type DecoderState = 'before' | 'inArray' | 'after';

/**
 * Splits the bytes of `[{…},{…}]` (or `null`, which engines send for no changes) into its elements. An element is
 * parsed once its closing brace is in, so a UTF-8 character split across chunks decodes correctly.
 */
export class ChangeArrayDecoder {
  private state: DecoderState = 'before';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private element: Buffer[] = [];
  private elementLength = 0;
  /** What came instead of `[` at the top (only `null` is allowed), bounded by its length check. */
  private bare = '';

  constructor(private readonly onChange: (change: ContainerChange) => void) {}

  push(chunk: Buffer): void {
    let elementStart = this.depth > 0 ? 0 : -1;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index] as number;
      if (this.depth > 0) {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (byte === BACKSLASH) this.escaped = true;
          else if (byte === QUOTE) this.inString = false;
        } else if (byte === QUOTE) this.inString = true;
        else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.depth++;
        else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
          this.depth--;
          if (this.depth === 0) {
            this.finishElement(chunk.subarray(elementStart, index + 1));
            elementStart = -1;
          }
        }
        continue;
      }
      if (isWhitespace(byte)) continue;
      if (this.state === 'before') {
        if (byte === OPEN_BRACKET) this.state = 'inArray';
        else this.takeBare(byte);
      } else if (this.state === 'inArray') {
        if (byte === OPEN_BRACE) {
          this.depth = 1;
          elementStart = index;
        } else if (byte === CLOSE_BRACKET) this.state = 'after';
        else if (byte !== COMMA) throw protocolError(`unexpected ${JSON.stringify(String.fromCharCode(byte))} between elements`);
      } else throw protocolError('bytes after the end of the list');
    }
    if (this.depth > 0) this.keepPartial(chunk.subarray(Math.max(elementStart, 0)));
  }

  /** Call when the answer ends: a list cut midway is an error, not a shorter list. */
  end(): void {
    if (this.depth > 0 || this.state === 'inArray') throw protocolError('the answer ended in the middle of the list');
    if (this.state === 'before' && this.bare !== 'null' && this.bare !== '') throw protocolError(`it is ${JSON.stringify(this.bare)}`);
  }

  private takeBare(byte: number): void {
    this.bare += String.fromCharCode(byte);
    if (this.bare.length > 4 || !'null'.startsWith(this.bare)) throw protocolError('it is not a JSON list');
  }

  private keepPartial(part: Buffer): void {
    this.elementLength += part.length;
    if (this.elementLength > MAX_CHANGE_ELEMENT_BYTES) throw protocolError(`an element is longer than ${MAX_CHANGE_ELEMENT_BYTES / 1024} KiB`);
    this.element.push(part);
  }

  private finishElement(last: Buffer): void {
    const length = this.elementLength + last.length;
    if (length > MAX_CHANGE_ELEMENT_BYTES) throw protocolError(`an element is longer than ${MAX_CHANGE_ELEMENT_BYTES / 1024} KiB`);
    const bytes = this.elementLength > 0 ? Buffer.concat([...this.element, last], length) : last;
    this.element = [];
    this.elementLength = 0;
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw protocolError('an element is not JSON');
    }
    this.onChange(toContainerChange(value));
  }
}

/** Decodes the answer's bytes into batches of changes, one batch per chunk that completed any. */
export async function* changeBatches(source: AsyncIterable<Buffer>): AsyncGenerator<ContainerChange[], void, undefined> {
  let batch: ContainerChange[] = [];
  const decoder = new ChangeArrayDecoder((change) => batch.push(change));
  for await (const chunk of source) {
    decoder.push(chunk);
    if (batch.length > 0) {
      yield batch;
      batch = [];
    }
  }
  decoder.end();
}
