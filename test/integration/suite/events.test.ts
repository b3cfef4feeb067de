// The model follows the engine's event stream: containers changed OUTSIDE the extension show up by themselves.
import * as assert from 'node:assert/strict';
import { useConnectedSuite, eventually, modelShowsContainer, snapshot } from '../support/fixtures';

describe('events path: changes made outside the extension', () => {
  const { engines, engine, client, containers } = useConnectedSuite();

  it('shows a container created, started, stopped and removed with the engine client', async () => {
    const { id, name } = await containers.create({ cmd: ['sleep', '300'], start: false });
    const created = await modelShowsContainer(id, 'created');
    const entry = created.containers.find((container) => container.id === id);
    assert.equal(entry?.name, name);
    assert.ok(entry && engine.sameReference(entry.image, engines.image), `the model's image: ${entry?.image ?? 'no entry'}`);

    await client.containers.start(id);
    await modelShowsContainer(id, 'running');

    await client.containers.stop(id, { timeoutSeconds: 0 });
    await modelShowsContainer(id, 'exited');

    await client.containers.remove(id, { force: true });
    await modelShowsContainer(id, 'absent');
  });

  it('follows a container that exits by itself', async () => {
    const { id } = await containers.create({ cmd: ['sh', '-c', 'exit 0'] });
    await modelShowsContainer(id, 'exited');
  });

  it('shows an image committed outside, untagged, and drops it when removed', async () => {
    const { id } = await containers.create({ cmd: ['sh', '-c', 'echo committed-outside > /marker'] });
    await (await client.containers.wait(id, { condition: 'not-running' })).result;
    const { Id } = await client.containers.commit(id);
    const hex = Id.replace(/^sha256:/, '');
    const listed = (): Promise<boolean> =>
      snapshot().then((current) => current.images.some((image) => image.id.replace(/^sha256:/, '') === hex && image.tags.length === 0));
    try {
      await eventually(`the untagged image ${hex.slice(0, 12)} in the model`, async () => ((await listed()) ? true : undefined));
    } finally {
      await client.images.remove(Id, { force: true });
    }
    await eventually(`the image ${hex.slice(0, 12)} gone from the model`, async () => ((await listed()) ? undefined : true));
  });

  it('shows an image tagged outside and drops it when untagged', async () => {
    const repo = 'berth-it/events-tag';
    const tag = `t${Date.now()}`;
    const reference = `${repo}:${tag}`;
    await client.images.tag(engines.image, { repo, tag });
    const listed = (): Promise<boolean> =>
      snapshot().then((current) => current.images.some((image) => image.tags.some((listedTag) => engine.sameReference(listedTag, reference))));
    try {
      await eventually(`image ${reference} in the model`, async () => ((await listed()) ? true : undefined));
    } finally {
      await client.images.remove(reference);
    }
    await eventually(`image ${reference} gone from the model`, async () => ((await listed()) ? undefined : true));
  });
});
