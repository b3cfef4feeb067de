// The timestamped log reader on the wire formats seen from dockerd 20.10 and Podman 4.3 (see
// ../shared/engine-api-notes.md): partial messages of long lines, frames split anywhere, TTY streams without frames.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { OutputChunk } from '../../../src/engine';
import { LINE_CUT_MARKER, MAX_LINE_BYTES } from '../../../src/engine/connection';
import { compareStamps, LogMessageReader } from '../../../src/logs/logMessages';

const T1 = '2026-11-23T10:38:35.913673355Z';
const T2 = '2026-11-23T10:38:35.914946193Z';
const T3 = '2026-11-23T10:38:36.000000001Z';

interface Frame {
  stream: OutputChunk['stream'];
  text: string;
}

/** Feeds frames to a reader, each frame cut into pieces of `size` bytes, the last piece marked as the frame's end. */
function feedFrames(reader: LogMessageReader, frames: readonly Frame[], size: number): void {
  for (const frame of frames) {
    const bytes = Buffer.from(frame.text, 'utf8');
    for (let at = 0; at < bytes.length; at += size) {
      const end = Math.min(bytes.length, at + size);
      reader.push({ stream: frame.stream, data: bytes.subarray(at, end), frameEnd: end === bytes.length }, true);
    }
  }
}

/** Feeds a raw (TTY) body cut into pieces of `size` bytes. */
function feedRaw(reader: LogMessageReader, body: string, size: number): void {
  const bytes = Buffer.from(body, 'utf8');
  for (let at = 0; at < bytes.length; at += size) reader.push({ stream: 'stdout', data: bytes.subarray(at, Math.min(bytes.length, at + size)) }, false);
}

function collector(): { reader: LogMessageReader; lines: string[] } {
  const lines: string[] = [];
  return { reader: new LogMessageReader((stream, text) => lines.push(`${stream}: ${text}`)), lines };
}

// dockerd's json-file splits a line every 16 KiB; each part is its own frame with its own stamp (the same one).
const LONG = 'x'.repeat(40_000);
const DOCKER_FRAMES: Frame[] = [
  { stream: 'stdout', text: `${T1} start\n` },
  { stream: 'stdout', text: `${T2} ${LONG.slice(0, 16_384)}` },
  { stream: 'stderr', text: `${T2} between\n` },
  { stream: 'stdout', text: `${T2} ${LONG.slice(16_384, 32_768)}` },
  { stream: 'stdout', text: `${T2} ${LONG.slice(32_768)}\n` },
  { stream: 'stdout', text: `${T3} END\n` },
];

void test('non-TTY: partial messages join into one line, however the frames are split into chunks', () => {
  for (const size of [1, 7, 31, 32, 4096, 100_000]) {
    const { reader, lines } = collector();
    feedFrames(reader, DOCKER_FRAMES, size);
    reader.end(true);
    assert.deepEqual(lines, ['stdout: start\n', 'stderr: between\n', `stdout: ${LONG}\n`, 'stdout: END\n'], `chunks of ${size} bytes`);
  }
});

void test('TTY: a stamp after a partial message is the engine\'s; a time the program printed stays in the line', () => {
  // The program's own stamp is older than the engine's stamp of its line (it was written before it was read).
  const own = '2026-11-23T10:38:35.900000000Z';
  const body = `${T1} ${own} app says hi\r\n${T2} ${'y'.repeat(5000)}${T2} ${'y'.repeat(300)}\r\n${T3} done\r\n`;
  for (const size of [1, 5, 29, 30, 31, 1000, 100_000]) {
    const { reader, lines } = collector();
    feedRaw(reader, body, size);
    reader.end(true);
    assert.deepEqual(lines, [`stdout: ${own} app says hi\r\n`, `stdout: ${'y'.repeat(5300)}\r\n`, 'stdout: done\r\n'], `chunks of ${size} bytes`);
  }
});

