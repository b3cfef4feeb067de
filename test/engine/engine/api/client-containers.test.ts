// EngineClient container endpoints against the real private dockerd: lifecycle and its 304s, wait, logs framing
// (multiplexed and TTY), tens of MB byte-exact, non-ASCII output, and the failures users meet.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { EngineClient, EngineError, type OutputChunk } from '../../../../src/engine';
import { containerSpec } from '../../../support/containerSpec';
import { useEngineSuite } from '../../../support/engineSuite';
import { cleanupLabel, uniqueName } from '../../../support/engines';
import { failureOf } from '../../../support/assertions';

const suite = useEngineSuite({ name: 'client-containers' });
const { client } = suite;
const create = suite.createContainer;

/** Creates, registers a wait, starts, and returns the exit status. */
async function runToExit(id: string): Promise<number> {
  const wait = await client.containers.wait(id, { condition: 'next-exit' });
  await client.containers.start(id);
  return (await wait.result).StatusCode;
}

async function collectLogs(id: string, options: Parameters<EngineClient['containers']['logs']>[1] = {}): Promise<{ stdout: Buffer; stderr: Buffer; chunks: OutputChunk[] }> {
  const chunks: OutputChunk[] = [];
  for await (const chunk of client.containers.logs(id, options)) chunks.push(chunk);
  const pick = (stream: string): Buffer => Buffer.concat(chunks.filter((chunk) => chunk.stream === stream).map((chunk) => chunk.data));
  return { stdout: pick('stdout'), stderr: pick('stderr'), chunks };
}

before(async () => {
  await client.negotiatedVersion();
});

