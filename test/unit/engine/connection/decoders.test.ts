// The stream decoders under every chunking: byte by byte, coalesced, and random splits (fast-check).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  EngineError,
  FrameDemuxer,
  JsonLineDecoder,
  demux,
  FrameJoiner,
  jsonLines,
  progressLines,
  type OutputChunk,
  type ProgressLine,
} from '../../../../src/engine';
import { splitAt } from '../../../support/chunks';
import { logFrame } from '../../../support/frames';

type Frame = { type: 0 | 1 | 2; payload: Buffer };

function byteByByte(bytes: Buffer): Buffer[] {
  return [...bytes].map((byte) => Buffer.from([byte]));
}

/** Feeds chunks to a demuxer and concatenates what each stream received. */
function demuxChunks(chunks: Buffer[]): { stdout: Buffer; stderr: Buffer; order: string[] } {
  const out: OutputChunk[] = [];
  const demuxer = new FrameDemuxer((chunk) => out.push({ stream: chunk.stream, data: Buffer.from(chunk.data) }));
  for (const chunk of chunks) demuxer.push(chunk);
  demuxer.end();
  const pick = (stream: string): Buffer => Buffer.concat(out.filter((chunk) => chunk.stream === stream).map((chunk) => chunk.data));
  return { stdout: pick('stdout'), stderr: pick('stderr'), order: out.map((chunk) => chunk.stream) };
}

function expected(frames: Frame[]): { stdout: Buffer; stderr: Buffer } {
  const pick = (want: (type: number) => boolean): Buffer =>
    Buffer.concat(frames.filter((frame) => want(frame.type)).map((frame) => frame.payload));
  return { stdout: pick((type) => type === 0 || type === 1), stderr: pick((type) => type === 2) };
}

async function* fromChunks(chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) {
    await Promise.resolve();
    yield chunk;
  }
}

const frameArbitrary = fc.record({
  type: fc.constantFrom<0 | 1 | 2>(0, 1, 2),
  payload: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
});

void describe('FrameDemuxer', () => {
  const frames: Frame[] = [
    { type: 1, payload: Buffer.from('hello\n') },
    { type: 2, payload: Buffer.from('oops: ünïcödé ✓\n') },
    { type: 0, payload: Buffer.from('stdin shown as stdout\n') },
    { type: 1, payload: Buffer.alloc(0) },
    { type: 2, payload: Buffer.alloc(70_000, 0x61) },
  ];
  const wire = Buffer.concat(frames.map((frame) => logFrame(frame.type, frame.payload)));

  void it('keeps stdout and stderr apart when all frames arrive in one chunk', () => {
    const result = demuxChunks([wire]);
    assert.deepEqual(result.stdout, expected(frames).stdout);
    assert.deepEqual(result.stderr, expected(frames).stderr);
  });

  void it('decodes the same bytes fed one byte at a time', () => {
    const result = demuxChunks(byteByByte(wire));
    assert.deepEqual(result.stdout, expected(frames).stdout);
    assert.deepEqual(result.stderr, expected(frames).stderr);
  });

  void it('hands out views into the incoming chunk rather than copies', () => {
    const seen: Buffer[] = [];
    const demuxer = new FrameDemuxer((chunk) => seen.push(chunk.data));
    const single = logFrame(1, Buffer.from('zero-copy'));
    demuxer.push(single);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.buffer, single.buffer);
    assert.equal(seen[0]?.toString(), 'zero-copy');
  });

  void it('is correct for random frames under random splits', () => {
    fc.assert(
      fc.property(fc.array(frameArbitrary, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 30 }), (randomFrames, cuts) => {
        const bytes = Buffer.concat(randomFrames.map((frame) => logFrame(frame.type, frame.payload)));
        const result = demuxChunks(splitAt(bytes, cuts));
        const want = expected(randomFrames);
        assert.deepEqual(result.stdout, want.stdout);
        assert.deepEqual(result.stderr, want.stderr);
      }),
      { numRuns: 300 },
    );
  });

  void it('throws the daemon message of a type-3 frame, even when the frame is split', () => {
    const bytes = Buffer.concat([logFrame(1, Buffer.from('before\n')), logFrame(3, Buffer.from('error from daemon: disk full'))]);
    for (const chunks of [[bytes], byteByByte(bytes), splitAt(bytes, [3, 9, 17, 20])]) {
      const out: string[] = [];
      const demuxer = new FrameDemuxer((chunk) => out.push(chunk.data.toString()));
      assert.throws(
        () => chunks.forEach((chunk) => demuxer.push(chunk)),
        (error: unknown) =>
          error instanceof EngineError &&
          error.kind === 'server' &&
          error.engineMessage === 'error from daemon: disk full' &&
          error.message.startsWith('error from daemon: disk full'),
      );
      assert.equal(out.join(''), 'before\n');
    }
  });

  void it('reports a stream cut in the middle of a frame', () => {
    const bytes = logFrame(1, Buffer.from('truncated payload'));
    const demuxer = new FrameDemuxer(() => undefined);
    demuxer.push(bytes.subarray(0, 12));
    assert.throws(() => demuxer.end(), /closed the output stream in the middle of a frame/);
  });

  void it('rejects a header that is not a frame, hinting at TTY output', () => {
    const demuxer = new FrameDemuxer(() => undefined);
    assert.throws(
      () => demuxer.push(Buffer.from('hello world, raw tty text')),
      (error: unknown) => error instanceof EngineError && error.kind === 'protocol' && /TTY/.test(error.message),
    );
  });

  void it('demux() yields the same chunks from an async source', async () => {
    const out: OutputChunk[] = [];
    for await (const chunk of demux(fromChunks(splitAt(wire, [5, 11, 40, 1000])))) out.push(chunk);
    const stdout = Buffer.concat(out.filter((chunk) => chunk.stream === 'stdout').map((chunk) => chunk.data));
    assert.deepEqual(stdout, expected(frames).stdout);
  });
});

