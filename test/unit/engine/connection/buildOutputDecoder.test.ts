// The build output decoder: runs of `{"stream":"…"}` lines merged into one value must give the text, the other values
// and the error of a line-by-line decode, however the bytes are chunked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BuildOutputDecoder, JsonLineDecoder } from '../../../../src/engine';
import { splitAt } from '../../../support/chunks';
import { textAndValues } from '../../../support/streamText';

/** One character (a code point, or a lone surrogate) in a JSON string, written in one of the ways JSON allows. */
function jsonChar(char: string, choice: number): string {
  const short: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  const code = char.codePointAt(0) as number;
  const mustEscape = char === '"' || char === '\\' || code < 0x20 || (code >= 0xd800 && code <= 0xdfff);
  if (choice % 3 === 0 && !mustEscape) return char;
  if (choice % 3 === 1 && short[char] !== undefined) return short[char];
  const hex = [...Array(char.length).keys()].map((at) => `\\u${char.charCodeAt(at).toString(16).padStart(4, '0')}`).join('');
  return choice % 2 === 0 ? hex : hex.toUpperCase().replace(/\\U/g, '\\u');
}

const streamStart = Buffer.from('{"stream":"');
const streamEnd = Buffer.from('"}');

function decodeWith(make: (onValue: (value: unknown) => void) => { push(chunk: Buffer): void; end(): void }, chunks: readonly Buffer[]): { values: unknown[]; error: string | undefined } {
  const values: unknown[] = [];
  const decoder = make((value) => values.push(value));
  try {
    for (const chunk of chunks) decoder.push(chunk);
    decoder.end();
    return { values, error: undefined };
  } catch (error) {
    return { values, error: (error as Error).message };
  }
}

