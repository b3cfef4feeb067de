// The compose logs splitter taking the engine's multiplexed frames itself (`rawFrames`, chunks marked `multiplexed`):
// it must hand on exactly the lines it hands on with the frames decoded into chunks first, however the bytes are cut.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FrameDemuxer, type OutputChunk } from '../../../../src/engine';
import { LINE_CUT_MARKER, MAX_LINE_BYTES } from '../../../../src/engine/connection';
import { MessageSplitter, splitStamp } from '../../../../src/engine/compose';
import { frameBytes, type Frame } from '../../../support/frames';

const T1 = '2026-11-23T10:38:35.913673355Z';
const T2 = '2026-11-23T10:38:36.5+01:00';
const KIB = 1024;
const NEWLINE = Buffer.from('\n');

/** One message: the stamp, its space and the text (no stamp at all when STAMP is empty). */
function message(stream: OutputChunk['stream'], stamp: string, text: string | Buffer): Frame {
  return { stream, payload: Buffer.concat([Buffer.from(stamp === '' ? '' : `${stamp} `, 'latin1'), Buffer.from(text)]) };
}

/** WIRE cut at the offsets given, each chunk a copy (as reads allocate them). */
function cutAt(wire: Buffer, offsets: readonly number[]): Buffer[] {
  const bounds = [0, ...offsets.filter((at) => at > 0 && at < wire.length).sort((a, b) => a - b), wire.length];
  return bounds.slice(1).map((end, index) => Buffer.from(wire.subarray(bounds[index], end)));
}

type Feed = (splitter: MessageSplitter, chunks: readonly Buffer[]) => void;

const multiplexed: Feed = (splitter, chunks) => {
  for (const data of chunks) splitter.push({ stream: 'stdout', data, multiplexed: true });
};

/** As the code before `rawFrames` read them: through the demuxer, a chunk per frame piece. */
const demuxed: Feed = (splitter, chunks) => {
  const demuxer = new FrameDemuxer((chunk) => splitter.push(chunk));
  for (const data of chunks) demuxer.push(data);
  demuxer.end();
};

/** Every line handed on, as `stream seconds.nanos text`. */
function lines(feed: Feed, chunks: readonly Buffer[]): string[] {
  const got: string[] = [];
  const splitter = new MessageSplitter(false, (stream, seconds, nanos, text) => got.push(`${stream} ${seconds}.${nanos} ${text}`));
  feed(splitter, chunks);
  splitter.end();
  return got;
}

function at(stamp: string): string {
  const stamped = splitStamp(`${stamp} `) as { seconds: number; nanos: number };
  return `${stamped.seconds}.${stamped.nanos}`;
}