void describe('FrameJoiner (berth logs and run to a stream)', () => {
  void it('joins each run of one stream into one chunk, keeps the order across streams and the last frameEnd', () => {
    const joiner = new FrameJoiner();
    const wire = Buffer.concat([logFrame(1, Buffer.from('a\n')), logFrame(0, Buffer.from('b\n')), logFrame(2, Buffer.from('E\n')), logFrame(1, Buffer.from('cd'))]);
    // The last frame is cut: its first byte comes with this network chunk, the other with the next.
    joiner.push(wire.subarray(0, wire.length - 1));
    const first = joiner.take();
    joiner.push(wire.subarray(wire.length - 1));
    joiner.end();
    assert.deepEqual(
      [...first, ...joiner.take()].map((part) => [part.stream, part.data.toString(), part.frameEnd]),
      [
        ['stdout', 'a\nb\n', true],
        ['stderr', 'E\n', true],
        ['stdout', 'c', false],
        ['stdout', 'd', true],
      ],
    );
  });

  void it('passes a lone payload on as a view into the network chunk, without a copy', () => {
    const joiner = new FrameJoiner();
    const wire = logFrame(1, Buffer.from('alone'));
    joiner.push(wire);
    const [only] = joiner.take();
    assert.equal(only?.data.buffer, wire.buffer);
    assert.equal(only?.data.toString(), 'alone');
  });

  void it('still throws the daemon message of a type-3 frame', () => {
    const joiner = new FrameJoiner();
    assert.throws(() => joiner.push(Buffer.concat([logFrame(1, Buffer.from('out')), logFrame(3, Buffer.from('daemon says no'))])), /daemon says no/);
  });

  void it('demux() gives each stream the same bytes, one chunk per run in a network chunk', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(frameArbitrary, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 10 }), async (randomFrames, cuts) => {
        const bytes = Buffer.concat(randomFrames.map((frame) => logFrame(frame.type, frame.payload)));
        const networkChunks = splitAt(bytes, cuts);
        const out: OutputChunk[] = [];
        for await (const part of demux(fromChunks(networkChunks))) {
          out.push({ stream: part.stream, data: Buffer.from(part.data) });
        }
        const pick = (stream: string): Buffer => Buffer.concat(out.filter((part) => part.stream === stream).map((part) => part.data));
        const want = expected(randomFrames);
        assert.deepEqual(pick('stdout'), want.stdout);
        assert.deepEqual(pick('stderr'), want.stderr);
        // At most one chunk per stream switch in each network chunk: never one per frame.
        const switches = randomFrames.filter((frame, index) => index > 0 && (frame.type === 2) !== (randomFrames[index - 1]?.type === 2)).length;
        assert.ok(out.length <= networkChunks.length + switches, `${out.length} chunks from ${networkChunks.length} network chunks`);
      }),
      { numRuns: 200 },
    );
  });
});

