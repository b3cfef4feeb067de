// The frame decoders' run of whole frames in one network chunk (the fast path) against a plain reference decode:
// every cut across chunks, 0-byte frames, stream switches, and the frames that end the stream (error, bad header).
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import fc from 'fast-check';
import { demux, EngineError, FrameDemuxer, FrameJoiner, FramePayloads, MAX_ERROR_FRAME_BYTES, type OutputChunk } from '../../../../src/engine/connection';
import { logFrame } from '../../../support/frames';

type Stream = OutputChunk['stream'];
interface Frame {
  readonly type: number;
  readonly payload: Buffer;
}
/** What a decode hands on: one entry per frame with a payload, what came of a frame cut short, how the stream ended. */
interface Decoded {
  readonly frames: Array<[Stream, string]>;
  readonly open: string;
  readonly ending: 'end' | 'cut' | 'server' | 'protocol';
  readonly message?: string;
}

/** A header alone, claiming SIZE whatever follows it (frames cut short, oversized error frames). */
function header(type: number, size: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes[0] = type;
  bytes.writeUInt32BE(size, 4);
  return bytes;
}

function wireOf(frames: readonly Frame[]): Buffer {
  return Buffer.concat(frames.map((frame) => logFrame(frame.type, frame.payload)));
}

/** The plain decode: the whole wire at once, a header then its payload, as the engine's framing reads. */
function reference(wire: Buffer): Decoded {
  const frames: Decoded['frames'] = [];
  let at = 0;
  while (at < wire.length) {
    if (wire.length - at < 8) return { frames, open: '', ending: 'cut' };
    const type = wire[at] as number;
    const size = wire.readUInt32BE(at + 4);
    if (type > 3) return { frames, open: '', ending: 'protocol', message: 'Unexpected frame header' };
    if (type === 3 && size > MAX_ERROR_FRAME_BYTES) return { frames, open: '', ending: 'protocol', message: 'error frame of' };
    const stream = type === 2 ? 'stderr' : 'stdout';
    const payload = wire.subarray(at + 8, at + 8 + size).toString('latin1');
    if (wire.length - at - 8 < size) {
      if (payload !== '' && type !== 3) frames.push([stream, payload]);
      return { frames, open: type === 3 ? '' : payload, ending: 'cut' };
    }
    if (type === 3) return { frames, open: '', ending: 'server', message: payload.trim() || 'unknown error' };
    if (size > 0) frames.push([stream, payload]);
    at += 8 + size;
  }
  return { frames, open: '', ending: 'end' };
}

function ending(error: unknown): Pick<Decoded, 'ending' | 'message'> {
  assert.ok(error instanceof EngineError, String(error));
  if (error.kind === 'server') return { ending: 'server', message: error.engineMessage };
  if (/middle of a frame/.test(error.message)) return { ending: 'cut' };
  assert.equal(error.kind, 'protocol');
  return { ending: 'protocol', message: /Unexpected frame header/.test(error.message) ? 'Unexpected frame header' : 'error frame of' };
}

/** Feeds CHUNKS to a decoder, then ends it; how it ended, and a failed decoder refusing more. */
function feed(decoder: { push(chunk: Buffer): void; end(): void }, chunks: readonly Buffer[]): Pick<Decoded, 'ending' | 'message'> {
  try {
    for (const chunk of chunks) decoder.push(chunk);
    decoder.end();
    return { ending: 'end' };
  } catch (error) {
    if (!/middle of a frame/.test(String(error))) assert.throws(() => decoder.push(Buffer.alloc(1)), /used after it failed/);
    return ending(error);
  }
}

/** The payload ranges a FramePayloads hands on, put together per frame; each range's flags checked on the way. */
function viaPayloads(chunks: readonly Buffer[]): Decoded {
  const frames: Decoded['frames'] = [];
  let open = '';
  let lastStream: Stream = 'stdout';
  const decoder = new FramePayloads((stream, source, start, end, frameEnd, wholeFrame) => {
    assert.ok(end > start, 'an empty range');
    lastStream = stream;
    const text = source.toString('latin1', start, end);
    assert.equal(wholeFrame, open === '' && frameEnd, 'wholeFrame is a whole payload');
    open += text;
    if (frameEnd) {
      frames.push([stream, open]);
      open = '';
    }
  });
  const result = feed(decoder, chunks);
  if (open !== '') frames.push([lastStream, open]);
  return { frames, open, ...result };
}