void test('a split inside a UTF-8 character is joined before decoding', () => {
  const bytes = Buffer.from('é\n', 'utf8');
  const { reader, lines } = collector();
  reader.push({ stream: 'stdout', data: Buffer.concat([Buffer.from(`${T1} a`), bytes.subarray(0, 1)]), frameEnd: true }, true);
  reader.push({ stream: 'stdout', data: Buffer.concat([Buffer.from(`${T1} `), bytes.subarray(1)]), frameEnd: true }, true);
  assert.deepEqual(lines, ['stdout: aé\n']);
});

void test('output without stamps (an engine that sends none) passes through unchanged', () => {
  const { reader, lines } = collector();
  feedRaw(reader, 'plain line\nno stamp here either\nrest', 3);
  reader.end(true);
  assert.deepEqual(lines, ['stdout: plain line\n', 'stdout: no stamp here either\n', 'stdout: rest']);
});

void test('resume: the replay is dropped by bytes per stream, even when the engine splits it differently', () => {
  const { reader, lines } = collector();
  feedFrames(reader, DOCKER_FRAMES.slice(0, 3), 1000);
  reader.end(true);
  assert.equal(reader.resumeSince, 1_795_430_315);
  reader.beginResume();
  // The replay from that second: the same bytes, in other parts, then what is new.
  feedFrames(reader, [
    { stream: 'stdout', text: `${T1} start\n` },
    { stream: 'stdout', text: `${T2} ${LONG.slice(0, 10_000)}` },
    { stream: 'stdout', text: `${T2} ${LONG.slice(10_000, 32_768)}` },
    { stream: 'stderr', text: `${T2} between\n` },
    { stream: 'stdout', text: `${T2} ${LONG.slice(32_768)}\n` },
    { stream: 'stdout', text: `${T3} END\n` },
  ], 777);
  reader.end(true);
  // The first part of the long line was shown as an unfinished line when the stream ended; the rest follows it.
  const short = lines.map((line) => (line.length > 40 ? `${line.slice(0, 10)}…${line.length}` : line));
  assert.deepEqual(short, ['stdout: start\n', 'stderr: between\n', `stdout: xx…${16_384 + 8}`, `stdout: xx…${40_000 - 16_384 + 9}`, 'stdout: END\n']);
  assert.equal(lines.filter((line) => line.startsWith('stdout')).map((line) => line.slice('stdout: '.length)).join(''), `start\n${LONG}\nEND\n`);
});

void test('a broken connection drops the message in progress: the resumed stream brings it whole', () => {
  const { reader, lines } = collector();
  reader.push({ stream: 'stdout', data: Buffer.from(`${T1} one\n${T2} tw`), frameEnd: false }, false);
  reader.end(false);
  assert.deepEqual(lines, ['stdout: one\n']);
  reader.beginResume();
  feedRaw(reader, `${T1} one\n${T2} two\n`, 4);
  reader.end(true);
  assert.deepEqual(lines, ['stdout: one\n', 'stdout: two\n']);
});

void test('a message newer than any shown ends the dropping (nothing new is lost when the log was rotated)', () => {
  const { reader, lines } = collector();
  feedRaw(reader, `${T1} one\n`, 100);
  reader.end(true);
  reader.beginResume();
  feedRaw(reader, `${T3} new\n`, 100);
  reader.end(true);
  assert.deepEqual(lines, ['stdout: one\n', 'stdout: new\n']);
});

void test('stamps compare by instant across shapes', () => {
  assert.equal(compareStamps(T1, T2), -1);
  assert.equal(compareStamps('2026-11-23T10:38:35Z', '2026-11-23T11:38:35+01:00'), 0);
  assert.equal(compareStamps('2026-11-23T10:38:36Z', T1), 1);
});