void describe('JsonLineDecoder', () => {
  const values = [
    { status: 'Pulling from berth/busybox', id: '1.0' },
    { status: 'Downloading', progressDetail: { current: 10, total: 100 }, id: 'abc' },
    { status: 'Ünïcödé ✓ 日本語 🚢' },
    { Type: 'container', Action: 'start', Actor: { ID: 'x', Attributes: { name: 'é' } }, time: 1, timeNano: 1 },
  ];

  function decodeAll(chunks: Buffer[]): unknown[] {
    const out: unknown[] = [];
    const decoder = new JsonLineDecoder((value) => out.push(value));
    for (const chunk of chunks) decoder.push(chunk);
    decoder.end();
    return out;
  }

  for (const newline of ['\n', '\r\n']) {
    const wire = Buffer.from(values.map((value) => JSON.stringify(value) + newline).join(''), 'utf8');
    const label = JSON.stringify(newline);

    void it(`decodes ${label}-terminated lines coalesced in one chunk`, () => {
      assert.deepEqual(decodeAll([wire]), values);
    });

    void it(`decodes ${label}-terminated lines byte by byte, including split UTF-8 characters`, () => {
      assert.deepEqual(decodeAll(byteByByte(wire)), values);
    });
  }

  void it('is correct under random splits of random lines (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ status: fc.string({ unit: 'grapheme', maxLength: 40 }), n: fc.integer() }).map((line) => ({ ...line })),
          { maxLength: 15 },
        ),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 25 }),
        (lines, crlf, cuts) => {
          const bytes = Buffer.from(lines.map((line) => JSON.stringify(line) + (crlf ? '\r\n' : '\n')).join(''), 'utf8');
          assert.deepEqual(decodeAll(splitAt(bytes, cuts)), lines);
        },
      ),
      { numRuns: 300 },
    );
  });

  void it('keeps a last line that has no newline', () => {
    assert.deepEqual(decodeAll([Buffer.from('{"a":1}\n{"b":'), Buffer.from('2}')]), [{ a: 1 }, { b: 2 }]);
  });

  void it('skips blank lines', () => {
    assert.deepEqual(decodeAll([Buffer.from('\n\r\n{"a":1}\n\n')]), [{ a: 1 }]);
  });

  void it('hands on each line\'s own text, leading blanks left out, whether its chunk holds many lines or a part of one', () => {
    const texts: string[] = [];
    const decoder = new JsonLineDecoder((_value, text) => texts.push(text));
    for (const chunk of ['{"a":1}\n  {"é":"€"}\r\n \t\n{"timeNano":17', '95430315913673355}\n{"b":2}\n{"c":', '3}\n']) decoder.push(Buffer.from(chunk, 'utf8'));
    decoder.end();
    assert.deepEqual(texts, ['{"a":1}', '{"é":"€"}\r', '{"timeNano":1795430315913673355}', '{"b":2}', '{"c":3}']);
  });

  void it('names a line that is not JSON', () => {
    assert.throws(() => decodeAll([Buffer.from('{"a":1}\nnot json at all\n')]), /The engine sent a line that is not JSON: not json at all/);
  });

  void it('refuses a line of two values among good lines as the line it is, after the values before it', () => {
    const out: unknown[] = [];
    const decoder = new JsonLineDecoder((value) => out.push(value));
    assert.throws(() => decoder.push(Buffer.from('{"a":1}\n{"b":2},{"c":3}\n{"d":4}\n')), /not JSON: \{"b":2\},\{"c":3\}/);
    assert.deepEqual(out, [{ a: 1 }]);
  });

  void it('reads no string across a line break, even where another line would make up the count', () => {
    // Joined with plain commas these three broken lines would parse as three values: "x,y", 1 and 2.
    assert.throws(() => decodeAll([Buffer.from('"x\ny"\n1,2\n')]), /not JSON: "x$/);
  });

  void it('property: good lines and one bad line in one chunk give the values and the error of a line-by-line parse', () => {
    const good = fc.oneof(
      fc.record({ status: fc.string({ unit: 'grapheme', maxLength: 12 }), n: fc.integer() }).map((value) => JSON.stringify(value)),
      fc.constantFrom('null', '1', '"s"', '[]', '{}', ' {"a":[1,{"b":2}]}', '\t[1, 2]\r'),
    );
    const bad = fc.constantFrom('', ' ', '1,2', '{"a":1},{"b":2}', '[1', '2]', '1],[2', '{"a":', '"x', 'y"', '}', 'nul', '{"a":1}}');
    fc.assert(
      fc.property(fc.array(good, { maxLength: 12 }), fc.option(bad), fc.nat(), (lines, badLine, at) => {
        const all = [...lines];
        if (badLine !== null) all.splice(at % (all.length + 1), 0, badLine);
        const expected: unknown[] = [];
        let expectedError: string | undefined;
        for (const line of all) {
          if (line.trim() === '') continue;
          try {
            expected.push(JSON.parse(line));
          } catch {
            expectedError = `The engine sent a line that is not JSON: ${line.trim()}`;
            break;
          }
        }
        const out: unknown[] = [];
        const decoder = new JsonLineDecoder((value) => out.push(value));
        let error: string | undefined;
        try {
          decoder.push(Buffer.from(all.map((line) => `${line}\n`).join(''), 'utf8'));
          decoder.end();
        } catch (caught) {
          error = (caught as Error).message;
        }
        assert.equal(error, expectedError);
        assert.deepEqual(out, expected);
      }),
      { numRuns: 500 },
    );
  });

  void it('jsonLines() decodes an async source', async () => {
    const wire = Buffer.from(values.map((value) => JSON.stringify(value) + '\r\n').join(''));
    const out: unknown[] = [];
    for await (const value of jsonLines(fromChunks(splitAt(wire, [1, 2, 3, 50, 51, 120])))) out.push(value);
    assert.deepEqual(out, values);
  });
});