function viaDemuxer(chunks: readonly Buffer[]): Decoded {
  const frames: Decoded['frames'] = [];
  let open = '';
  let lastStream: Stream = 'stdout';
  const decoder = new FrameDemuxer((chunk) => {
    assert.ok(chunk.data.length > 0, 'an empty chunk');
    lastStream = chunk.stream;
    open += chunk.data.toString('latin1');
    if (chunk.frameEnd === true) {
      frames.push([chunk.stream, open]);
      open = '';
    }
  });
  const result = feed(decoder, chunks);
  if (open !== '') frames.push([lastStream, open]);
  return { frames, open, ...result };
}

/** A joiner's runs, taken after each network chunk (as demux() does), and the stream switches seen. */
function viaJoiner(chunks: readonly Buffer[]): { runs: Array<[Stream, string]>; ending: Decoded['ending']; message?: string } {
  const joiner = new FrameJoiner();
  const runs: Array<[Stream, string]> = [];
  const collect = (): void => {
    for (const chunk of joiner.take()) runs.push([chunk.stream, chunk.data.toString('latin1')]);
  };
  const push = (chunk: Buffer): void => {
    joiner.push(chunk);
    collect();
  };
  const result = feed({ push, end: () => joiner.end() }, chunks);
  collect();
  return { runs, ...result };
}

/** Adjacent entries of one stream joined: what a joiner must hand on, however it cut its runs. */
function merged(entries: ReadonlyArray<[Stream, string]>): Array<[Stream, string]> {
  const out: Array<[Stream, string]> = [];
  for (const [stream, text] of entries) {
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === stream) last[1] += text;
    else out.push([stream, text]);
  }
  return out;
}

function assertAllDecoders(chunks: readonly Buffer[], want: Decoded, label: string): void {
  assert.deepEqual(viaPayloads(chunks), want, `FramePayloads, ${label}`);
  assert.deepEqual(viaDemuxer(chunks), want, `FrameDemuxer, ${label}`);
  const joined = viaJoiner(chunks);
  assert.deepEqual(merged(joined.runs), merged(want.frames), `FrameJoiner, ${label}`);
  assert.deepEqual({ ending: joined.ending, message: joined.message }, { ending: want.ending, message: want.message }, `FrameJoiner ending, ${label}`);
}

/** WIRE in two chunks at every cut, and byte by byte; each chunk a copy, as reads allocate them. */
function everyCut(wire: Buffer): Array<[string, Buffer[]]> {
  const cuts: Array<[string, Buffer[]]> = [['whole', [Buffer.from(wire)]]];
  // An empty read between the two halves must hand on nothing of its own.
  for (let at = 1; at < wire.length; at++) cuts.push([`cut at ${at}`, [Buffer.from(wire.subarray(0, at)), Buffer.alloc(0), Buffer.from(wire.subarray(at))]]);
  cuts.push(['byte by byte', [...wire].map((byte) => Buffer.from([byte]))]);
  return cuts;
}

const text = (value: string): Buffer => Buffer.from(value, 'latin1');

