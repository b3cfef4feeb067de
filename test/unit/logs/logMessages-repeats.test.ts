// The TTY log reader's run of tiny messages behind a repeated stamp (StampFinder.repeats, compared as words of the
// stamp and its space) and its skip of that run after a long message: both are shortcuts, so whatever the stamps'
// shape, the chunking or the line's length, the reader must hand on and count what one byte at a time does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LINE_CUT_MARKER, MAX_LINE_BYTES } from '../../../src/engine/connection';
import { LogMessageReader } from '../../../src/logs/logMessages';
import { StampFinder } from '../../../src/logs/logStamps';

// Every shape of stamp: nanoseconds in UTC (30 bytes), whole seconds (20), and offsets (the longest, 35).
const SHAPES = [
  ['2026-11-23T10:38:35.913673355Z', '2026-11-23T10:38:35.913673356Z', '2026-11-23T10:38:36.000000001Z'],
  ['2026-11-23T10:38:35Z', '2026-11-23T10:38:36Z', '2026-11-23T10:38:37Z'],
  ['2026-11-23T11:38:35.913673355+01:00', '2026-11-23T11:38:35.913673356+01:00', '2026-11-23T11:38:36.5+01:00'],
  ['2026-11-23T11:38:35.9136+01:00', '2026-11-23T11:38:35.9137+01:00', '2026-11-23T11:38:36.0001+01:00'],
] as const;
const SPACE = 0x20;

/** What `repeats` finds, one string compare per message: the reference for its word compares. */
function repeatsByText(current: string, data: Buffer, from: number, to: number, near: number, ends: Int32Array): { count: number; empty: number } {
  let count = 0;
  let empty = 0;
  let start = from;
  while (count < ends.length) {
    const limit = Math.min(to, start + near);
    let at = start;
    while (at < limit && data[at] !== current.charCodeAt(0)) at++;
    if (at === limit || at + current.length >= to || data[at + current.length] !== SPACE) break;
    if (data.toString('latin1', at, at + current.length) !== current) break;
    if (at === start) empty++;
    ends[count++] = at;
    start = at + current.length + 1;
  }
  return { count, empty };
}

/** Bytes near a stamp run: the stamp whole, cut, with one byte changed, or content bytes that look like its start. */
const piece = (stamp: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant(`${stamp} `),
    fc.constant(`${stamp} `),
    fc.string({ unit: fc.constantFrom('x', '2', ' ', '0', '\n', '\r'), maxLength: 5 }),
    fc.tuple(fc.nat({ max: stamp.length }), fc.constantFrom('x', '7', ' ', '9')).map(([at, unit]) => `${stamp.slice(0, at)}${unit}${stamp.slice(at + 1)} `),
    fc.nat({ max: stamp.length }).map((cut) => stamp.slice(0, cut)),
  );

void test('property: a run of repeats read as words ends where a compare of each stamp as text ends it', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...SHAPES.flat()).chain((stamp) => fc.tuple(fc.constant(stamp), fc.array(piece(stamp), { maxLength: 30 }), fc.nat({ max: 9 }), fc.nat({ max: 7 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 40 }))),
      ([stamp, pieces, pad, short, near, room]) => {
        // A part of a larger read, as the network hands it on: the words are read at the part's place in memory.
        const read = Buffer.from(`${'y'.repeat(pad)}${pieces.join('')}${'z'.repeat(3)}`, 'latin1');
        const data = read.subarray(pad);
        const to = Math.max(0, data.length - short);
        const ends = new Int32Array(room);
        const expected = new Int32Array(room);
        for (let from = 0; from <= to; from++) {
          const finder = new StampFinder();
          const count = finder.repeats(stamp, data, from, to, near, ends);
          const reference = repeatsByText(stamp, data, from, to, near, expected);
          assert.deepEqual({ count, empty: finder.emptyInRun }, reference, `from ${from}`);
          assert.deepEqual([...ends.subarray(0, count)], [...expected.subarray(0, count)]);
        }
      },
    ),
    { numRuns: 300 },
  );
});

void test('property: a frame\'s stamp and space compared as words match a compare of them as text', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...SHAPES.flat()).chain((stamp) => fc.tuple(fc.constant(stamp), piece(stamp), fc.nat({ max: 9 }))),
      ([stamp, text, pad]) => {
        const read = Buffer.from(`${'y'.repeat(pad + 3)}${text}`, 'latin1');
        const data = read.subarray(3);
        const fits = pad + stamp.length + 1 <= data.length;
        const expected = fits && data.toString('latin1', pad, pad + stamp.length + 1) === `${stamp} `;
        assert.equal(fits && new StampFinder().holdsSpaced(stamp, data, pad), expected);
      },
    ),
    { numRuns: 2000 },
  );
});

