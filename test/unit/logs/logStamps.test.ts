// The stamp checks the log reader makes per message (src/logs/logStamps.ts): the shortcuts against the previous stamp
// (a compare of its bytes, then of its words) must accept exactly what the engine's stamp pattern accepts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { STAMP, StampFinder, stampOfBytes } from '../../../src/logs/logStamps';

const REFERENCES = ['2026-11-23T10:38:35.913673355Z', '2026-11-23T10:38:35Z', '2026-11-23T11:38:35.9136+01:00', '2026-11-23T10:38:35.913673355-07:00'];
const UNITS = ['0', '1', '9', '5', '-', ':', '.', 'T', 'Z', '+', ' ', 'x', '\n', '\u00e9'];

/** A reference stamp and bytes like it: some of its characters replaced, a few added or cut at the end. */
const nearStamp = fc.tuple(
  fc.constantFrom(...REFERENCES),
  fc.array(fc.tuple(fc.nat(), fc.constantFrom(...UNITS)), { maxLength: 4 }),
  fc.integer({ min: -2, max: 2 }),
).map(([reference, edits, resize]) => {
  const chars = [...reference];
  for (const [at, unit] of edits) chars[at % chars.length] = unit;
  const text = resize >= 0 ? chars.join('') + '7'.repeat(resize) : chars.slice(0, resize).join('');
  return { reference, text };
});

void test('property: a stamp read against the previous one is what the stamp pattern accepts, and no other', () => {
  fc.assert(
    fc.property(nearStamp, fc.nat({ max: 5 }), ({ reference, text }, pad) => {
      const bytes = Buffer.from(`${'x'.repeat(pad)}${text} tail`, 'latin1');
      const end = pad + Buffer.byteLength(text, 'latin1');
      const expected = STAMP.test(text) ? text : undefined;
      assert.equal(stampOfBytes(bytes, pad, end, reference), expected);
      assert.equal(stampOfBytes(bytes, pad, end, undefined), expected);
    }),
    { numRuns: 2000 },
  );
});

void test('property: the word compare finds the previous stamp wherever it lies in a read, and nothing else', () => {
  fc.assert(
    fc.property(nearStamp, fc.nat({ max: 9 }), ({ reference, text }, pad) => {
      // A part of a larger read, as the frame demuxer hands messages on: the words are read from the shared memory.
      const read = Buffer.from(`${'y'.repeat(pad + 3)}${text} tail`, 'latin1');
      const part = read.subarray(3);
      const finder = new StampFinder();
      const fits = pad + reference.length <= part.length;
      assert.equal(fits && finder.holds(reference, part, pad), fits && part.toString('latin1', pad, pad + reference.length) === reference);
    }),
    { numRuns: 2000 },
  );
});

void test('the TTY search finds a later stamp of the same shape after tiny messages, and skips an older time in the text', () => {
  const older = '2026-11-23T10:38:34.000000000Z';
  const current = '2026-11-23T10:38:35.913673355Z';
  const later = '2026-11-23T10:38:35.913673356Z';
  const data = Buffer.from(`a${current} b${older} c${later} d`, 'latin1');
  const finder = new StampFinder();
  const first = finder.next(current, data, 0, data.length);
  assert.equal(first, 1);
  assert.equal(finder.found, current);
  const second = finder.next(current, data, first + current.length + 1, data.length);
  assert.equal(data.toString('latin1', second, second + later.length), later);
  assert.equal(finder.found, later);
});