void describe('frame decoders: whole frames in one chunk, and the same frames cut anywhere', () => {
  const cases: Array<[string, Buffer]> = [
    ['tiny frames, stdout and stderr alternating', wireOf([{ type: 1, payload: text('a') }, { type: 2, payload: text('E') }, { type: 1, payload: text('bc') }, { type: 0, payload: text('in') }, { type: 2, payload: text('FG') }])],
    ['0-byte frames between and around others', wireOf([{ type: 1, payload: text('') }, { type: 1, payload: text('x') }, { type: 2, payload: text('') }, { type: 1, payload: text('y') }, { type: 0, payload: text('') }])],
    ['an error frame after good frames', wireOf([{ type: 1, payload: text('ok\n') }, { type: 2, payload: text('warn\n') }, { type: 3, payload: text('error from daemon: disk full\n') }])],
    ['an empty error frame after good frames', wireOf([{ type: 1, payload: text('ok') }, { type: 3, payload: text('') }])],
    ['an error frame over the bound after good frames', Buffer.concat([wireOf([{ type: 1, payload: text('ok') }]), header(3, MAX_ERROR_FRAME_BYTES + 1), text('never read')])],
    ['a malformed header after good frames', Buffer.concat([wireOf([{ type: 1, payload: text('ok') }, { type: 2, payload: text('e') }]), text('hello world, raw tty text')])],
    ['a payload cut by the end of the stream', wireOf([{ type: 1, payload: text('ok') }, { type: 2, payload: text('cut short') }]).subarray(0, 22)],
    ['a header cut by the end of the stream', wireOf([{ type: 1, payload: text('ok') }, { type: 2, payload: text('next') }]).subarray(0, 14)],
  ];
  for (const [name, wire] of cases) {
    void it(`${name}: every decoder hands on what the plain decode reads, however the chunks are cut`, () => {
      const want = reference(wire);
      for (const [label, chunks] of everyCut(wire)) assertAllDecoders(chunks, want, label);
    });
  }

  void it('the reference names each ending the decoders must reach', () => {
    assert.deepEqual(cases.map(([, wire]) => reference(wire).ending), ['end', 'end', 'server', 'server', 'protocol', 'protocol', 'cut', 'cut']);
    assert.equal(reference(cases[2]?.[1] as Buffer).message, 'error from daemon: disk full');
  });

  void it('the joiner makes one chunk per stream switch in a network chunk, not one per frame, and skips 0-byte frames', () => {
    const frames = Array.from({ length: 1000 }, (_, index) => ({ type: index % 2 === 0 ? 1 : 0, payload: text(index % 3 === 0 ? '' : 'x') }));
    frames.splice(500, 0, { type: 2, payload: text('E') }, { type: 2, payload: text('') });
    const joiner = new FrameJoiner();
    joiner.push(wireOf(frames));
    const runs = joiner.take().map((chunk) => [chunk.stream, chunk.data.length, chunk.frameEnd]);
    assert.deepEqual(runs, [
      ['stdout', 333, true],
      ['stderr', 1, true],
      ['stdout', 333, true],
    ]);
  });

  void it('demux() hands on the output before an error frame in the same network chunk, then throws the daemon message', async () => {
    const wire = wireOf([{ type: 1, payload: text('last words\n') }, { type: 2, payload: text('warn\n') }, { type: 3, payload: text('disk full') }]);
    async function* once(): AsyncGenerator<Buffer> {
      await Promise.resolve();
      yield wire;
    }
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const chunk of demux(once())) seen.push(`${chunk.stream}:${chunk.data.toString('latin1')}`);
    }, (error: unknown) => error instanceof EngineError && error.engineMessage === 'disk full');
    assert.deepEqual(seen, ['stdout:last words\n', 'stderr:warn\n']);
  });

  void it('the joiner grows its buffer geometrically when a run is fed in tiny network chunks before a take', () => {
    const wire = wireOf(Array.from({ length: 20_000 }, () => ({ type: 1, payload: text('z') })));
    const joiner = new FrameJoiner();
    const allocations = mock.method(Buffer, 'allocUnsafe');
    try {
      for (let at = 0; at < wire.length; at += 3) joiner.push(wire.subarray(at, at + 3));
    } finally {
      allocations.mock.restore();
    }
    const [only, ...rest] = joiner.take();
    assert.equal(rest.length, 0);
    assert.equal(only?.data.toString('latin1'), 'z'.repeat(20_000));
    // Doubling from 16 KiB: one buffer for the run, whatever the number of pushes.
    assert.ok(allocations.mock.callCount() <= 2, `${allocations.mock.callCount()} allocations`);
  });

  const frameArbitrary = fc.record({
    type: fc.constantFrom(0, 1, 2),
    payload: fc.oneof(fc.constant(''), fc.string({ maxLength: 3 }), fc.string({ maxLength: 100 })).map((value) => text(value)),
  });
  const endingArbitrary = fc.constantFrom<Buffer[]>(
    [],
    [wireOf([{ type: 3, payload: text('daemon says no') }])],
    [header(3, MAX_ERROR_FRAME_BYTES + 1)],
    [header(7, 1), text('x')],
    [header(1, 5), text('cut')],
  );

  void it('property: any frames, any ending, any cuts: every decoder agrees with the plain decode', () => {
    fc.assert(
      fc.property(fc.array(frameArbitrary, { maxLength: 40 }), endingArbitrary, fc.array(fc.nat(), { maxLength: 12 }), (frames, tail, cuts) => {
        const wire = Buffer.concat([wireOf(frames), ...tail]);
        const points = [...new Set(cuts.map((cut) => cut % (wire.length + 1)))].sort((a, b) => a - b);
        const bounds = [0, ...points, wire.length];
        const chunks = bounds.slice(1).map((end, index) => Buffer.from(wire.subarray(bounds[index], end))).filter((chunk) => chunk.length > 0);
        assertAllDecoders(chunks, reference(wire), `cut at ${points.join(',')}`);
      }),
      { numRuns: 400 },
    );
  });
});