/** What a TTY reader hands on (with stamps) and counts for WIRE fed in pieces of the given sizes, cycled. */
function readTty(wire: Buffer, sizes: readonly number[]): { lines: string[]; shown: number; since: number | undefined } {
  const lines: string[] = [];
  const reader = new LogMessageReader((stream, text, stamp) => lines.push(`${stream} ${stamp ?? '-'}: ${text}`));
  for (let at = 0, index = 0; at < wire.length; index++) {
    const size = sizes[index % sizes.length] as number;
    reader.push({ stream: 'stdout', data: wire.subarray(at, at + size) }, false);
    at += size;
  }
  reader.end(true);
  return { lines, shown: reader.shownMessages, since: reader.resumeSince };
}

void test('property: TTY messages short and long, of any stamp shape, read as one byte at a time reads them', () => {
  const message = fc.record({
    stamp: fc.nat({ max: 2 }),
    // Around the run's reach (16 bytes) and past it, so a long message skips the next run and a short one tries it.
    text: fc.oneof(
      fc.string({ unit: fc.constantFrom('x', '2', '0', ' ', 'é', '\n', '\r'), maxLength: 6 }),
      fc.nat({ max: 40 }).map((length) => 'w'.repeat(length)),
    ),
    // A stamp the engine never writes: a byte of it changed, so it is content.
    broken: fc.option(fc.nat({ max: 34 }), { freq: 8 }),
  });
  fc.assert(
    fc.property(fc.constantFrom(...SHAPES), fc.array(message, { minLength: 1, maxLength: 150 }), fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 4 }), (shape, messages, sizes) => {
      // Stamps never go back in time, as the engine's do.
      const order = messages.map((each) => each.stamp).sort((a, b) => a - b);
      const body = messages
        .map((each, index) => {
          const stamp = shape[order[index] as number] as string;
          const at = each.broken === null ? -1 : each.broken % stamp.length;
          return `${at === -1 ? stamp : `${stamp.slice(0, at)}x${stamp.slice(at + 1)}`} ${each.text}`;
        })
        .join('');
      const wire = Buffer.from(body, 'utf8');
      assert.deepEqual(readTty(wire, sizes), readTty(wire, [1]));
    }),
    { numRuns: 300 },
  );
});

const T1 = '2026-11-23T10:38:35.913673355Z';
const T2 = '2026-11-23T10:38:35.914946193Z';
const T3 = '2026-11-23T10:38:36.000000001Z';

void test('TTY: tiny messages whose stamp changes mid-line, with \\r\\n, read alike however the read is cut', () => {
  const body = `${T1} a${T1} b${T1} \r${T1} \n${T1} c${T2} d${T2} ${T2} e\r\n${T3} f${T3} g\n`;
  const wire = Buffer.from(body, 'latin1');
  const expected = [`stdout ${T1}: ab\r\n`, `stdout ${T2}: cde\r\n`, `stdout ${T3}: fg\n`];
  for (let size = 1; size <= wire.length; size++) {
    const read = readTty(wire, [size]);
    assert.deepEqual(read.lines, expected, `reads of ${size} bytes`);
    assert.equal(read.shown, 9, `reads of ${size} bytes`);
  }
  // A message cut at every byte between two reads.
  for (let cut = 1; cut < wire.length; cut++) assert.deepEqual(readTty(wire, [cut, wire.length]).lines, expected, `cut at ${cut}`);
});

void test('TTY: a stamp of one changed byte inside a run of tiny messages is content of the message before', () => {
  const broken = `${T1.slice(0, 20)}x${T1.slice(21)}`;
  const wire = Buffer.from(`${T1} a${T1} b${broken} c${T1} d\n`, 'latin1');
  for (const size of [1, 5, wire.length]) assert.deepEqual(readTty(wire, [size]).lines, [`stdout ${T1}: ab${broken} cd\n`], `reads of ${size} bytes`);
});

void test('TTY: long messages then tiny ones past the line bound are cut with the marker and counted as byte by byte', () => {
  const long = 'w'.repeat(40);
  const wire = Buffer.from(`${`${T1} ${long}`.repeat(1_000)}${`${T1} y`.repeat(MAX_LINE_BYTES)}${`${T2} ${long}`.repeat(50)}${T3} \n${T3} next\n`, 'latin1');
  const fast = readTty(wire, [64 * 1024]);
  assert.deepEqual(fast, readTty(wire, [1]));
  assert.equal(fast.lines[0], `stdout ${T1}: ${`${long.repeat(1_000)}${'y'.repeat(MAX_LINE_BYTES)}`.slice(0, MAX_LINE_BYTES)}${LINE_CUT_MARKER}`);
  assert.deepEqual(fast.lines.slice(1), [`stdout ${T2}: \n`, `stdout ${T3}: next\n`]);
  assert.equal(fast.shown, 1_000 + MAX_LINE_BYTES + 50 + 2);
});
