// Bad-input rows about what containers print: a huge output, binary bytes, invalid UTF-8. None is an error. Live
// through run (attached before the start) every byte arrives as written; through logs afterwards they come back as
// dockerd's json-file log driver stored them, as text.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { runContainer, type OutputChunk } from '../../../../src/engine';
import { useEngineSuite } from '../../../support/engineSuite';
import { followContainerLogs } from '../../../../src/logs/logFollower';
import { badInputCase } from '../bad-input-cases';

const suite = useEngineSuite({ name: 'bad-input-output' });
const { client, engines } = suite;

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Runs the shell command; resolves stdout (and stderr) as received live, stdout from `logs` afterwards, the exit status. */
async function runAndReread(script: string): Promise<{ id: string; live: Buffer; reread: Buffer; exitCode: number; stderr: string }> {
  const live: Buffer[] = [];
  const errors: Buffer[] = [];
  const result = await runContainer(client, {
    image: engines.image,
    cmd: ['sh', '-c', script],
    labels: suite.labels,
    networkMode: 'none',
    onOutput: (chunk: OutputChunk) => {
      (chunk.stream === 'stdout' ? live : errors).push(chunk.data);
    },
  });
  const reread: Buffer[] = [];
  for await (const chunk of client.containers.logs(result.id, { stdout: true, stderr: false })) reread.push(chunk.data);
  return { id: result.id, live: Buffer.concat(live), reread: Buffer.concat(reread), exitCode: result.exitCode, stderr: Buffer.concat(errors).toString('utf8') };
}

void describe('container output the user did not expect', { timeout: 300_000 }, () => {
  // Runs first, on a client that has done nothing yet: a cold client reads slowly enough to fall behind, which is
  // where following logs after the start lost the tail (dockerd ends a lagging follow when the container exits).
  void it('many small lines (1 MiB of 11-byte lines) all arrive live through run', async () => {
    const size = 1_048_576;
    const expected = Buffer.alloc(size);
    const line = Buffer.from('berth-line\n');
    for (let offset = 0; offset < size; offset += line.length) line.copy(expected, offset, 0, Math.min(line.length, size - offset));
    const { live, reread } = await runAndReread(`yes berth-line | head -c ${size}`);
    assert.equal(live.length, size, `${live.length} of ${size} bytes arrived live`);
    assert.ok(live.equals(expected));
    assert.ok(reread.equals(expected));
  });

  void it(`huge-output: ${badInputCase('huge-output').input}`, async () => {
    const size = 33_554_432;
    const expected = Buffer.alloc(size);
    const line = Buffer.from(`${'0'.repeat(1000)}\n`);
    for (let offset = 0; offset < size; offset += line.length) line.copy(expected, offset, 0, Math.min(line.length, size - offset));
    const { live, reread, exitCode } = await runAndReread(badInputCase('huge-output').input);
    assert.equal(exitCode, 0);
    assert.equal(live.length, size);
    assert.equal(sha256(live), sha256(expected));
    assert.equal(sha256(reread), sha256(expected));
  });

  void it(`long-line-logs: ${badInputCase('long-line-logs').input}`, async () => {
    const { id, reread, exitCode } = await runAndReread(badInputCase('long-line-logs').input);
    assert.equal(exitCode, 0);
    let shown = '';
    const notices: string[] = [];
    await followContainerLogs(client, id, { output: (_stream, text) => (shown += text), notice: (text) => notices.push(text) }, {
      tail: 'all',
      signal: new AbortController().signal,
      followRestarts: false,
    });
    assert.equal(shown, `${'x'.repeat(40_000)}\n`);
    assert.ok(Buffer.from(shown).equals(reread), 'the logs views show what the engine\'s logs endpoint returns');
    assert.deepEqual(notices, []);
  });

  void it(`binary-output: ${badInputCase('binary-output').input}`, async () => {
    const { live, reread, exitCode, stderr } = await runAndReread(`sha256sum /bin/busybox >&2; ${badInputCase('binary-output').input}`);
    assert.equal(exitCode, 0);
    // Live: the file itself, byte for byte.
    assert.equal(sha256(live), stderr.trim().split(/\s+/)[0], 'live output differs from the file');
    // Logs: the json-file driver's text, every byte that is not UTF-8 replaced, the text inside intact.
    const text = reread.toString('utf8');
    assert.ok(Buffer.from(text, 'utf8').equals(reread), 'the logs are not valid UTF-8');
    assert.ok(text.includes('\uFFFD'));
    assert.ok(text.includes('BusyBox is copyrighted by many authors'), 'text inside the binary was lost');
  });

  void it(`invalid-utf8: ${badInputCase('invalid-utf8').input}`, async () => {
    const printed = Buffer.from([0xff, 0xfe, 0x63, 0x61, 0x66, 0xc3, 0xa9, 0xc3, 0x0a]);
    const logged = Buffer.from('\uFFFD\uFFFDcafé\uFFFD\n', 'utf8');
    const { live, reread } = await runAndReread(badInputCase('invalid-utf8').input);
    assert.deepEqual(live, printed);
    assert.deepEqual(reread, logged);
    assert.ok(badInputCase('invalid-utf8').message.endsWith(`\`${logged.toString('utf8').trimEnd()}\``));
  });
});
