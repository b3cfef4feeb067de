// Every sequence of the action table against the real private dockerd and against Podman: run (pulling a missing
// image with credentials from a docker config), run in background, list running, stop all, print logs, pull,
// commit, list images, and cancelling a run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  DockerConfigCredentials,
  EngineClient,
  commitWorkflow,
  listImages,
  listRunning,
  printLogs,
  pull,
  runContainer,
  runInBackground,
  stopAllRunning,
  type OutputChunk,
  type PullProgress,
} from '../../../../src/engine';
import { writeDockerConfig } from '../../../support/dockerHome';
import { useEngineSuite } from '../../../support/engineSuite';
import { engineTargets, loadTestEngines, uniqueName } from '../../../support/engines';
import { failureOf } from '../../../support/assertions';
import { splitRepoTag } from '../../../../src/common/imageName';
import { sleep } from '../../../support/wait';

const engines = loadTestEngines();
const registry = engines.registry;
const unique = uniqueName('seq').toLowerCase();
/** Pushed in `before` so both engines pull an image no other suite touches. */
const pushed = `${registry.address}/berth-seq-test/${unique}:v1`;
const configRoot = mkdtempSync(join(tmpdir(), 'berth-seq-'));

/** A docker config whose `auths` holds the test registry's credentials, as `docker login` writes them. */
function credentialsFromConfig(): DockerConfigCredentials {
  const auth = Buffer.from(`${registry.username}:${registry.password}`).toString('base64');
  const dir = writeDockerConfig(join(configRoot, 'with-auth'), { auths: { [registry.address]: { auth } } });
  return new DockerConfigCredentials({ env: { DOCKER_CONFIG: dir } });
}

const anonymous = new DockerConfigCredentials({ env: { DOCKER_CONFIG: join(configRoot, 'empty') } });

function joined(chunks: OutputChunk[], stream: OutputChunk['stream']): string {
  return Buffer.concat(chunks.filter((chunk) => chunk.stream === stream).map((chunk) => chunk.data)).toString('utf8');
}

before(async () => {
  const docker = EngineClient.fromEnvironment({ host: engines.dockerHost });
  await docker.images.tag(engines.image, { repo: splitRepoTag(pushed).repo, tag: 'v1' });
  const auth = { username: registry.username, password: registry.password, serveraddress: registry.address };
  for await (const progress of docker.images.push(pushed, { auth })) void progress;
  await docker.images.remove(pushed);
  await docker.close();
});

after(() => rmSync(configRoot, { recursive: true, force: true }));

