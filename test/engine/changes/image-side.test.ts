// The image's side of a changed file and Revert File, on dockerd and Podman: read through a created-not-started
// helper container and the archive API, so they work for a container without a shell (an image FROM scratch) and a
// stopped one, and leave no helper behind. A container removed while its changes are open gives "No such container".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IMAGE_SIDE_HELPER_LABEL, isEngineError, readImageFileOf, revertToImageFile, type ContainerChange, type EngineClient } from '../../../src/engine';
import { readContainerFile, writeContainerFile } from '../../../src/engine/files';
import { useEngineSuite } from '../../support/engineSuite';
import { engineTargets, loadTestEngines, uniqueName } from '../../support/engines';
import { importScratchImage, SCRATCH_SLEEP } from '../../support/scratchImage';
import { assertCase } from '../engine/bad-input-support';

const engines = loadTestEngines();

async function readChanges(client: EngineClient, id: string): Promise<ContainerChange[]> {
  const all: ContainerChange[] = [];
  for await (const batch of client.containers.changes(id)) all.push(...batch);
  return all;
}

async function helpersLeft(client: EngineClient, forContainer: string): Promise<number> {
  return (await client.containers.list({ all: true, filters: { label: [`${IMAGE_SIDE_HELPER_LABEL}=${forContainer}`] } })).length;
}

for (const target of engineTargets(engines)) {
  void describe(`image side of container changes on ${target.name}`, () => {
    const suite = useEngineSuite({ host: target.host, name: `changes-image-${target.name}`, skip: target.skip });
    const { client } = suite;
    const skip = target.skip;

    void it('a shell-less running container: the image side, the container side, Revert File, and no helper left', { skip }, async () => {
      const source = await suite.createContainer(['sleep', '600']);
      await client.containers.start(source);
      const image = await importScratchImage(client, source, uniqueName(`berth-changes-scratch-${target.name}`));
      suite.cleanup(() => client.images.remove(image, { force: true }).catch(() => undefined));
      const id = await suite.createContainer(SCRATCH_SLEEP, { Image: image });
      await client.containers.start(id);
      await writeContainerFile(client, id, '/app/config.txt', Buffer.from('setting=2\n'));
      await writeContainerFile(client, id, '/app/added.txt', Buffer.from('new\n'));
      const changes = await readChanges(client, id);
      assert.ok(changes.some((change) => change.Path === '/app/config.txt' && change.Kind === 0), JSON.stringify(changes));
      assert.ok(changes.some((change) => change.Path === '/app/added.txt' && change.Kind === 1), JSON.stringify(changes));

      assert.equal((await readImageFileOf(client, id, '/app/config.txt'))?.toString('utf8'), 'setting=1\n');
      assert.equal((await readContainerFile(client, id, '/app/config.txt')).toString('utf8'), 'setting=2\n');
      assert.equal(await readImageFileOf(client, id, '/app/added.txt'), undefined, 'an added file has no image side');

      await revertToImageFile(client, id, '/app/config.txt');
      assert.equal((await readContainerFile(client, id, '/app/config.txt')).toString('utf8'), 'setting=1\n');
      await assertCase('changes-revert-added', () => revertToImageFile(client, id, '/app/added.txt'), { path: '/app/added.txt' });
      assert.equal(await helpersLeft(client, id), 0);
    });

    void it('an image that declares a VOLUME: reading its side leaves neither the helper nor its anonymous volume', { skip }, async () => {
      const source = await suite.createContainer(['sh', '-c', 'echo v1 > /etc/volume-note']);
      const sourceDone = await client.containers.wait(source, { condition: 'next-exit' });
      await client.containers.start(source);
      assert.equal((await sourceDone.result).StatusCode, 0);
      const image = uniqueName(`berth-changes-volume-${target.name}`);
      await client.containers.commit(source, { repo: image, tag: 'latest', changes: ['VOLUME /data'] });
      suite.cleanup(() => client.images.remove(`${image}:latest`, { force: true }).catch(() => undefined));
      const id = await suite.createContainer(['sh', '-c', 'echo v2 > /etc/volume-note'], { Image: `${image}:latest` });
      const done = await client.containers.wait(id, { condition: 'next-exit' });
      await client.containers.start(id);
      assert.equal((await done.result).StatusCode, 0);
      const volumesBefore = (await client.volumes.list({})).map((volume) => volume.Name);
      assert.equal((await readImageFileOf(client, id, '/etc/volume-note'))?.toString('utf8'), 'v1\n');
      const added = (await client.volumes.list({})).map((volume) => volume.Name).filter((name) => !volumesBefore.includes(name));
      assert.deepEqual(added, [], 'an anonymous volume was left behind');
      assert.equal(await helpersLeft(client, id), 0);
    });

    void it('a stopped container: a deleted file is read from the image and reverted', { skip }, async () => {
      const id = await suite.createContainer(['sh', '-c', 'rm /etc/group && echo changed > /etc/hostname-like']);
      const wait = await client.containers.wait(id, { condition: 'next-exit' });
      await client.containers.start(id);
      assert.equal((await wait.result).StatusCode, 0);
      assert.ok((await readChanges(client, id)).some((change) => change.Path === '/etc/group' && change.Kind === 2));
      const original = await readImageFileOf(client, id, '/etc/group');
      assert.ok(original !== undefined && original.toString('utf8').includes('root:'), original?.toString('utf8'));
      await revertToImageFile(client, id, '/etc/group');
      assert.deepEqual(await readContainerFile(client, id, '/etc/group'), original);
      assert.equal((await readChanges(client, id)).some((change) => change.Path === '/etc/group' && change.Kind === 2), false);
      assert.equal(await helpersLeft(client, id), 0);
    });

    void it('a container removed while its changes are open: reading them again says it is gone, not an engine failure', { skip }, async () => {
      const id = await suite.createContainer(['sh', '-c', 'touch /etc/x']);
      assert.deepEqual(await readChanges(client, id), []);
      await client.containers.remove(id, { force: true });
      // The row holds dockerd's words; Podman says the same in its own ("no container with name or ID … found").
      if (target.name === 'docker') await assertCase('changes-container-removed', () => readChanges(client, id), { id });
      else await assert.rejects(readChanges(client, id), (error: unknown) => isEngineError(error, 'not-found') && /no such container/i.test(String(error)));
      await assert.rejects(readImageFileOf(client, id, '/etc/passwd'), (error: unknown) => isEngineError(error, 'not-found'));
    });
  });
}
