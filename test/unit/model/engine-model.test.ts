import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError, type ContainerInspect } from '../../../src/engine';
import { EngineModel, type ModelChange } from '../../../src/model/engineModel';
import type { Scheduler } from '../../../src/model/batcher';
import { hex, MemoryEngine, until } from './support';
import { nextTurn } from '../../support/wait';

const immediate: Scheduler = (run) => {
  const handle = setImmediate(run);
  return { dispose: () => clearImmediate(handle) };
};

/** A model on the in-memory engine; backoff so long that only retry() reconnects after a failure. */
function setup(engine = new MemoryEngine()): { engine: MemoryEngine; model: EngineModel; changes: ModelChange[] } {
  const model = new EngineModel(engine, { scheduler: immediate, backoff: { initialMs: 1_000_000, maxMs: 1_000_000 }, now: () => 1_700_000_000_000 });
  const changes: ModelChange[] = [];
  model.onDidChange((change) => changes.push(change));
  return { engine, model, changes };
}

void test('lists once at start, then fetches only the container an event is about', async (t) => {
  const engine = new MemoryEngine();
  for (let n = 0; n < 50; n++) engine.addContainer(hex(n), `c${n}`, 'exited');
  const { model, changes } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  assert.equal(model.containerCount, 50);
  assert.deepEqual(engine.calls.filter((call) => call.startsWith('list')).sort(), ['listContainers:all', 'listImages:all']);

  engine.calls.length = 0;
  changes.length = 0;
  engine.addContainer(hex(7), 'c7', 'running');
  engine.emit('container', 'start', hex(7));
  await until(() => changes.length > 0, 'a change');
  await model.whenIdle();
  assert.deepEqual(engine.calls, [`inspectContainer:${hex(7)}`], 'one inspect, no listing');
  assert.equal(changes.length, 1);
  const change = changes[0];
  assert.ok(change);
  assert.equal(change.full, false);
  assert.deepEqual(change.containers.updated.map((u) => [u.previous.state, u.current.state]), [['exited', 'running']]);
  assert.equal(model.container('c7')?.state, 'running');
});

void test('destroy (Docker) and remove (Podman) delete locally without fetching', async (t) => {
  const engine = new MemoryEngine();
  engine.addContainer(hex(1), 'one');
  engine.addContainer(hex(2), 'two');
  const { model, changes } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  engine.calls.length = 0;
  engine.containers.delete(hex(1));
  engine.containers.delete(hex(2));
  engine.emit('container', 'destroy', hex(1));
  engine.emit('container', 'remove', hex(2));
  await until(() => model.containerCount === 0, 'both removed');
  await model.whenIdle();
  assert.deepEqual(engine.calls, []);
  assert.deepEqual(changes.flatMap((change) => change.containers.removed.map((record) => record.name)).sort(), ['one', 'two']);
});

void test('die and Podman died are answered by one inspect, which waits for the recorded state', async (t) => {
  const engine = new MemoryEngine();
  engine.addContainer(hex(1), 'one', 'running');
  const { model } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  engine.calls.length = 0;
  engine.addContainer(hex(1), 'one', 'exited');
  engine.emit('container', 'died', hex(1));
  await until(() => model.container('one')?.state === 'exited', 'exited');
  assert.deepEqual(engine.calls, [`inspectContainer:${hex(1)}`]);
});

void test('a burst about many containers costs one inspect per container, never a listing', async (t) => {
  const engine = new MemoryEngine();
  const { model } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  engine.calls.length = 0;
  for (let n = 0; n < 60; n++) {
    engine.addContainer(hex(n), `c${n}`);
    engine.emit('container', 'create', hex(n));
  }
  await until(() => model.containerCount === 60, '60 containers');
  await model.whenIdle();
  assert.deepEqual(engine.calls.filter((call) => call.startsWith('list')), []);
  assert.equal(new Set(engine.calls.filter((call) => call.startsWith('inspectContainer:'))).size, 60);
});

void test('the container count per image follows container events', async (t) => {
  const engine = new MemoryEngine();
  engine.addImage('img1', ['busybox:latest']);
  engine.addImage('img2', ['alpine:3']);
  engine.addContainer(hex(1), 'one', 'running', { ImageID: 'sha256:img1' });
  const { model, changes } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  assert.equal(model.containersUsing('img1'), 1);
  engine.addContainer(hex(2), 'two', 'created', { ImageID: 'sha256:img1' });
  engine.emit('container', 'create', hex(2));
  await until(() => model.containersUsing('img1') === 2, 'two users');
  assert.deepEqual(changes.at(-1)?.images.usageChanged, ['img1']);
  assert.equal(model.snapshot().images.find((image) => image.tags.includes('busybox:latest'))?.containers, 2);
  assert.equal(model.containersUsing('img2'), 0);
});