void describe('BuildOutputDecoder', () => {
  const char = fc.oneof(
    fc.constantFrom('"', '\\', '/', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u001b', '\u007f', 'u', 'a', '0', 'F', '}', '{', ' ', 'é', '€', '🚢', '\u2028', '\ud800', '\udc00'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  );
  const body = fc
    .array(
      fc.oneof(
        { weight: 30, arbitrary: fc.tuple(char, fc.nat()).map(([one, choice]) => jsonChar(one, choice)) },
        // Past LONG_RUN_BYTES: a run copied in one go.
        { weight: 1, arbitrary: fc.integer({ min: 30, max: 300 }).map((length) => 'x'.repeat(length)) },
        // Past BODY_BUDGET: the line is parsed alone.
        { weight: 1, arbitrary: fc.integer({ min: 100, max: 200 }).map((length) => '\\t'.repeat(length)) },
      ),
      { maxLength: 12 },
    )
    .map((parts) => Buffer.from(parts.join(''), 'utf8'));
  const streamLine = (bytes: Buffer): Buffer => Buffer.concat([streamStart, bytes, streamEnd]);
  /** Lines, each without its line end. */
  const lines = fc.oneof(
    { weight: 30, arbitrary: body.map((bytes) => [streamLine(bytes)]) },
    // One good body cut at any byte into two lines: inside an escape, or inside a UTF-8 character, they are no JSON.
    { weight: 2, arbitrary: fc.tuple(body, fc.nat()).map(([bytes, at]) => [streamLine(bytes.subarray(0, at % (bytes.length + 1))), streamLine(bytes.subarray(at % (bytes.length + 1)))]) },
    // `{"stream":"ab"}` with one byte of its fixed part changed: another key, another shape, or no JSON.
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14), fc.integer({ min: 0, max: 255 })).map(([at, byte]) => {
        const line = Buffer.from('{"stream":"ab"}');
        line[at] = byte === 0x0a ? 0x20 : byte;
        return [line];
      }),
    },
    // Bytes of any kind in a body: bad UTF-8, a continuation byte first, quotes, backslashes, control bytes.
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 6 }).map((bytes) => [streamLine(Buffer.from(bytes.filter((byte) => byte !== 0x0a)))]) },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(
          '{"status":"Pulling fs layer","id":"abc"}',
          '{"aux":{"ID":"sha256:0123"}}',
          '{"stream":"x","other":1}',
          '{"stream":"a","stream":"b"}',
          '{"stream":1}',
          '{"stream":null}',
          '{"stream":["x"]}',
          ' {"stream":"x"}',
          '{"stream":"x"} ',
          '{"stream":"x"}\t',
          '{ "stream":"x"}',
          '{"stream" :"x"}',
          '{"stream": "x"}',
          '{"stream":"x" }',
          '"stream"',
          '{"Stream":"x"}',
          '{"stream":"x"}{"stream":"y"}',
          '{"stream":"x"},{"stream":"y"}',
          '{"stream":"\\u00e9"}',
        )
        .map((line) => [Buffer.from(line)]),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('', ' ', '{"stream":"a\\', '{"stream":"a\\"}', '{"stream":"\\u12"}', '{"stream":"\\u12', '{"stream":"\\x"}', '{"stream":"a"b"}', '{"stream":"a', '{"stream":"a"', '{"stream":"\t"}', 'not json', '{"stream":""}"}', '{"stream":"}')
        .map((line) => [Buffer.from(line)]),
    },
  );
  const wire = fc.tuple(fc.array(fc.tuple(lines, fc.constantFrom('\n', '\n', '\n', '\r\n')), { maxLength: 16 }), fc.boolean()).map(([entries, lastEnded]) => {
    const parts: Buffer[] = [];
    entries.forEach(([group, end], at) => group.forEach((line, inGroup) => parts.push(line, Buffer.from(at === entries.length - 1 && inGroup === group.length - 1 && !lastEnded ? '' : end))));
    return Buffer.concat(parts);
  });

  void it('property: any lines, chunked anywhere, give the stream text, the other values and the error of a line-by-line decode', () => {
    fc.assert(
      fc.property(wire, fc.array(fc.nat(), { maxLength: 5 }), (bytes, cuts) => {
        const chunks = splitAt(bytes, cuts);
        const expected = decodeWith((onValue) => new JsonLineDecoder(onValue), chunks);
        const actual = decodeWith((onValue) => new BuildOutputDecoder(onValue), chunks);
        assert.equal(actual.error, expected.error);
        assert.deepEqual(textAndValues(actual.values), textAndValues(expected.values));
      }),
      { numRuns: 5000 },
    );
  });

  void it('hands on a chunk of stream lines as one value holding their text', () => {
    const pieces = ['Step 1/2 : FROM scratch', '\n', 'é', '\u001b[0m', '"quoted"', '\\', '🚢', '\n'];
    const chunk = Buffer.from(pieces.map((piece) => `${JSON.stringify({ stream: piece })}\n`).join(''), 'utf8');
    const out: unknown[] = [];
    const decoder = new BuildOutputDecoder((value) => out.push(value));
    decoder.push(chunk);
    decoder.end();
    assert.deepEqual(out, [{ stream: pieces.join('') }]);
  });

  void it('merges each run of stream lines, in order with the other lines and the costly bodies parsed alone', () => {
    const tabs = '\t'.repeat(300);
    const lines = [{ stream: 'a' }, { stream: 'b' }, { aux: { ID: 'sha256:1' } }, { stream: 'c' }, { stream: tabs }, { stream: 'd' }, { stream: 'e' }, { status: 'Downloading', id: 'x' }];
    const out: unknown[] = [];
    const decoder = new BuildOutputDecoder((value) => out.push(value));
    decoder.push(Buffer.from(lines.map((line) => `${JSON.stringify(line)}\n`).join('')));
    assert.deepEqual(out, [{ stream: 'ab' }, { aux: { ID: 'sha256:1' } }, { stream: 'c' }, { stream: tabs }, { stream: 'de' }, { status: 'Downloading', id: 'x' }]);
  });

  void it('decodes a stream line with a CR or another key as JsonLineDecoder does', () => {
    for (const wire of ['{"stream":"a"}\n{"aux":{"ID":"sha256:1"}}\n{"stream":"b"}\n', '{"stream":"a"}\r\n{"stream":"b"}\r\n', '{"stream":"a"}\n{"stream":"b","x":1}\n']) {
      const out: unknown[] = [];
      const decoder = new BuildOutputDecoder((value) => out.push(value));
      decoder.push(Buffer.from(wire));
      decoder.end();
      assert.deepEqual(out, wire.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as unknown));
    }
  });

  void it('parses a line with a body past BODY_BUDGET alone, and measures the line after it before reading it', () => {
    const long = `${'x'.repeat(1000)}\\"${'y'.repeat(700)}\\u00e9`;
    const pieces = [long, 'a', 'b', 'w'.repeat(600), 'z'.repeat(300), 'c', 'd'];
    const out: unknown[] = [];
    const decoder = new BuildOutputDecoder((value) => out.push(value));
    decoder.push(Buffer.from(pieces.map((stream) => `{"stream":"${stream}"}\n`).join('')));
    assert.deepEqual(out, [{ stream: `${'x'.repeat(1000)}"${'y'.repeat(700)}é` }, { stream: 'ab' }, { stream: 'w'.repeat(600) }, { stream: 'z'.repeat(300) }, { stream: 'cd' }]);
  });
});