void describe('containers on dockerd', () => {
  void it('negotiates API 1.41 with Debian’s dockerd', async () => {
    assert.equal(await client.negotiatedVersion(), '1.41');
  });

  void it('reports exit statuses', async () => {
    for (const status of [0, 1, 42, 255]) {
      const id = await create(['sh', '-c', `exit ${status}`]);
      assert.equal(await runToExit(id), status);
    }
  });

  void it('a wait registered before start sees a fast exit', async () => {
    const id = await create(['true']);
    const wait = await client.containers.wait(id, { condition: 'next-exit' });
    await client.containers.start(id);
    assert.deepEqual(await wait.result, { StatusCode: 0, Error: null });
  });

  void it('start twice and stop twice succeed (the second answers 304)', async () => {
    const id = await create(['sleep', '300']);
    await client.containers.start(id);
    await client.containers.start(id);
    assert.equal((await client.containers.inspect(id)).State.Running, true);
    await client.containers.stop(id, { timeoutSeconds: 0 });
    await client.containers.stop(id, { timeoutSeconds: 0 });
    assert.equal((await client.containers.inspect(id)).State.Running, false);
  });

  void it('restart, kill and remove', async () => {
    const id = await create(['sleep', '300']);
    await client.containers.start(id);
    const firstStart = (await client.containers.inspect(id)).State.StartedAt;
    await client.containers.restart(id, { timeoutSeconds: 0 });
    const restarted = await client.containers.inspect(id);
    assert.equal(restarted.State.Running, true);
    assert.notEqual(restarted.State.StartedAt, firstStart);
    await client.containers.kill(id, { killSignal: 'SIGKILL' });
    const killed = await client.containers.inspect(id);
    assert.equal(killed.State.Running, false);
    assert.equal(killed.State.ExitCode, 137);
    const again = await failureOf(client.containers.kill(id));
    assert.equal(again.kind, 'conflict');
    assert.match(again.message, /is not running\. Start the container first$/);
    await client.containers.remove(id);
    const gone = await failureOf(client.containers.inspect(id));
    assert.equal(gone.kind, 'not-found');
  });

  void it('removing a running container without force is a conflict that says what to do', async () => {
    const id = await create(['sleep', '300']);
    await client.containers.start(id);
    const error = await failureOf(client.containers.remove(id));
    assert.equal(error.kind, 'conflict');
    assert.match(error.message, /You cannot remove a running container .*Stop it first, or remove it with force$/);
    await client.containers.remove(id, { force: true });
  });

  void it('keeps stdout and stderr apart', async () => {
    const id = await create(['sh', '-c', 'echo out1; echo err1 >&2; echo out2; echo err2 >&2']);
    assert.equal(await runToExit(id), 0);
    const logs = await collectLogs(id);
    assert.equal(logs.stdout.toString(), 'out1\nout2\n');
    assert.equal(logs.stderr.toString(), 'err1\nerr2\n');
  });

  void it('honours stdout/stderr selection, tail and timestamps', async () => {
    const id = await create(['sh', '-c', 'echo problem >&2; sleep 0.1; for i in 1 2 3 4 5; do echo line$i; done']);
    await runToExit(id);
    assert.equal((await collectLogs(id, { stderr: false })).stderr.length, 0);
    assert.equal((await collectLogs(id, { stdout: false })).stderr.toString(), 'problem\n');
    assert.equal((await collectLogs(id, { tail: 2, stderr: false })).stdout.toString(), 'line4\nline5\n');
    assert.match((await collectLogs(id, { tail: 1, stderr: false, timestamps: true })).stdout.toString(), /^\d{4}-\d\d-\d\dT\S+Z line5\n$/);
    await assert.rejects(collectLogs(id, { stdout: false, stderr: false }), /Logs need stdout, stderr or both/);
  });

  void it('keeps non-ASCII output intact', async () => {
    const text = 'Grüße, 世界! Ελληνικά — 🚢 berth ✓\n';
    const id = await create(['sh', '-c', `printf '%s' '${text}'; printf '%s' '${text}' >&2`]);
    await runToExit(id);
    const logs = await collectLogs(id);
    assert.equal(logs.stdout.toString('utf8'), text);
    assert.equal(logs.stderr.toString('utf8'), text);
  });

  void it('streams a TTY container raw (framing read from inspect)', async () => {
    const id = await create(['sh', '-c', 'echo tty-out; echo tty-err >&2'], { Tty: true });
    await runToExit(id);
    const logs = await collectLogs(id);
    // A TTY merges the streams and turns \n into \r\n; nothing is demultiplexed.
    assert.equal(logs.stdout.toString(), 'tty-out\r\ntty-err\r\n');
    assert.equal(logs.stderr.length, 0);
  });

  void it('decodes 30 MB of output byte-exact, checked against the container’s own sha256', async () => {
    // The json-file log driver stores text, so the container writes base64 of random bytes (30 MB of it).
    const script = 'head -c 22500000 /dev/urandom | base64 > /tmp/out; cat /tmp/out; sha256sum /tmp/out >&2';
    const id = await create(['sh', '-c', script]);
    assert.equal(await runToExit(id), 0);
    const hash = createHash('sha256');
    let stdoutBytes = 0;
    let stderr = '';
    for await (const chunk of client.containers.logs(id)) {
      if (chunk.stream === 'stdout') {
        hash.update(chunk.data);
        stdoutBytes += chunk.data.length;
      } else {
        stderr += chunk.data.toString();
      }
    }
    const reported = stderr.trim().split(/\s+/)[0];
    assert.ok(stdoutBytes > 30_000_000, `only ${stdoutBytes} bytes`);
    assert.equal(hash.digest('hex'), reported);
  });

  void it('decodes 20 MB of binary output byte-exact through the local log driver', async () => {
    const script = 'head -c 20000000 /dev/urandom > /tmp/out; cat /tmp/out; sha256sum /tmp/out >&2';
    const id = await create(['sh', '-c', script], { HostConfig: { LogConfig: { Type: 'local', Config: {} } } });
    assert.equal(await runToExit(id), 0);
    const { stdout, stderr } = await collectLogs(id);
    assert.equal(stdout.length, 20_000_000);
    assert.equal(createHash('sha256').update(stdout).digest('hex'), stderr.toString().trim().split(/\s+/)[0]);
  });

  void it('follows logs of a running container until it exits', async () => {
    const id = await create(['sh', '-c', 'echo first; sleep 1; echo second >&2; sleep 1; echo third']);
    await client.containers.start(id);
    const logs = await collectLogs(id, { follow: true });
    assert.equal(logs.stdout.toString(), 'first\nthird\n');
    assert.equal(logs.stderr.toString(), 'second\n');
  });

  void it('cancels a followed log stream through its signal', async () => {
    const id = await create(['sh', '-c', 'while true; do echo tick; sleep 0.2; done']);
    await client.containers.start(id);
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await failureOf(
      (async () => {
        for await (const chunk of client.containers.logs(id, { follow: true, signal: controller.signal })) {
          seen.push(chunk.data.toString());
          if (seen.length === 2) controller.abort();
        }
      })(),
    );
    assert.equal(error.kind, 'cancelled');
    assert.ok(seen.length >= 2);
    await client.containers.stop(id, { timeoutSeconds: 0 });
  });

  void it('cancels a pending wait through its signal', async () => {
    const id = await create(['sleep', '300']);
    const controller = new AbortController();
    const wait = await client.containers.wait(id, { condition: 'next-exit', signal: controller.signal });
    controller.abort();
    const error = await failureOf(wait.result);
    assert.equal(error.kind, 'cancelled');
  });

  void it('open followed logs and waits do not starve short calls', async () => {
    const id = await create(['sleep', '300']);
    await client.containers.start(id);
    const controller = new AbortController();
    const followers = Array.from({ length: 12 }, async () => {
      for await (const chunk of client.containers.logs(id, { follow: true, tty: false, signal: controller.signal })) void chunk;
    });
    const waits = await Promise.all(Array.from({ length: 4 }, () => client.containers.wait(id, { signal: controller.signal })));
    const inspected = await Promise.all(Array.from({ length: 60 }, () => client.containers.inspect(id)));
    assert.ok(inspected.every((container) => container.Id === id && container.State.Running));
    controller.abort();
    for (const outcome of await Promise.allSettled([...followers, ...waits.map((wait) => wait.result)])) {
      assert.equal(outcome.status, 'rejected');
      assert.equal((outcome.reason as EngineError).kind, 'cancelled');
    }
    await client.containers.stop(id, { timeoutSeconds: 0 });
  });

  void it('lists with filters and accepts an id prefix', async () => {
    const marker = uniqueName('list');
    const id = await create(['true'], { Labels: { ...cleanupLabel, 'berth.test.marker': marker } });
    const listed = await client.containers.list({ all: true, filters: { label: [`berth.test.marker=${marker}`] } });
    assert.deepEqual(listed.map((container) => container.Id), [id]);
    assert.equal(listed[0]?.State, 'created');
    assert.deepEqual(await client.containers.list({ filters: { label: [`berth.test.marker=${marker}`] } }), []);
    const byPrefix = await client.containers.inspect(id.slice(0, 12));
    assert.equal(byPrefix.Id, id);
    assert.equal(byPrefix.Config.Labels?.['berth.test.marker'], marker);
  });

  void it('inspects by name', async () => {
    const name = uniqueName('named');
    const id = await create(['true'], {}, name);
    const inspected = await client.containers.inspect(name);
    assert.equal(inspected.Id, id);
    assert.equal(inspected.Name, `/${name}`);
  });

  void it('a name conflict says to choose another name or remove the existing container', async () => {
    const name = uniqueName('conflict');
    const first = await create(['true'], {}, name);
    const error = await failureOf(create(['true'], {}, name));
    assert.equal(error.kind, 'conflict');
    assert.equal(error.status, 409);
    assert.equal(
      error.message,
      `Conflict. The container name "/${name}" is already in use by container "${first}". You have to remove (or rename) that container to be able to reuse that name. Choose another name or remove the existing container`,
    );
  });

  void it('an unknown image says to pull it first', async () => {
    const image = `berth-test/${uniqueName('absent').toLowerCase()}:latest`;
    const error = await failureOf(client.containers.create(containerSpec(image)));
    assert.equal(error.kind, 'not-found');
    assert.equal(error.message, `No such image: ${image}. Pull it first, or check the image name and tag`);
  });

  void it('an unknown container names it and says what to check', async () => {
    const error = await failureOf(client.containers.start('berth-no-such-container'));
    assert.equal(error.kind, 'not-found');
    assert.equal(error.status, 404);
    assert.equal(error.message, 'No such container: berth-no-such-container. Check the container id or name; the container may have been removed');
    const logs = await failureOf(collectLogs('berth-no-such-container'));
    assert.equal(logs.message, 'No such container: berth-no-such-container. Check the container id or name; the container may have been removed');
  });

  void it('a start that fails (missing executable) shows the engine’s reason', async () => {
    const id = await create(['/no/such/binary']);
    const error = await failureOf(client.containers.start(id));
    assert.ok(error.status === 400 || error.status === 500, String(error.status));
    assert.match(error.message, /no such file or directory/);
  });
});
