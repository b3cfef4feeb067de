// The hardening rows of the bad-input table (bad-input-security-cases.ts): credentials never travel to an engine over
// plain non-loopback tcp://, and hostile container output from the real dockerd reaches a terminal only as text and
// colours. (The workspace's engine is a workbench matter: test/integration/suite/workspace-trust.test.ts.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Readable } from 'node:stream';
import { EngineError, runContainer, type OutputChunk } from '../../../../src/engine';
import { clientThatMustNotConnect } from '../../../support/refusingClient';
import { StreamOutputFilters } from '../../../../src/terminals/outputFilter';
import { useEngineSuite } from '../../../support/engineSuite';
import { expectedMessage } from '../bad-input-cases';

void describe('credentials and plain tcp://', () => {
  void it('a signed-in pull through an engine on plain non-loopback tcp:// is refused before any connection', async () => {
    const { client, attempts } = clientThatMustNotConnect('tcp://192.0.2.10:2375');
    try {
      const auth = { username: 'berth', password: 'not-sent', serveraddress: '127.0.0.1:5000' };
      const pulling = (async () => {
        for await (const line of client.images.pull('127.0.0.1:5000/team/app:1', { auth })) void line;
      })();
      await assert.rejects(pulling, (error: unknown) => {
        assert.ok(error instanceof EngineError, String(error));
        assert.equal(error.kind, 'bad-request');
        assert.equal(error.message, expectedMessage('credentials-plain-tcp'));
        return true;
      });
      assert.deepEqual(attempts, [], 'a connection was opened to the plain tcp:// engine');
    } finally {
      await client.close();
    }
  });
  void it('a build with registry credentials through an engine on plain non-loopback tcp:// is refused before any connection', async () => {
    const { client, attempts } = clientThatMustNotConnect('tcp://192.0.2.10:2375');
    try {
      const registryConfig = { '127.0.0.1:5000': { username: 'berth', password: 'not-sent', serveraddress: '127.0.0.1:5000' } };
      const building = (async () => {
        for await (const line of client.images.build(Readable.from([Buffer.alloc(1024)]), { registryConfig })) void line;
      })();
      await assert.rejects(building, (error: unknown) => {
        assert.ok(error instanceof EngineError, String(error));
        assert.equal(error.kind, 'bad-request');
        assert.equal(error.message, expectedMessage('build-credentials-plain-tcp'));
        return true;
      });
      assert.deepEqual(attempts, [], 'a connection was opened to the plain tcp:// engine');
    } finally {
      await client.close();
    }
  });
});

void describe('hostile container output on the real dockerd', () => {
  const suite = useEngineSuite({ name: 'hostile-output' });

  void it('reaches the terminal as text and colours only, however the engine chunks it', async () => {
    // Title, OSC 8 link to a vscode:// URI, shell-integration mark, a red word, then cursor-up + erase + a fake line.
    const script = String.raw`printf 'a\033]0;OWNED\007b\033]8;;vscode://evil/x\033\\link\033]8;;\033\\\n\033]633;D;0\007\033[31mred\033[0m\n\033[1A\033[2K\r[Berth] exited with status 0\n' >&2; printf 'out\033P+q\033\\\n'`;
    const chunks: OutputChunk[] = [];
    const result = await runContainer(suite.client, {
      image: suite.engines.image,
      labels: suite.labels,
      networkMode: 'none',
      cmd: ['sh', '-c', script],
      onOutput: (chunk) => chunks.push({ stream: chunk.stream, data: Buffer.from(chunk.data) }),
    });
    assert.equal(result.exitCode, 0);
    const filters = new StreamOutputFilters();
    const shown = { stdout: '', stderr: '' };
    // Byte by byte: the worst chunking a stream can have.
    for (const chunk of chunks) for (const byte of chunk.data) shown[chunk.stream] += filters.filter(chunk.stream, String.fromCharCode(byte));
    assert.equal(shown.stderr, 'ablink\n\x1b[31mred\x1b[0m\n\r[Berth] exited with status 0\n');
    assert.equal(shown.stdout, 'out\n');
  });
});
