// Every line splitter of a stream a container or an engine controls (docs/security.md, "Line splitters"): a line
// longer than the bound is never held whole, and the work grows linearly with the input, counted in operations
// (bytes copied, scanned and decoded, elements moved; test/support/operationCount.ts), never timed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BuildOutputDecoder, JsonLineDecoder, type OutputChunk } from '../../../../src/engine';
import { LINE_CUT_MARKER, MAX_LINE_BYTES } from '../../../../src/engine/connection';
import { MessageSplitter, splitStamp } from '../../../../src/engine/compose';
import { LogMessageReader } from '../../../../src/logs/logMessages';
import { assertLinear } from '../../../support/operationCount';
import { logFrame } from '../../../support/frames';

const STAMP = '2026-11-23T10:38:35.913673355Z';
const KIB = 1024;

/**
 * One line of `total` content bytes written without a newline but the last, as the engine sends it: messages of
 * `size` bytes, each behind its stamp. Non-TTY: one chunk per frame (frameEnd); TTY: the raw bytes, no frames.
 */
function lineMessages(total: number, size: number, tty: boolean): OutputChunk[] {
  const chunks: OutputChunk[] = [];
  for (let at = 0; at < total; at += size) {
    const length = Math.min(size, total - at);
    const last = at + length >= total;
    const data = Buffer.from(`${STAMP} ${'x'.repeat(length)}${last ? '\n' : ''}`, 'latin1');
    chunks.push(tty ? { stream: 'stdout', data } : { stream: 'stdout', data, frameEnd: true });
  }
  return chunks;
}

function composeLines(chunks: readonly OutputChunk[], tty: boolean): string[] {
  const lines: string[] = [];
  const splitter = new MessageSplitter(tty, (_stream, _seconds, _nanos, text) => lines.push(text));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
}

function logLines(chunks: readonly OutputChunk[], tty: boolean): string[] {
  const lines: string[] = [];
  const reader = new LogMessageReader((_stream, text) => lines.push(text));
  for (const chunk of chunks) reader.push(chunk, !tty);
  reader.end(true);
  return lines;
}

const MESSAGE_SIZES: ReadonlyArray<readonly [string, number, number]> = [
  // [name, message size, content of the smaller run]: the 1-byte runs cross the 64 KiB bounds between the two sizes.
  ['1-byte', 1, 20 * KIB],
  ['1 KiB', KIB, 64 * KIB],
  ['16 KiB', 16 * KIB, 256 * KIB],
];

void describe('compose logs splitter (engine/compose/composeMessages.ts)', () => {
  for (const tty of [false, true]) {
    const mode = tty ? 'TTY' : 'no TTY';
    void it(`${mode}: a line past the bound is shown cut with the marker, and the next line comes whole`, () => {
      const chunks = [...lineMessages(200 * KIB, 16 * KIB, tty), ...lineMessages(5, 5, tty)];
      const lines = composeLines(chunks, tty);
      assert.equal(lines.length, 2, `lines: ${lines.map((line) => line.length).join(', ')}`);
      // With a TTY the engine's stamps of later reads stay inside the line, as they always did: only the size counts.
      const first = lines[0] ?? '';
      if (!tty) assert.equal(first, 'x'.repeat(MAX_LINE_BYTES) + LINE_CUT_MARKER);
      assert.equal(first.length, MAX_LINE_BYTES + LINE_CUT_MARKER.length);
      assert.ok(first.endsWith(LINE_CUT_MARKER), first.slice(-80));
      assert.equal(lines[1], 'xxxxx');
    });

    for (const [name, size, total] of MESSAGE_SIZES) {
      void it(`${mode}, ${name} messages: 4× the input costs at most 8× the operations`, () => {
        const feeds = new Map([total, total * 4].map((each) => [each, lineMessages(each, size, tty)]));
        assertLinear(`compose ${mode} ${name}`, (scale) => composeLines(feeds.get(scale) as OutputChunk[], tty), total);
      });
    }
  }
});

void it('compose logs: each line carries its own stamp\'s instant, whether the stamp repeats, changes or is missing', () => {
  const stamps = [STAMP, STAMP, '2026-11-23T10:38:35.913673356Z', '2026-11-23T10:38:36Z', '2026-11-23T11:38:36.5+01:00', '2026-11-23T10:38:36.5Z', ''];
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat({ max: stamps.length - 1 }), fc.constantFrom('a', ' b', '', 'x y')), { minLength: 1, maxLength: 30 }), fc.boolean(), (drawn, tty) => {
      const messages = drawn.map(([index, text]) => `${stamps[index] as string}${index === stamps.length - 1 ? '' : ' '}${text}\n`);
      const got: string[] = [];
      const splitter = new MessageSplitter(tty, (_stream, seconds, nanos, text) => got.push(`${seconds}.${nanos} ${text}`));
      for (const message of messages) splitter.push({ stream: 'stdout', data: Buffer.from(message, 'latin1'), frameEnd: true });
      splitter.end();
      const expected = messages.map((message) => {
        const stamped = splitStamp(message) ?? { seconds: 0, nanos: 0, text: message };
        return `${stamped.seconds}.${stamped.nanos} ${stamped.text.slice(0, -1)}`;
      });
      assert.deepEqual(got, expected);
    }),
    { numRuns: 200 },
  );
});