void test('image events fetch that image; a 404 removes it; a moved tag leaves the old image', async (t) => {
  const engine = new MemoryEngine();
  engine.addImage('old', ['app:1']);
  const { model } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  engine.calls.length = 0;
  engine.addImage('new', ['app:1']);
  engine.images.set('sha256:old', { ...engine.images.get('sha256:old')!, RepoTags: [] });
  engine.emit('image', 'pull', 'app:1');
  await until(() => model.image('app:1')?.key === 'new', 'tag moved');
  assert.deepEqual(engine.calls, ['inspectImage:app:1']);
  assert.deepEqual(model.image('old')?.tags, [], 'the old image lost the tag');
  engine.images.delete('sha256:old');
  engine.emit('image', 'delete', 'sha256:old');
  await until(() => model.image('old') === undefined, 'old deleted');
});

void test('a broken event stream reconnects with since = the last timeNano and re-lists once', async (t) => {
  const engine = new MemoryEngine();
  engine.addContainer(hex(1), 'one');
  let clock = 1_700_000_000_000;
  const model = new EngineModel(engine, { scheduler: immediate, backoff: { initialMs: 1_000_000, maxMs: 1_000_000 }, now: () => (clock += 5000) });
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  const last = engine.emit('container', 'start', hex(1));
  await until(() => model.resumeSince !== undefined, 'since recorded');
  await model.whenIdle();
  engine.calls.length = 0;
  engine.addContainer(hex(2), 'two');
  engine.endStreams(new EngineError('unreachable', 'socket hang up'));
  await until(() => model.container('two') !== undefined, 're-listed');
  const expectedSince = `${BigInt(last.timeNano) / 1_000_000_000n}.${(BigInt(last.timeNano) % 1_000_000_000n).toString().padStart(9, '0')}`;
  assert.deepEqual(engine.calls.filter((call) => call.startsWith('events')), [`events:since=${expectedSince}`]);
  assert.equal(engine.calls.filter((call) => call === 'listContainers:all').length, 1);
  assert.equal(model.state, 'connected');
});

void test('an unreachable engine is reported, and the model recovers when it comes back', async (t) => {
  const engine = new MemoryEngine();
  engine.down = Object.assign(new Error('connect ENOENT /tmp/none.sock'), { code: 'ENOENT' });
  const { model } = setup(engine);
  t.after(() => model.dispose());
  const states: string[] = [];
  model.onDidChangeState((state) => states.push(state));
  model.start();
  await assert.rejects(model.whenConnected(), /ENOENT/);
  assert.equal(model.state, 'unreachable');
  assert.match(model.snapshot().reason ?? '', /ENOENT/);
  engine.down = undefined;
  engine.addContainer(hex(3), 'late');
  model.retry();
  await model.whenConnected();
  assert.equal(model.container('late')?.state, 'running');
  assert.deepEqual(states, ['unreachable', 'connecting', 'connected']);
});

void test('losing the engine clears the model and fires a full change, so views show the welcome', async (t) => {
  const engine = new MemoryEngine();
  engine.addContainer(hex(1), 'one');
  const { model, changes } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  changes.length = 0;
  engine.down = new Error('connect ECONNREFUSED');
  engine.endStreams(new Error('socket closed'));
  await until(() => model.state === 'unreachable', 'unreachable');
  assert.equal(model.containerCount, 0);
  assert.equal(changes.at(-1)?.full, true);
});

void test('an engine lost right after it came back is reported at once: failed attempts before the comeback do not count as a backoff', async (t) => {
  // The clock never moves, so every connection counts as one that broke right away. The backoff is so long that a
  // model backing off here would stay "connected" to a stopped engine (the integration stage's Retry flake).
  const engine = new MemoryEngine();
  engine.down = new Error('connect ECONNREFUSED');
  const { model } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await until(() => model.state === 'unreachable', 'unreachable at first');
  for (let attempt = 0; attempt < 3; attempt++) {
    const states: string[] = [];
    const listener = model.onDidChangeState((state) => states.push(state));
    model.retry();
    await until(() => states.includes('unreachable'), `failed retry ${attempt + 1}`);
    listener.dispose();
  }
  engine.down = undefined;
  model.retry();
  await model.whenConnected();
  engine.down = new Error('connect ECONNREFUSED');
  engine.endStreams(new Error('socket closed'));
  await until(() => model.state === 'unreachable', 'unreachable after the comeback');
  assert.equal(model.containerCount, 0);
});

