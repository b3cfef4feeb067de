// The log reader taking the engine's multiplexed frames itself (`rawFrames`, chunks marked `multiplexed`): it must
// show and count exactly what it does with the frames decoded into chunks first, however the bytes are cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FrameDemuxer, type OutputChunk } from '../../../src/engine';
import { LINE_CUT_MARKER, MAX_LINE_BYTES } from '../../../src/engine/connection';
import { LogMessageReader } from '../../../src/logs/logMessages';
import { frameBytes, type Frame } from '../../support/frames';

const T1 = '2026-11-23T10:38:35.913673355Z';
const T2 = '2026-11-23T10:38:35.914946193Z';
const T3 = '2026-11-23T10:38:36.000000001Z';

function message(stream: OutputChunk['stream'], stamp: string, text: string): Frame {
  return { stream, payload: Buffer.from(`${stamp} ${text}`, 'utf8') };
}

function cut(wire: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < wire.length; at += size) chunks.push(Buffer.from(wire.subarray(at, at + size)));
  return chunks;
}

type Feed = (reader: LogMessageReader, chunks: readonly Buffer[]) => void;

const multiplexed: Feed = (reader, chunks) => {
  for (const data of chunks) reader.push({ stream: 'stdout', data, multiplexed: true }, true);
};

const demuxed: Feed = (reader, chunks) => {
  const demuxer = new FrameDemuxer((chunk) => reader.push(chunk, true));
  for (const data of chunks) demuxer.push(data);
  demuxer.end();
};

interface Reading {
  lines: string[];
  shown: number;
  since: number | undefined;
  oldest: number | undefined;
}

/** What a reader hands on and counts for WIRE, then for its replay after a resume, each cut into SIZE-byte chunks. */
function read(feed: Feed, wire: Buffer, replay: Buffer, size: number): Reading {
  const lines: string[] = [];
  const reader = new LogMessageReader((stream, text, stamp) => lines.push(`${stream} ${stamp ?? '-'}: ${text}`));
  feed(reader, cut(wire, size));
  reader.end(true);
  lines.push('-- resumed');
  const since = reader.resumeSince;
  reader.beginResume();
  feed(reader, cut(replay, size));
  reader.end(true);
  return { lines, shown: reader.shownMessages, since, oldest: reader.oldestSecond };
}

void test('property: frames read in place show and count what decoded chunks do, and drop the same replay', () => {
  const stamps = [T1, T1, T1, T2, T3];
  const text = fc.oneof(
    { weight: 8, arbitrary: fc.string({ unit: fc.constantFrom('x', '2', ' ', 'é', '\n'), maxLength: 40 }) },
    { weight: 1, arbitrary: fc.integer({ min: MAX_LINE_BYTES - 50, max: MAX_LINE_BYTES + 50 }).map((length) => 'L'.repeat(length)) },
  );
  const frame = fc.record({ stamp: fc.nat({ max: stamps.length - 1 }), stderr: fc.boolean(), text });
  fc.assert(
    fc.property(fc.array(frame, { minLength: 1, maxLength: 80 }), fc.integer({ min: 1, max: 70_000 }), (drawn, size) => {
      // Stamps never go back in time, as the engine's do; the replay is every message from the resumed second on.
      const sorted = drawn.map((each) => each.stamp).sort((a, b) => a - b);
      const frames = drawn.map((each, index) => message(each.stderr ? 'stderr' : 'stdout', stamps[sorted[index] as number] as string, each.text));
      const replay = (since: number | undefined): Buffer =>
        frameBytes(frames.filter((each) => since !== undefined && Math.floor(Date.parse(each.payload.toString('latin1', 0, T1.length)) / 1000) >= since));
      const wire = frameBytes(frames);
      const expected = read(demuxed, wire, replay(read(demuxed, wire, Buffer.alloc(0), size).since), size);
      assert.deepEqual(read(multiplexed, wire, replay(expected.since), size), expected);
    }),
    { numRuns: 150 },
  );
});

void test('a flood of 1-byte frames behind one stamp is one line, every message counted', () => {
  const frames = [...Array.from({ length: 5000 }, () => message('stdout', T1, 'a')), message('stdout', T1, 'b\n'), message('stderr', T3, 'done\n')];
  const reading = read(multiplexed, frameBytes(frames), Buffer.alloc(0), 64 * 1024);
  assert.deepEqual(reading.lines, [`stdout ${T1}: ${'a'.repeat(5000)}b\n`, `stderr ${T3}: done\n`, '-- resumed']);
  assert.equal(reading.shown, 5002);
  assert.equal(reading.since, Math.floor(Date.parse(T3) / 1000));
});

void test('a line of 1-byte frames past 64 KiB is shown cut with the marker, and the next line comes whole', () => {
  const frames = [...Array.from({ length: MAX_LINE_BYTES + 3000 }, () => message('stdout', T1, 'y')), message('stdout', T1, '\n'), message('stdout', T2, 'next\n')];
  const reading = read(multiplexed, frameBytes(frames), Buffer.alloc(0), 64 * 1024);
  assert.deepEqual(reading.lines, [`stdout ${T1}: ${'y'.repeat(MAX_LINE_BYTES)}${LINE_CUT_MARKER}`, `stdout ${T1}: \n`, `stdout ${T2}: next\n`, '-- resumed']);
});

void test('an error frame ends the read with the engine\'s words', () => {
  const reader = new LogMessageReader(() => undefined);
  const wire = frameBytes([message('stdout', T1, 'one\n'), { stream: 'error', payload: Buffer.from('container gone\n') }]);
  assert.throws(() => multiplexed(reader, cut(wire, 5)), (error: Error & { engineMessage?: string }) => error.engineMessage === 'container gone');
});

void test('a stream cut in the middle of a frame is refused at its end, its message dropped, and the next read starts afresh', () => {
  const lines: string[] = [];
  const reader = new LogMessageReader((_stream, text) => lines.push(text));
  const wire = frameBytes([message('stdout', T1, 'whole\n'), message('stdout', T1, 'half')]);
  multiplexed(reader, [wire.subarray(0, wire.length - 2)]);
  assert.throws(() => reader.end(true), /closed the output stream in the middle of a frame/);
  assert.deepEqual(lines, ['whole\n']);
  reader.beginResume();
  multiplexed(reader, cut(frameBytes([message('stdout', T1, 'whole\n'), message('stdout', T2, 'half\n')]), 7));
  reader.end(true);
  assert.deepEqual(lines, ['whole\n', 'half\n']);
});
