// Bad-input rows about what containers print: a huge output, binary bytes, invalid UTF-8. None is an error; each
// must arrive byte for byte through run (followed logs) and through logs afterwards.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { EngineClient, runContainer, type OutputChunk } from '../../src/engine';
import { cleanupLabel, loadTestEngines } from '../support/engines';
import { badInputCase } from './bad-input-cases';

const engines = loadTestEngines();
const client = EngineClient.fromEnvironment({ host: engines.dockerHost });
const created: string[] = [];

after(async () => {
  for (const id of created) await client.removeContainer(id, { force: true }).catch(() => undefined);
  await client.close();
});

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Runs the shell command; resolves stdout as received live, stdout from `logs` afterwards, and the exit status. */
async function runAndReread(script: string): Promise<{ live: Buffer; reread: Buffer; exitCode: number }> {
  const live: Buffer[] = [];
  const result = await runContainer(client, {
    image: engines.image,
    cmd: ['sh', '-c', script],
    labels: { ...cleanupLabel },
    networkMode: 'none',
    onOutput: (chunk: OutputChunk) => {
      if (chunk.stream === 'stdout') live.push(chunk.data);
    },
  });
  created.push(result.id);
  const reread: Buffer[] = [];
  for await (const chunk of client.containerLogs(result.id, { stdout: true })) reread.push(chunk.data);
  return { live: Buffer.concat(live), reread: Buffer.concat(reread), exitCode: result.exitCode };
}

void describe('container output the user did not expect', { timeout: 300_000 }, () => {
  // Runs first, on a client that has done nothing yet: a cold client reads slowly enough to fall behind.
  void it(
    'many small lines (1 MiB of 11-byte lines) all arrive live through run',
    {
      todo:
        'runContainer follows logs after start; dockerd 20.10 ends a follow that lags behind when the container exits, ' +
        'so the tail is lost live (it is in `logs` afterwards). Attach before start as docker run does, or catch up after the end.',
    },
    async () => {
      const size = 1_048_576;
      const { live, reread } = await runAndReread(`yes berth-line | head -c ${size}`);
      assert.equal(reread.length, size);
      assert.equal(live.length, size);
    },
  );

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

  void it(`binary-output: ${badInputCase('binary-output').input}`, async () => {
    const { live, reread, exitCode } = await runAndReread(badInputCase('binary-output').input);
    assert.equal(exitCode, 0);
    assert.equal(sha256(live), sha256(reread), `live output (${live.length} bytes) and logs (${reread.length} bytes) differ`);
    const text = live.toString('utf8');
    assert.ok(Buffer.from(text, 'utf8').equals(live), 'the output is not valid UTF-8');
    assert.ok(text.includes('\uFFFD'));
    // The text inside the binary (busybox's usage strings) survives.
    assert.ok(text.includes('BusyBox is copyrighted by many authors'), 'text inside the binary was lost');
  });

  void it(`invalid-utf8: ${badInputCase('invalid-utf8').input}`, async () => {
    const expected = Buffer.from('\uFFFD\uFFFDcafé\uFFFD\n', 'utf8');
    const { live, reread } = await runAndReread(badInputCase('invalid-utf8').input);
    assert.deepEqual(live, expected);
    assert.deepEqual(reread, expected);
    assert.ok(badInputCase('invalid-utf8').message.endsWith(`\`${expected.toString('utf8').trimEnd()}\``));
  });
});