for (const target of engineTargets(engines)) {
  void describe(`sequences on ${target.name}`, () => {
    const suite = useEngineSuite({ host: target.host, skip: target.skip, name: `seq-${target.name}` });
    const { client, labels, marker } = suite;
    const mine = suite.filters;
    const base = { image: engines.image, labels, networkMode: 'none' };

    suite.cleanup(async () => {
      for (const image of [pushed, `berth-seq-test/committed-${marker}:v1`]) {
        await client.images.remove(image, { force: true }).catch(() => undefined);
      }
    });

    void it('run streams stdout and stderr apart and returns the exit status', { skip: target.skip }, async () => {
      const chunks: OutputChunk[] = [];
      const statuses: string[] = [];
      const exits: number[] = [];
      const result = await runContainer(client, {
        ...base,
        cmd: ['sh', '-c', 'echo out; echo err >&2; printf "ü✓\\n"; exit 5'],
        onOutput: (chunk) => chunks.push({ stream: chunk.stream, data: Buffer.from(chunk.data) }),
        onStatus: (text) => statuses.push(text),
        onExit: (exitCode) => exits.push(exitCode),
      });
      assert.equal(result.exitCode, 5);
      assert.equal(joined(chunks, 'stdout'), 'out\nü✓\n');
      assert.equal(joined(chunks, 'stderr'), 'err\n');
      assert.deepEqual(exits, [5], 'the exit status arrives once, as a number');
      assert.ok(!statuses.some((status) => /exit/i.test(status)), `no status sentence carries the exit status: ${statuses.join(' | ')}`);
      assert.equal((await client.containers.inspect(result.id)).State.ExitCode, 5);
    });

    void it('run with a TTY streams raw output', { skip: target.skip }, async () => {
      const chunks: OutputChunk[] = [];
      const result = await runContainer(client, { ...base, tty: true, cmd: ['sh', '-c', 'echo tty; echo more >&2'], onOutput: (chunk) => chunks.push(chunk) });
      assert.equal(result.exitCode, 0);
      assert.equal(joined(chunks, 'stdout'), 'tty\r\nmore\r\n');
    });

    void it('run with autoRemove leaves no container behind and loses no output', { skip: target.skip }, async () => {
      const chunks: OutputChunk[] = [];
      const result = await runContainer(client, { ...base, autoRemove: true, cmd: ['sh', '-c', 'seq 1 2000'], onOutput: (chunk) => chunks.push(chunk) });
      assert.equal(result.exitCode, 0);
      const lines = joined(chunks, 'stdout').trimEnd().split('\n');
      assert.equal(lines.length, 2000);
      assert.equal(lines[1999], '2000');
      const error = await failureOf(client.containers.inspect(result.id));
      assert.equal(error.kind, 'not-found');
    });

    void it('run pulls a missing image with credentials from the docker config, then runs it', { skip: target.skip }, async () => {
      const progress: PullProgress[] = [];
      const statuses: string[] = [];
      const chunks: OutputChunk[] = [];
      const result = await runContainer(client, {
        ...base,
        image: pushed,
        cmd: ['echo', 'from-registry'],
        credentials: credentialsFromConfig().lookup,
        onPullProgress: (line) => progress.push(line),
        onStatus: (text) => statuses.push(text),
        onOutput: (chunk) => chunks.push(chunk),
      });
      assert.equal(result.exitCode, 0);
      assert.equal(joined(chunks, 'stdout'), 'from-registry\n');
      assert.ok(statuses.includes(`Pulling ${pushed}`), statuses.join(' | '));
      assert.ok(progress.length > 0);
    });

    void it('pull without credentials fails with the registry’s message', { skip: target.skip }, async () => {
      const image = `${registry.address}/berth/busybox:1.0`;
      await client.images.remove(image, { force: true }).catch(() => undefined);
      const error = await failureOf(pull(client, image, { credentials: anonymous.lookup }));
      assert.equal(error.kind, 'unauthorized');
      const expected =
        target.name === 'docker'
          ? `Head "http://${registry.address}/v2/berth/busybox/manifests/1.0": no basic auth credentials. Sign in to the registry (Berth: Sign In to Registry, or docker login) and try again`
          : `initializing source docker://${image}: reading manifest 1.0 in ${registry.address}/berth/busybox: unauthorized: authentication required. Sign in to the registry (Berth: Sign In to Registry, or docker login) with an account allowed to pull it, then try again`;
      assert.equal(error.message, expected);
    });

    void it('pull with credentials streams progress, and a missing tag fails with the registry’s message', { skip: target.skip }, async () => {
      await client.images.remove(pushed, { force: true }).catch(() => undefined);
      const progress: PullProgress[] = [];
      await pull(client, pushed, { credentials: credentialsFromConfig().lookup, onProgress: (line) => progress.push(line) });
      assert.ok(progress.length > 0);
      assert.ok((await client.images.inspect(pushed)).Id.startsWith('sha256:'));
      const missing = pushed.replace(/:v1$/, ':absent');
      const error = await failureOf(pull(client, missing, { credentials: credentialsFromConfig().lookup }));
      assert.equal(error.kind, 'not-found');
      const expected =
        target.name === 'docker'
          ? `manifest for ${missing} not found: manifest unknown: manifest unknown. Check the image name and tag, and sign in if the repository is private`
          : `initializing source docker://${missing}: reading manifest absent in ${splitRepoTag(pushed).repo}: manifest unknown: manifest unknown. Check the image name and tag`;
      assert.equal(error.message, expected);
    });

    void it('run in background, list running, print logs, stop all running', { skip: target.skip }, async () => {
      const first = await runInBackground(client, { ...base, cmd: ['sh', '-c', 'echo started-1; sleep 300'] });
      const second = await runInBackground(client, { ...base, cmd: ['sh', '-c', 'echo started-2 >&2; sleep 300'], name: `seq-${marker}` });
      const running = await listRunning(client, { filters: mine });
      assert.deepEqual(running.map((container) => container.Id).sort(), [first.id, second.id].sort());
      assert.ok(running.some((container) => container.Names.includes(`/seq-${marker}`)));

      // The shell prints after the start has returned: read the logs again until its line is there (bounded).
      let logged = '';
      for (let attempt = 0; attempt < 50 && logged === ''; attempt++) {
        if (attempt > 0) await sleep(100);
        const chunks: OutputChunk[] = [];
        await printLogs(client, second.id, { onOutput: (chunk) => chunks.push(chunk) });
        logged = joined(chunks, 'stderr');
      }
      assert.equal(logged, 'started-2\n');

      const stopped: string[] = [];
      const result = await stopAllRunning(client, { filters: mine, timeoutSeconds: 0, onStopped: (id) => stopped.push(id) });
      assert.deepEqual(result.stopped.sort(), [first.id, second.id].sort());
      assert.deepEqual(stopped.sort(), result.stopped);
      assert.deepEqual(result.failed, []);
      assert.deepEqual(await listRunning(client, { filters: mine }), []);
    });

    void it('run in background with autoRemove lets the engine remove it on exit', { skip: target.skip }, async () => {
      const { id } = await runInBackground(client, { ...base, autoRemove: true, cmd: ['sh', '-c', 'sleep 300'] });
      const wait = await client.containers.wait(id, { condition: 'removed' });
      await client.containers.stop(id, { timeoutSeconds: 0 });
      await wait.result;
      assert.equal((await failureOf(client.containers.inspect(id))).kind, 'not-found');
    });

    void it('print logs follows a running container until it exits', { skip: target.skip }, async () => {
      const { id } = await runInBackground(client, { ...base, cmd: ['sh', '-c', 'echo a; sleep 1; echo b; sleep 1; echo c'] });
      const chunks: OutputChunk[] = [];
      await printLogs(client, id, { follow: true, onOutput: (chunk) => chunks.push(chunk) });
      assert.equal(joined(chunks, 'stdout'), 'a\nb\nc\n');
    });

    void it('cancelling a run stops the container and reports cancelled', { skip: target.skip }, async () => {
      const controller = new AbortController();
      const statuses: string[] = [];
      const error = await failureOf(
        runContainer(client, {
          ...base,
          cmd: ['sh', '-c', 'while true; do echo tick; sleep 0.2; done'],
          signal: controller.signal,
          stopTimeoutSeconds: 0,
          onStatus: (text) => statuses.push(text),
          onOutput: () => controller.abort(),
        }),
      );
      assert.equal(error.kind, 'cancelled');
      const listed = await client.containers.list({ all: true, filters: mine });
      const started = statuses.find((text) => text.startsWith('Starting '))?.slice('Starting '.length);
      const id = listed.find((container) => container.Id.startsWith(started ?? '?'))?.Id;
      assert.ok(id, 'the cancelled container is still listed');
      assert.equal((await client.containers.inspect(id)).State.Running, false);
    });

    void it('commit workflow: create, start, wait, commit; the image carries the change', { skip: target.skip }, async () => {
      const repo = `berth-seq-test/committed-${marker}`;
      const chunks: OutputChunk[] = [];
      const result = await commitWorkflow(client, {
        ...base,
        cmd: ['sh', '-c', 'echo baked > /baked; echo done'],
        repo,
        tag: 'v1',
        comment: 'sequence test',
        author: 'Berth',
        changes: ['CMD ["cat", "/baked"]'],
        onOutput: (chunk) => chunks.push(chunk),
      });
      assert.equal(result.exitCode, 0);
      assert.equal(joined(chunks, 'stdout'), 'done\n');
      assert.match(result.imageId, /^(sha256:)?[0-9a-f]{64}$/);
      const inspected = await client.images.inspect(`${repo}:v1`);
      assert.deepEqual(inspected.Config?.Cmd, ['cat', '/baked']);
      const out: OutputChunk[] = [];
      const run = await runContainer(client, { ...base, image: `${repo}:v1`, autoRemove: true, onOutput: (chunk) => out.push(chunk) });
      assert.equal(run.exitCode, 0);
      assert.equal(joined(out, 'stdout'), 'baked\n');
    });

    void it('commit workflow refuses a bad repository name before running anything', { skip: target.skip }, async () => {
      const before = (await client.containers.list({ all: true, filters: mine })).length;
      const error = await failureOf(commitWorkflow(client, { ...base, repo: 'Bad Repo' }));
      assert.equal(error.kind, 'bad-request');
      assert.equal(error.message, 'Invalid image reference "Bad Repo": it contains whitespace');
      assert.equal((await client.containers.list({ all: true, filters: mine })).length, before);
    });

    void it('run refuses a bad container name with a specific message', { skip: target.skip }, async () => {
      const error = await failureOf(runContainer(client, { ...base, name: 'bad name', cmd: ['true'] }));
      assert.equal(error.message, 'Invalid container name "bad name": " " is not allowed (use letters, digits, "_", "." and "-")');
    });

    void it('a run whose name is taken says to choose another name', { skip: target.skip }, async () => {
      const name = `taken-${marker}`;
      await runInBackground(client, { ...base, name, cmd: ['true'] });
      const error = await failureOf(runContainer(client, { ...base, name, cmd: ['true'] }));
      assert.equal(error.kind, 'conflict');
      assert.match(error.message, new RegExp(`the container name "/?${name}" is already in use by .*\\. Choose another name or remove the existing container$`, "i"));
    });

    void it('list images includes the test image', { skip: target.skip }, async () => {
      const images = await listImages(client);
      assert.ok(images.some((image) => (image.RepoTags ?? []).some((tag) => tag.endsWith(engines.image))), JSON.stringify(images.map((image) => image.RepoTags)));
    });
  });
}