void describe('engine log reader (logs/logMessages.ts)', () => {
  void it('one huge non-TTY frame is shown cut with the marker while it arrives, not held whole', () => {
    const pieces: string[] = [];
    const reader = new LogMessageReader((_stream, text) => pieces.push(text));
    const frame = Buffer.from(`${STAMP} ${'y'.repeat(1024 * KIB)}\n`, 'latin1');
    let handedBeforeEnd = 0;
    for (let at = 0; at < frame.length; at += 4 * KIB) {
      const end = Math.min(frame.length, at + 4 * KIB);
      reader.push({ stream: 'stdout', data: frame.subarray(at, end), frameEnd: end === frame.length }, true);
      if (end < frame.length) handedBeforeEnd = pieces.length;
    }
    assert.equal(handedBeforeEnd, 1, 'the cut line was handed on before the frame ended');
    assert.deepEqual(pieces, ['y'.repeat(MAX_LINE_BYTES) + LINE_CUT_MARKER, '\n']);
  });

  for (const tty of [false, true]) {
    const mode = tty ? 'TTY' : 'no TTY';
    void it(`${mode}: a line past the bound is shown cut with the marker, and the next line comes whole`, () => {
      const lines = logLines([...lineMessages(200 * KIB, 16 * KIB, tty), ...lineMessages(5, 5, tty)], tty);
      assert.deepEqual(lines, ['x'.repeat(MAX_LINE_BYTES) + LINE_CUT_MARKER, '\n', 'xxxxx\n']);
    });
  }

  void it('property: any lines in any messages and chunks show as the lines, each past 64 KiB cut with the marker', () => {
    const lineArb = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', ' ', '\t'), maxLength: 40 }),
      fc.tuple(fc.integer({ min: MAX_LINE_BYTES - 8, max: MAX_LINE_BYTES + 300 }), fc.constantFrom('a', 'é', '😀')).map(([bytes, unit]) => unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)))),
    );
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: 70_000 }), fc.boolean(), (texts, messageSize, chunkSize, tty) => {
        // The engine's wire: each line cut into messages of messageSize bytes behind a stamp, read in chunkSize chunks.
        const messages: Buffer[] = [];
        for (const text of texts) {
          const line = Buffer.from(`${text}\n`, 'utf8');
          for (let at = 0; at < line.length; at += messageSize) messages.push(Buffer.concat([Buffer.from(`${STAMP} `), line.subarray(at, at + messageSize)]));
        }
        const lines: string[] = [];
        const reader = new LogMessageReader((_stream, text) => lines.push(text));
        if (tty) {
          const wire = Buffer.concat(messages);
          for (let at = 0; at < wire.length; at += chunkSize) reader.push({ stream: 'stdout', data: wire.subarray(at, at + chunkSize) }, false);
        } else {
          for (const message of messages) reader.push({ stream: 'stdout', data: message, frameEnd: true }, true);
        }
        reader.end(true);
        const expected = texts.flatMap((text) => {
          const bytes = Buffer.from(`${text}\n`, 'utf8');
          if (bytes.length <= MAX_LINE_BYTES) return [`${text}\n`];
          let end = MAX_LINE_BYTES;
          while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
          return [bytes.toString('utf8', 0, end) + LINE_CUT_MARKER, '\n'];
        });
        assert.deepEqual(lines, expected);
      }),
      { numRuns: 60 },
    );
  });

  for (const tty of [false, true]) {
    const mode = tty ? 'TTY' : 'no TTY';
    for (const [name, size, total] of MESSAGE_SIZES) {
      void it(`${mode}, ${name} messages: 4× the input costs at most 8× the operations`, () => {
        const feeds = new Map([total, total * 4].map((each) => [each, lineMessages(each, size, tty)]));
        assertLinear(`logs ${mode} ${name}`, (scale) => logLines(feeds.get(scale) as OutputChunk[], tty), total);
      });
    }
  }
});

/** The same line as the engine's response bytes without a TTY: its frames, in 64 KiB chunks (`rawFrames`). */
function lineFrames(total: number, size: number): Buffer[] {
  const frames = lineMessages(total, size, false).map(({ data }) => logFrame(1, data));
  const wire = Buffer.concat(frames);
  const chunks: Buffer[] = [];
  for (let at = 0; at < wire.length; at += 64 * KIB) chunks.push(wire.subarray(at, at + 64 * KIB));
  return chunks;
}

