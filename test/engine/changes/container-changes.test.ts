// What a container changed, read through the client and through `berth diff`, next to `docker diff` on the same
// engine (the docker CLI talks to Podman's compatible socket too), for touch, rm and mkdir, on a stopped container and
// on a running one. dockerd lists the top-level folders in no fixed order (it walks a map), so on dockerd lines are
// compared as a set and as a count; Podman's order is stable, so there the output is compared byte for byte.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { ChangeTree, changeLine, isEngineError, type ContainerChange, type EngineClient } from '../../../src/engine';
import { engineTargets, loadTestEngines } from '../../support/engines';
import { useEngineSuite } from '../../support/engineSuite';
import { createCliHarness, type CliHarness } from '../cli/support';
import { until } from '../../support/wait';

const engines = loadTestEngines();

async function readChanges(client: EngineClient, id: string): Promise<ContainerChange[]> {
  const all: ContainerChange[] = [];
  for await (const batch of client.containers.changes(id)) all.push(...batch);
  return all;
}

function dockerDiff(host: string, id: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('docker', ['-H', host, 'diff', id], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const sortedLines = (text: string): string[] => text.split('\n').filter((line) => line !== '').sort();

/** touch (a new file and an existing one), rm and mkdir -p: every kind, and folders the engine lists as changed. */
const TOUCH_RM_MKDIR = 'touch /etc/added-file /bin/ls && rm /etc/group && mkdir -p /made/inner && echo x > "/made/inner/with space"';

for (const target of engineTargets(engines)) {
  void describe(`container changes on ${target.name}`, () => {
    const suite = useEngineSuite({ host: target.host, name: `changes-${target.name}`, skip: target.skip });
    const { client } = suite;
    let harness: CliHarness;
    before(async () => {
      if (target.skip === undefined) harness = await createCliHarness(`diff-${target.name}`);
    });
    after(async () => {
      await harness?.dispose();
    });

    const exited = async (script: string): Promise<string> => {
      const id = await suite.createContainer(['sh', '-c', script]);
      const wait = await client.containers.wait(id, { condition: 'next-exit' });
      await client.containers.start(id);
      assert.equal((await wait.result).StatusCode, 0);
      return id;
    };

    void it('after touch, rm and mkdir of a stopped container: the kinds docker diff prints, and berth diff prints the same lines', { skip: target.skip }, async () => {
      const id = await exited(TOUCH_RM_MKDIR);
      const changes = await readChanges(client, id);
      const byPath = new Map(changes.map((change) => [change.Path, change.Kind]));
      assert.equal(byPath.get('/etc/added-file'), 1);
      assert.equal(byPath.get('/etc/group'), 2);
      assert.equal(byPath.get('/made'), 1);
      assert.equal(byPath.get('/made/inner'), 1);
      assert.equal(byPath.get('/made/inner/with space'), 1);
      assert.equal(byPath.get('/etc'), 0);
      assert.ok(byPath.get('/bin/ls') === 0 || byPath.get('/bin/busybox') === 0, `the touched link or its target is changed: ${JSON.stringify(changes)}`);

      const docker = dockerDiff(target.host, id);
      assert.equal(docker.status, 0, docker.stderr);
      const ours = await harness.berth(['diff', id], { host: target.host });
      assert.equal(ours.code, 0, ours.stderr);
      assert.equal(ours.stderr, '');
      assert.deepEqual(sortedLines(ours.stdout), sortedLines(docker.stdout));
      assert.equal(ours.stdout.length, docker.stdout.length);
      assert.deepEqual(sortedLines(changes.map(changeLine).join('')), sortedLines(docker.stdout));
      if (target.name === 'podman') assert.equal(ours.stdout, docker.stdout, 'Podman answers in one order: byte for byte');

      const tree = new ChangeTree();
      tree.addAll(changes);
      assert.deepEqual(tree.counts, {
        added: changes.filter((change) => change.Kind === 1).length,
        changed: changes.filter((change) => change.Kind === 0).length,
        deleted: 1,
      });
      assert.equal(tree.node('/made/inner/with space')?.kind, 1);
      assert.equal(tree.node('/etc/group')?.kind, 2);
    });

    void it('a running container: changes made while it runs are listed, as docker lists them', { skip: target.skip }, async () => {
      const id = await suite.createContainer(['sh', '-c', `${TOUCH_RM_MKDIR} && touch /ready && sleep 600`]);
      await client.containers.start(id);
      await until('the container to write /ready', async () => (await readChanges(client, id)).some((change) => change.Path === '/ready'), { timeoutMs: 20_000, intervalMs: 100 });
      const docker = dockerDiff(target.host, id);
      const ours = await harness.berth(['diff', id], { host: target.host });
      assert.equal(ours.code, 0, ours.stderr);
      assert.deepEqual(sortedLines(ours.stdout), sortedLines(docker.stdout));
      assert.ok(ours.stdout.includes('D /etc/group\n') && ours.stdout.includes('A /ready\n'), ours.stdout);
    });

    void it('a container with no changes prints nothing and exits 0, as docker does', { skip: target.skip }, async () => {
      const id = await suite.createContainer(['true']);
      const docker = dockerDiff(target.host, id);
      const ours = await harness.berth(['diff', id], { host: target.host });
      assert.deepEqual([ours.code, ours.stdout], [docker.status, docker.stdout]);
      assert.deepEqual(await readChanges(client, id), []);
    });

    void it('a container that is not there: exit 1 like docker, with the engine\'s words', { skip: target.skip }, async () => {
      const missing = `no-such-container-${suite.marker}`;
      const docker = dockerDiff(target.host, missing);
      const ours = await harness.berth(['diff', missing], { host: target.host });
      assert.equal(ours.code, docker.status);
      assert.equal(ours.code, 1);
      assert.equal(ours.stdout, '');
      assert.match(ours.stderr, /no such container/i);
      await assert.rejects(readChanges(client, missing), (error: unknown) => isEngineError(error, 'not-found'));
    });
  });
}
