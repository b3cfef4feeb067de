// Save Logs against a real engine: a 200 MB log written to a file is byte for byte what `docker logs` prints
// (compared by hash, neither side held whole); a filter and a time range give what `docker logs --since` piped through
// the same filter gives; a folder that cannot be written is refused with the reason and no file. One test file per
// engine runs these cases (saveLogs-docker.test.ts, saveLogs-podman.test.ts): each 200 MB case takes 70–120 s here,
// and a test file has 240 s.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isEngineError } from '../../../src/engine';
import { LineFilter } from '../../../src/logs/lineFilter';
import { saveContainerLogs, SaveLogsError } from '../../../src/logs/saveLogs';
import { useEngineSuite } from '../../support/engineSuite';
import { expectedMessage } from '../engine/bad-input-cases';
import { engineTargets, loadTestEngines, uniqueName, type TestEngineTarget } from '../../support/engines';

const LOG_BYTES = 200_000_000;
/** 100 bytes a line with its newline. */
const LINE = 'the quick brown fox jumps over the lazy dog 0123456789 the quick brown fox jumps over the lazy dog';

async function fileHash(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** `docker logs ARGS` on HOST: the hash of its stdout, its stderr in full (expected empty), streamed. */
async function dockerLogs(host: string, args: readonly string[]): Promise<{ hash: string; bytes: number; stderr: string; text: string | undefined }> {
  const child = spawn('docker', ['-H', host, 'logs', ...args], { env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const hash = createHash('sha256');
  let bytes = 0;
  let stderr = '';
  const small: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.length;
    if (bytes < 1_000_000) small.push(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  assert.equal(code, 0, `docker logs ${args.join(' ')}: ${stderr}`);
  return { hash: hash.digest('hex'), bytes, stderr, text: bytes < 1_000_000 ? Buffer.concat(small).toString('utf8') : undefined };
}

/** The Save Logs cases on the test engine named NAME. */
export function saveLogsCases(name: TestEngineTarget['name']): void {
  const target = engineTargets(loadTestEngines()).find((each) => each.name === name);
  if (target === undefined) throw new Error(`No test engine named ${name}`);
  void describe(`Save Logs on ${target.name}`, { timeout: 900_000 }, () => {
    const suite = useEngineSuite({ host: target.host, skip: target.skip, name: `logs-save-${target.name}` });
    const { client } = suite;
    let folder = '';
    suite.cleanup(() => (folder === '' ? undefined : rm(folder, { recursive: true, force: true })));

    async function ranToEnd(script: string): Promise<string> {
      folder ||= await mkdtemp(join(tmpdir(), 'berth-save-logs-'));
      const id = await suite.createContainer(['sh', '-c', script], {}, uniqueName('logs-save'));
      const { result } = await client.containers.wait(id, { condition: 'next-exit' });
      await client.containers.start(id);
      assert.equal((await result).StatusCode, 0);
      return id;
    }

    void it('writes a 200 MB log byte for byte as docker logs prints it', async () => {
      const id = await ranToEnd(`yes '${LINE}' | head -c ${LOG_BYTES}; echo`);
      const path = join(folder, 'big.log');
      let progressCalls = 0;
      const saved = await saveContainerLogs(client, id, path, { signal: new AbortController().signal, onProgress: () => progressCalls++ });
      const docker = await dockerLogs(target.host, [id]);
      assert.equal(docker.stderr, '');
      assert.equal(saved.bytes, docker.bytes, 'the bytes written');
      assert.equal((await stat(path)).size, docker.bytes, 'the size of the file');
      assert.equal(await fileHash(path), docker.hash, 'the file is what docker logs prints');
      assert.ok(docker.bytes > LOG_BYTES, `docker logs printed ${docker.bytes} bytes`);
      assert.ok(progressCalls > 1, 'progress was reported while writing');
      await rm(path);
    });

    void it('writes only the lines of the filter and the range, as docker logs --since/--until and a filter', async () => {
      // The pause makes two runs of lines a whole second apart, so one `since` in whole seconds parts them.
      const id = await ranToEnd('for n in 1 2 3; do echo "alpha $n"; echo "beta $n"; done; sleep 2; for n in 4 5 6; do echo "alpha $n"; echo "beta $n" >&2; done');
      let secondRunStamp: string | undefined;
      for await (const chunk of client.containers.logs(id, { timestamps: true })) {
        const text = Buffer.from(chunk.data).toString('utf8');
        const line = text.split('\n').find((each) => each.endsWith(' alpha 4'));
        if (line) secondRunStamp = line.split(' ')[0];
      }
      assert.ok(secondRunStamp, 'the engine stamped the second run');
      const since = String(Math.floor(Date.parse(secondRunStamp) / 1000));
      const until = String(Math.floor(Date.now() / 1000) + 1);
      const path = join(folder, 'range.log');
      const filter = LineFilter.create({ text: '^(alpha|beta) [56]$', regex: true, caseSensitive: true, invert: false });
      assert.ok(filter instanceof LineFilter);
      const saved = await saveContainerLogs(client, id, path, { signal: new AbortController().signal, filter, since: Number(since), until: Number(until) });
      const written = await readFile(path, 'utf8');
      const docker = await dockerLogs(target.host, ['--since', since, '--until', until, id]);
      const expectedStdout = (docker.text ?? '').split('\n').filter((line) => filter.keeps(line) && line !== '');
      const writtenLines = written.split('\n').filter((line) => line !== '');
      assert.deepEqual(writtenLines.filter((line) => line.startsWith('alpha')), expectedStdout, 'stdout lines as docker logs --since prints them');
      assert.deepEqual(writtenLines.filter((line) => line.startsWith('beta')), ['beta 5', 'beta 6'], 'stderr lines of the range');
      assert.deepEqual(expectedStdout, ['alpha 5', 'alpha 6']);
      assert.equal(saved.linesWritten, 4);
      assert.equal(saved.linesRead, 6, 'only the range was read');
    });

    void it('refuses a folder that cannot be written, with the reason, and leaves no file', async () => {
      const id = await ranToEnd('echo one line');
      const missing = join(folder, 'no-such-folder', 'x.log');
      await assert.rejects(saveContainerLogs(client, id, missing, { signal: new AbortController().signal }), (error: unknown) => {
        assert.ok(error instanceof SaveLogsError, String(error));
        assert.equal(`Saving logs failed: ${error.message}`, expectedMessage('logs-save-unwritable', { path: missing }));
        return true;
      });
      const aFile = join(folder, 'plain-file');
      await writeFile(aFile, 'x');
      await assert.rejects(saveContainerLogs(client, id, join(aFile, 'x.log'), { signal: new AbortController().signal }), (error: unknown) => {
        assert.ok(error instanceof SaveLogsError && error.code === 'ENOTDIR', String(error));
        return true;
      });
    });

    void it('cancelled, stops reading and removes the partial file', async () => {
      const id = await ranToEnd(`yes '${LINE}' | head -c 20000000`);
      const path = join(folder, 'cancelled.log');
      const controller = new AbortController();
      const saving = saveContainerLogs(client, id, path, { signal: controller.signal, onProgress: (bytes) => bytes > 1_000_000 && controller.abort() });
      await assert.rejects(saving, (error: unknown) => isEngineError(error, 'cancelled') || (error instanceof Error && error.name === 'AbortError'));
      assert.ok(controller.signal.aborted);
      await assert.rejects(stat(path), (error: NodeJS.ErrnoException) => error.code === 'ENOENT', 'no partial file is left');
    });
  });
}