void describe('engine log reader taking the frames itself (logs/logMessages.ts, multiplexed chunks)', () => {
  for (const [name, size, total] of MESSAGE_SIZES) {
    void it(`no TTY, ${name} frames: the line is cut with the marker, and 4× the input costs at most 8× the operations`, () => {
      const read = (chunks: readonly Buffer[]): string[] => {
        const lines: string[] = [];
        const reader = new LogMessageReader((_stream, text) => lines.push(text));
        for (const data of chunks) reader.push({ stream: 'stdout', data, multiplexed: true }, true);
        reader.end(true);
        return lines;
      };
      const feeds = new Map([total, total * 4].map((each) => [each, lineFrames(each, size)]));
      assertLinear(`logs frames ${name}`, (scale) => {
        // The content is the x's and the newline; lines are compared by size and end, so that a failure stays short.
        const shape = (lines: readonly string[]): string[] => lines.map((line) => `${line.length} ${line.replace(/^x+/, 'x…')}`);
        const expected = scale + 1 > MAX_LINE_BYTES ? ['x'.repeat(MAX_LINE_BYTES) + LINE_CUT_MARKER, '\n'] : ['x'.repeat(scale) + '\n'];
        assert.deepEqual(shape(read(feeds.get(scale) as Buffer[])), shape(expected));
      }, total);
    });
  }
});

void describe('compose logs splitter taking the frames itself (engine/compose/composeMessages.ts, multiplexed chunks)', () => {
  for (const [name, size, total] of MESSAGE_SIZES) {
    void it(`no TTY, ${name} frames: the line is cut with the marker, and 4× the input costs at most 8× the operations`, () => {
      const read = (chunks: readonly Buffer[]): string[] => {
        const lines: string[] = [];
        const splitter = new MessageSplitter(false, (_stream, _seconds, _nanos, text) => lines.push(text));
        for (const data of chunks) splitter.push({ stream: 'stdout', data, multiplexed: true });
        splitter.end();
        return lines;
      };
      const feeds = new Map([total, total * 4].map((each) => [each, lineFrames(each, size)]));
      assertLinear(`compose frames ${name}`, (scale) => {
        const shape = (lines: readonly string[]): string[] => lines.map((line) => `${line.length} ${line.replace(/^x+/, 'x…')}`);
        const expected = scale > MAX_LINE_BYTES ? ['x'.repeat(MAX_LINE_BYTES) + LINE_CUT_MARKER] : ['x'.repeat(scale)];
        assert.deepEqual(shape(read(feeds.get(scale) as Buffer[])), shape(expected));
      }, total);
    });
  }
});

/** The decoders of JSON line streams, and how many characters of `stream` text one hands on. */
const jsonDecoders = [
  ['JsonLineDecoder', (onText: (length: number) => void) => new JsonLineDecoder<{ stream: string }>((value) => onText(value.stream.length))],
  ['BuildOutputDecoder', (onText: (length: number) => void) => new BuildOutputDecoder<{ stream: string }>((value) => onText(value.stream.length))],
] as const;

void describe('JSON streams (events, pull, push, stats: JsonLineDecoder; build output: BuildOutputDecoder)', () => {
  for (const [decoderName, decoderOf] of jsonDecoders) {
    for (const [name, size] of [['1-byte', 1], ['1 KiB', KIB], ['16 KiB', 16 * KIB]] as const) {
      void it(`${decoderName}, one long JSON line in ${name} chunks: 4× the input costs at most 8× the operations`, () => {
        const line = (length: number): Buffer[] => {
          const bytes = Buffer.from(`{"stream":"${'z'.repeat(length)}"}\n`, 'latin1');
          const chunks: Buffer[] = [];
          for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
          return chunks;
        };
        const total = size === 1 ? 16 * KIB : 256 * KIB;
        const feeds = new Map([total, total * 4].map((each) => [each, line(each)]));
        assertLinear(`${decoderName} ${name}`, (scale) => {
          let text = 0;
          const decoder = decoderOf((length) => (text += length));
          for (const chunk of feeds.get(scale) as Buffer[]) decoder.push(chunk);
          decoder.end();
          assert.equal(text, scale);
        }, total);
      });
    }

    for (const [name, size] of [['1-byte', 1], ['1 KiB', KIB]] as const) {
      void it(`${decoderName}, many JSON lines of ${name} values in 64 KiB chunks: 4× the input costs at most 8× the operations`, () => {
        const lines = (count: number): Buffer[] => {
          const bytes = Buffer.from(`{"stream":"${'z'.repeat(size)}"}\n`.repeat(count), 'latin1');
          const chunks: Buffer[] = [];
          for (let at = 0; at < bytes.length; at += 64 * KIB) chunks.push(bytes.subarray(at, at + 64 * KIB));
          return chunks;
        };
        const count = size === 1 ? 8 * KIB : KIB;
        const feeds = new Map([count, count * 4].map((each) => [each, lines(each)]));
        assertLinear(`${decoderName} lines ${name}`, (scale) => {
          let text = 0;
          const decoder = decoderOf((length) => (text += length));
          for (const chunk of feeds.get(scale) as Buffer[]) decoder.push(chunk);
          decoder.end();
          assert.equal(text, scale * size);
        }, count);
      });
    }
  }
});