void test('events that arrive while listing are applied after the listing', async (t) => {
  const engine = new MemoryEngine();
  engine.addContainer(hex(1), 'one', 'exited');
  const { model } = setup(engine);
  t.after(() => model.dispose());
  const originalList = engine.listContainers.bind(engine);
  let injected = false;
  engine.listContainers = async (options) => {
    const result = await originalList(options);
    if (!injected && !options.filters) {
      injected = true;
      // The container starts after the listing was taken but before the model applied it.
      engine.addContainer(hex(1), 'one', 'running');
      engine.emit('container', 'start', hex(1));
    }
    return result;
  };
  model.start();
  await model.whenConnected();
  await until(() => model.container('one')?.state === 'running', 'the later state wins');
});

void test("a commit event that names no image (Podman's) lists the images once", async (t) => {
  const { engine, model } = setup();
  t.after(() => model.dispose());
  engine.addContainer(hex(1), 'source', 'exited');
  model.start();
  await model.whenConnected();
  engine.calls.length = 0;
  engine.addImage(hex(9), ['committed:1']);
  engine.emit('container', 'commit', hex(1));
  await until(() => model.image('committed:1') !== undefined, 'the committed image');
  assert.ok(engine.calls.includes('listImages:all'), engine.calls.join(', '));
});

void test("an image that cannot be read does not cost the rest of the batch (Podman's bare-id inspect)", async (t) => {
  const engine = new MemoryEngine();
  engine.podmanImageIds = true;
  engine.addImage(hex(1), ['gone:1']);
  engine.addImage(hex(2), ['kept:1']);
  const { model } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  engine.images.delete(`sha256:${hex(1)}`);
  const kept = engine.images.get(`sha256:${hex(2)}`);
  assert.ok(kept);
  engine.images.set(kept.Id, { ...kept, RepoTags: ['kept:1', 'kept:2'] });
  // Podman's events name images by bare hex ids; both land in one batch.
  engine.emit('image', 'remove', hex(1));
  engine.emit('image', 'tag', hex(2));
  await until(() => model.image('kept:2') !== undefined && model.image('gone:1') === undefined, 'the tag added and the removed image gone');
  assert.ok(engine.calls.includes(`inspectImage:sha256:${hex(1)}`), 'the bare id is inspected in its sha256: form');
});

void test('a refetch answered before a removal never brings the container back after it', async (t) => {
  // The engine answers the inspect as the container was when asked (running), but the answer arrives late: after the
  // container was removed and its event came. Applied in the order asked for, the removal is the last word.
  class LateEngine extends MemoryEngine {
    held: Array<() => void> = [];
    override async inspectContainer(id: string): Promise<ContainerInspect> {
      const answer = await super.inspectContainer(id);
      await new Promise<void>((release) => this.held.push(release));
      return answer;
    }
  }
  const engine = new LateEngine();
  engine.addContainer(hex(1), 'one', 'running');
  const { model } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  const refetched = model.refetchContainers([hex(1)]);
  await until(() => engine.held.length === 1, 'the inspect on its way');
  engine.containers.delete(hex(1));
  engine.emit('container', 'destroy', hex(1));
  // Let the destroy's batch come due while the inspect is held.
  for (let round = 0; round < 50; round++) await nextTurn();
  for (const release of engine.held.splice(0)) release();
  await refetched;
  await model.whenIdle();
  assert.equal(model.container('one'), undefined, 'the removed container is back in the model');
});

void test('a container that cannot be read costs the rest of its batch nothing', async (t) => {
  class FailingEngine extends MemoryEngine {
    override async inspectContainer(id: string): Promise<ContainerInspect> {
      if (id === hex(1)) throw new EngineError('server', 'the engine failed', { status: 500 });
      return super.inspectContainer(id);
    }
  }
  const engine = new FailingEngine();
  const { model } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  engine.addContainer(hex(1), 'unreadable', 'running');
  engine.addContainer(hex(2), 'readable', 'running');
  engine.emit('container', 'create', hex(1));
  engine.emit('container', 'create', hex(2));
  await until(() => model.container('readable') !== undefined, 'the readable container in the model');
  await model.whenIdle();
  assert.equal(model.container('readable')?.state, 'running');
  assert.equal(model.container('unreadable'), undefined);
});