void describe('progressLines', () => {
  const ok = '{"status":"Pulling from berth/busybox","id":"1.0"}\r\n';
  const failure =
    '{"errorDetail":{"message":"manifest for 127.0.0.1:5055/berth/busybox:nope not found: manifest unknown: manifest unknown"},"error":"manifest for 127.0.0.1:5055/berth/busybox:nope not found: manifest unknown: manifest unknown"}\r\n';

  async function consume(chunks: Buffer[]): Promise<{ lines: ProgressLine[]; error: unknown }> {
    const lines: ProgressLine[] = [];
    try {
      for await (const line of progressLines(fromChunks(chunks))) lines.push(line);
      return { lines, error: undefined };
    } catch (error) {
      return { lines, error };
    }
  }

  void it('throws the registry message of an errorDetail line however it is split', async () => {
    const bytes = Buffer.from(ok + failure, 'utf8');
    for (const chunks of [[bytes], byteByByte(bytes), splitAt(bytes, [10, 60, 61, 200])]) {
      const { lines, error } = await consume(chunks);
      assert.equal(lines.length, 1);
      assert.ok(error instanceof EngineError);
      assert.equal(error.kind, 'not-found');
      assert.equal(error.engineMessage, 'manifest for 127.0.0.1:5055/berth/busybox:nope not found: manifest unknown: manifest unknown');
      assert.match(error.message, /^manifest for 127\.0\.0\.1:5055\/berth\/busybox:nope not found: manifest unknown: manifest unknown\. Check the image name and tag$/);
    }
  });

  void it('classifies an authentication failure and says to sign in', async () => {
    const line = '{"errorDetail":{"message":"Get \\"http://127.0.0.1:5055/v2/berth/busybox/manifests/1.0\\": no basic auth credentials"},"error":"x"}\n';
    const { error } = await consume([Buffer.from(line)]);
    assert.ok(error instanceof EngineError);
    assert.equal(error.kind, 'unauthorized');
    assert.match(error.message, /no basic auth credentials\. Sign in to the registry/);
  });

  void it('passes ordinary progress lines through', async () => {
    const { lines, error } = await consume([Buffer.from(ok + ok)]);
    assert.equal(error, undefined);
    assert.deepEqual(lines, [JSON.parse(ok), JSON.parse(ok)]);
  });
});