void describe('compose logs splitter taking the frames itself (engine/compose/composeMessages.ts)', () => {
  // Parts of lines on both streams, a frame of no bytes inside a line, a return before a newline, a stamp change
  // inside a line (the line keeps its first part's stamp) and after it, and a message without a stamp.
  const frames: Frame[] = [
    message('stdout', T1, 'one '),
    { stream: 'stdout', payload: Buffer.alloc(0) },
    message('stderr', T1, 'err '),
    message('stdout', T2, 'line\r\n'),
    message('stderr', T1, 'é\n'),
    { stream: 'stderr', payload: Buffer.alloc(0) },
    message('stdout', T2, 'two\nthree\n'),
    message('stdout', '', 'bare\n'),
  ];
  const wire = frameBytes(frames);
  const expected = [`stdout ${at(T1)} one line`, `stderr ${at(T1)} err é`, `stdout ${at(T2)} two`, `stdout ${at(T2)} three`, 'stdout 0.0 bare'];

  void it('hands on each stream\'s lines with their stamps, the frames read whole in one chunk', () => {
    assert.deepEqual(lines(multiplexed, [wire]), expected);
    assert.deepEqual(lines(demuxed, [wire]), expected);
  });

  void it('hands on the same lines however the wire is cut in two, inside a header or a payload, and in 1-byte chunks', () => {
    for (let offset = 1; offset < wire.length; offset++) assert.deepEqual(lines(multiplexed, cutAt(wire, [offset])), expected, `cut at ${offset}`);
    assert.deepEqual(lines(multiplexed, cutAt(wire, Array.from({ length: wire.length }, (_, index) => index))), expected);
  });

  void it('shows a line past the bound cut with the marker, whole frames or one huge frame in pieces, and the next line whole', () => {
    const parts = Array.from({ length: 6 }, () => message('stdout', T1, 'x'.repeat(16 * KIB)));
    const huge = message('stderr', T2, `${'y'.repeat(100 * KIB)}\n`);
    const wire = frameBytes([...parts, message('stdout', T1, 'tail\n'), huge, message('stdout', T2, 'next\n'), message('stderr', T1, 'after\n')]);
    const want = [`stdout ${at(T1)} ${'x'.repeat(MAX_LINE_BYTES)}${LINE_CUT_MARKER}`, `stderr ${at(T2)} ${'y'.repeat(MAX_LINE_BYTES)}${LINE_CUT_MARKER}`, `stdout ${at(T2)} next`, `stderr ${at(T1)} after`];
    for (const size of [7, 4 * KIB, 64 * KIB, wire.length]) {
      const offsets = Array.from({ length: Math.ceil(wire.length / size) }, (_, index) => index * size);
      assert.deepEqual(lines(multiplexed, cutAt(wire, offsets)), want, `${size}-byte chunks`);
    }
  });

  void it('ends a cut line only at a frame ending in a newline, not at one inside a frame, however the frame is cut', () => {
    const first = message('stdout', T1, 'x'.repeat(MAX_LINE_BYTES + 1));
    const wire = frameBytes([first, message('stdout', T1, 'a\nb'), message('stdout', T1, 'c\n'), message('stdout', T1, 'd\n')]);
    const want = [`stdout ${at(T1)} ${'x'.repeat(MAX_LINE_BYTES)}${LINE_CUT_MARKER}`, `stdout ${at(T1)} d`];
    assert.deepEqual(lines(demuxed, [wire]), want);
    for (let offset = first.payload.length; offset < wire.length; offset++) assert.deepEqual(lines(multiplexed, cutAt(wire, [offset])), want, `cut at ${offset}`);
  });

  void it('cuts a message past its bound (the line\'s and the stamp\'s room) by bytes, as the demultiplexed path does', () => {
    // Two-byte characters: the line's bound (in characters) is not reached, only the message's (in bytes).
    const bound = MAX_LINE_BYTES + 36;
    for (const extra of [0, 1]) {
      const content = `${extra === 1 ? 'a' : ''}${'é'.repeat((bound - T1.length - 2) / 2)}`;
      const wire = frameBytes([message('stdout', T1, `${content}\n`)]);
      assert.equal(wire.length - 8, bound + extra);
      const want = [`stdout ${at(T1)} ${content}${extra === 1 ? LINE_CUT_MARKER : ''}`];
      assert.deepEqual(lines(multiplexed, [wire]), want, `${extra} byte(s) past the bound`);
      assert.deepEqual(lines(demuxed, [wire]), want);
    }
  });

  void it('hands on an unfinished line at a clean end, and throws at a frame cut short or an error frame', () => {
    assert.deepEqual(lines(multiplexed, [frameBytes([message('stderr', T1, 'half')])]), [`stderr ${at(T1)} half`]);
    const whole = frameBytes([message('stdout', T1, 'shown\n'), message('stdout', T1, 'lost\n')]);
    const shown: string[] = [];
    const splitter = new MessageSplitter(false, (_stream, _seconds, _nanos, text) => shown.push(text));
    splitter.push({ stream: 'stdout', data: whole.subarray(0, whole.length - 2), multiplexed: true });
    assert.throws(() => splitter.end(), /middle of a frame/);
    assert.deepEqual(shown, ['shown']);
    const failed = frameBytes([message('stdout', T1, 'before\n'), { stream: 'error', payload: Buffer.from('container gone') }]);
    assert.throws(() => lines(multiplexed, cutAt(failed, [40])), (error: Error & { engineMessage?: string }) => error.engineMessage === 'container gone');
  });

  void it('property: any frames in any chunks hand on what the demultiplexed frames do', () => {
    const stamps = [T1, T1, T2, '2026-11-23T10:38:35Z', ''];
    // Bytes that make characters cut short or invalid, also before a return and a newline.
    const rough = [0xe2, 0x82, 0xac, 0xf0, 0x9f, 0xc3, 0xff, 0x0d, 0x0a, 0x61];
    const texts = fc.oneof(
      { arbitrary: fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', ' ', '\n', '\r'), maxLength: 12 }), weight: 4 },
      { arbitrary: fc.array(fc.constantFrom(...rough), { maxLength: 8 }).map((bytes) => Buffer.from(bytes)), weight: 4 },
      {
        arbitrary: fc.tuple(fc.integer({ min: MAX_LINE_BYTES - 40, max: MAX_LINE_BYTES + 60 }), fc.constantFrom('a', 'é', '😀', 'a\r\n')).map(([bytes, unit]) => unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)))),
        weight: 1,
      },
    );
    const frame = fc.tuple(fc.constantFrom<OutputChunk['stream']>('stdout', 'stderr'), fc.nat({ max: stamps.length - 1 }), texts, fc.boolean());
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 6 }), (drawn, cuts) => {
        const wire = frameBytes(drawn.map(([stream, stamp, text, ends]) => message(stream, stamps[stamp] as string, ends ? Buffer.concat([Buffer.from(text), NEWLINE]) : text)));
        const chunks = cutAt(wire, cuts.map((each) => each % wire.length));
        assert.deepEqual(lines(multiplexed, chunks), lines(demuxed, chunks));
      }),
      { numRuns: 200 },
    );
  });
});