void test('a line longer than 64 KiB is shown cut with the marker, between characters; the next line comes whole', () => {
  // 300,000 characters of 1, 2, 3 and 4 bytes, in dockerd's 16 KiB partial messages (cut anywhere, even mid-character).
  const text = 'aé€😀'.repeat(30_000);
  const bytes = Buffer.from(`${text}\n`, 'utf8');
  for (const tty of [false, true]) {
    const { reader, lines } = collector();
    for (let at = 0; at < bytes.length; at += 16_384) {
      const data = Buffer.concat([Buffer.from(`${T1} `), bytes.subarray(at, at + 16_384)]);
      reader.push({ stream: 'stdout', data, frameEnd: true }, !tty);
    }
    feedRaw(reader, `${T3} next\n`, 100);
    reader.end(true);
    const shown = lines.map((line) => line.slice('stdout: '.length));
    assert.equal(shown.length, 3, `${tty ? 'TTY' : 'frames'}: ${shown.map((line) => line.length).join(', ')}`);
    const cut = shown[0] as string;
    assert.ok(cut.endsWith(LINE_CUT_MARKER), cut.slice(-60));
    const kept = cut.slice(0, -LINE_CUT_MARKER.length);
    assert.ok(text.startsWith(kept), 'the cut line is the start of the line');
    assert.ok(Buffer.byteLength(kept) <= MAX_LINE_BYTES && Buffer.byteLength(kept) > MAX_LINE_BYTES - 4, `${Buffer.byteLength(kept)} bytes kept`);
    assert.deepEqual(shown.slice(1), ['\n', 'next\n']);
  }
});

// Podman stamps to the second, and its follow across a restart once ended with the new run's first part of a line
// while the line before it ("run 2") never came on that stream.
const S2 = '2026-11-26T00:58:02Z';
const S3 = '2026-11-26T00:58:03Z';
const PART = 'x'.repeat(4095);

void test('a followed stream\'s unfinished line held back at its end is read again, after the line the stream skipped', () => {
  const { reader, lines } = collector();
  feedRaw(reader, `${S2} run 1\r\n${S2} ready\r\n${S3} ${PART}`, 1000);
  reader.end(true, true);
  assert.deepEqual(lines, ['stdout: run 1\r\n', 'stdout: ready\r\n']);
  // Nothing of the held part counts as shown: the resume starts at the second of "ready" and drops exactly it.
  assert.equal(reader.resumeSince, Date.parse(S2) / 1000);
  reader.beginResume();
  feedRaw(reader, `${S2} run 1\r\n${S2} ready\r\n${S3} run 2\r\n${S3} ${PART}${S3} xé\r\n`, 333);
  reader.end(true);
  assert.equal(lines.map((line) => line.slice('stdout: '.length)).join(''), `run 1\r\nready\r\nrun 2\r\n${PART}xé\r\n`);
});

void test('a held-back unfinished line is shown by releaseHeld, and then counts as shown', () => {
  const { reader, lines } = collector();
  feedRaw(reader, `${S2} one\n${S3} no newline`, 7);
  reader.end(true, true);
  assert.deepEqual(lines, ['stdout: one\n']);
  reader.releaseHeld();
  assert.deepEqual(lines, ['stdout: one\n', 'stdout: no newline']);
  assert.equal(reader.resumeSince, Date.parse(S3) / 1000);
  reader.beginResume();
  feedRaw(reader, `${S3} no newline`, 5);
  reader.end(true);
  assert.deepEqual(lines, ['stdout: one\n', 'stdout: no newline']);
});

void test('a broken stream drops its unfinished line uncounted; the resumed stream brings it once', () => {
  const { reader, lines } = collector();
  feedRaw(reader, `${S2} one\n${S3} half ${S3} more`, 9);
  reader.end(false);
  assert.deepEqual(lines, ['stdout: one\n']);
  reader.beginResume();
  feedRaw(reader, `${S2} one\n${S3} half ${S3} more${S3} end\n`, 9);
  reader.end(true);
  assert.deepEqual(lines.map((line) => line.slice('stdout: '.length)).join(''), 'one\nhalf moreend\n');
});

void test('deferred lines: shown once they waited, or dropped uncounted at a resume and brought again by the replay', async () => {
  const { reader, lines } = collector();
  reader.deferFor(40);
  feedRaw(reader, `${S2} old\n`, 100);
  assert.deepEqual(lines, [], 'a deferred line waits');
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.deepEqual(lines, ['stdout: old\n']);
  // The last moment of a stream that then ends: what came in it is not shown, and does not count as shown.
  feedRaw(reader, `${S3} stray\n`, 100);
  reader.end(true, true);
  reader.deferFor(undefined);
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.deepEqual(lines, ['stdout: old\n']);
  assert.equal(reader.resumeSince, Date.parse(S2) / 1000);
  reader.beginResume();
  feedRaw(reader, `${S2} old\n${S3} first\n${S3} stray\n`, 100);
  reader.end(true);
  assert.deepEqual(lines, ['stdout: old\n', 'stdout: first\n', 'stdout: stray\n']);
});

/** What a TTY reader hands on and counts for BODY fed in CHUNK-byte pieces, then for the replay after a resume. */
function readTty(body: Buffer, chunk: number, replay: (since: number) => Buffer): { lines: string[]; shown: number; since: number | undefined } {
  const lines: string[] = [];
  const reader = new LogMessageReader((stream, text, stamp) => lines.push(`${stream} ${stamp ?? '-'}: ${text}`));
  const feed = (bytes: Buffer): void => {
    for (let at = 0; at < bytes.length; at += chunk) reader.push({ stream: 'stdout', data: bytes.subarray(at, at + chunk) }, false);
  };
  feed(body);
  reader.end(true);
  const since = reader.resumeSince;
  lines.push('-- resumed');
  reader.beginResume();
  feed(replay(since ?? 0));
  reader.end(true);
  return { lines, shown: reader.shownMessages, since };
}

void test('TTY runs of tiny messages read in one loop show and count what one byte at a time does, and drop the same replay', () => {
  const stamps = [T1, T1, T1, T2, T3];
  const message = fc.record({ stamp: fc.nat({ max: stamps.length - 1 }), text: fc.string({ unit: fc.constantFrom('x', '2', '0', ' ', 'é', '\n'), maxLength: 20 }) });
  fc.assert(
    fc.property(fc.array(message, { minLength: 1, maxLength: 120 }), fc.integer({ min: 2, max: 300 }), (messages, chunk) => {
      // Stamps never go back in time, as the engine's do.
      const sorted = messages.map((each) => each.stamp).sort((a, b) => a - b);
      const wire = messages.map((each, index) => ({ stamp: stamps[sorted[index] as number] as string, text: each.text }));
      const bytesOf = (list: typeof wire): Buffer => Buffer.from(list.map((each) => `${each.stamp} ${each.text}`).join(''), 'utf8');
      const replay = (since: number): Buffer => bytesOf(wire.filter((each) => Math.floor(Date.parse(each.stamp) / 1000) >= since));
      assert.deepEqual(readTty(bytesOf(wire), chunk, replay), readTty(bytesOf(wire), 1, replay));
    }),
    { numRuns: 150 },
  );
});

void test('TTY: a line of 1-byte messages past 64 KiB is cut and counted as one byte at a time cuts and counts it', () => {
  // All in one second: the replay from it is the whole wire again, dropped to its last byte.
  const wire = (): Buffer => Buffer.from(`${`${T1} y`.repeat(MAX_LINE_BYTES + 5_000)}${T1} \n${T2} next\n`, 'latin1');
  const fast = readTty(wire(), 64 * 1024, wire);
  assert.deepEqual(fast, readTty(wire(), 1, wire));
  assert.equal(fast.lines[0], `stdout ${T1}: ${'y'.repeat(MAX_LINE_BYTES)}${LINE_CUT_MARKER}`);
  assert.deepEqual(fast.lines.slice(1), [`stdout ${T1}: \n`, `stdout ${T2}: next\n`, '-- resumed']);
  assert.equal(fast.shown, MAX_LINE_BYTES + 5_000 + 2);
});

void test('TTY: a run behind one stamp counts only the messages with content, and its replay is dropped to the byte', () => {
  const { reader, lines } = collector();
  feedRaw(reader, `${T1} x${T1} ${T1} ${T1} y\n${T1} ${T1} a${T2} ${T2} b${T2} \n`, 1000);
  reader.end(true);
  assert.equal(reader.shownMessages, 5);
  reader.beginResume();
  // The same second again, split elsewhere, then one new message.
  feedRaw(reader, `${T1} xy\n${T1} a${T2} b${T2} \n${T2} c\n`, 37);
  reader.end(true);
  assert.deepEqual(lines, ['stdout: xy\n', 'stdout: ab\n', 'stdout: c\n']);
  assert.equal(reader.shownMessages, 6);
});
