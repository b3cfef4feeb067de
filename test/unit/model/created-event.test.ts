/**
 * A container's row from its create event (src/model/createdEvent.ts): shown before the inspect answers, completed
 * by it, and never while a listing is in flight or for a container the model already has.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError, type ContainerInspect, type ContainerSummary, type EngineEvent } from '../../../src/engine';
import { summaryFromCreateEvent } from '../../../src/model/createdEvent';
import { EngineModel, type ModelChange } from '../../../src/model/engineModel';
import type { Scheduler } from '../../../src/model/batcher';
import { hex, MemoryEngine, until } from './support';
import { nextTurn } from '../../support/wait';

const immediate: Scheduler = (run) => {
  const handle = setImmediate(run);
  return { dispose: () => clearImmediate(handle) };
};

/** An engine whose inspects and listings wait until released, so what the model shows before they answer can be read. */
class HeldEngine extends MemoryEngine {
  private inspectGate: Promise<void> | undefined;
  private releaseInspects: (() => void) | undefined;
  private listGate: Promise<void> | undefined;
  private releaseList: (() => void) | undefined;
  /** Inspects asked for, answered or not (`calls` records them once they are answered). */
  readonly inspectsAsked: string[] = [];

  holdInspects(): void {
    this.inspectGate = new Promise((resolve) => (this.releaseInspects = resolve));
  }

  letInspectsThrough(): void {
    this.releaseInspects?.();
    this.inspectGate = undefined;
  }

  holdListing(): void {
    this.listGate = new Promise((resolve) => (this.releaseList = resolve));
  }

  letListingThrough(): void {
    this.releaseList?.();
    this.listGate = undefined;
  }

  override async inspectContainer(id: string): Promise<ContainerInspect> {
    this.inspectsAsked.push(id);
    await this.inspectGate;
    return super.inspectContainer(id);
  }

  override async listContainers(options: Parameters<MemoryEngine['listContainers']>[0]): Promise<ContainerSummary[]> {
    const gate = this.listGate;
    const listed = await super.listContainers(options);
    await gate;
    return listed;
  }
}

function setup(engine: MemoryEngine): { model: EngineModel; changes: ModelChange[] } {
  const model = new EngineModel(engine, { scheduler: immediate, backoff: { initialMs: 1_000_000, maxMs: 1_000_000 }, now: () => 1_700_000_000_000 });
  const changes: ModelChange[] = [];
  model.onDidChange((change) => changes.push(change));
  return { model, changes };
}

const createAttributes = { name: 'web', image: 'berth-test/busybox:latest', 'com.docker.compose.project': 'shop' };

void test('a created container is shown from its create event before its inspect answers, then completed by the inspect', async (t) => {
  const engine = new HeldEngine();
  const { model, changes } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  changes.length = 0;
  engine.holdInspects();
  engine.addContainer(hex(1), 'web', 'created', { Status: 'Created', Image: 'berth-test/busybox:latest', ImageID: 'sha256:img1', Command: 'sleep 60', Labels: { 'com.docker.compose.project': 'shop' } });
  engine.emit('container', 'create', hex(1), createAttributes);
  await until(() => changes.length > 0, 'the row from the event');
  const shown = model.container(hex(1));
  assert.deepEqual(
    { name: shown?.name, state: shown?.state, status: shown?.summary.Status, image: shown?.summary.Image, project: shown?.composeProject },
    { name: 'web', state: 'created', status: 'Created', image: 'berth-test/busybox:latest', project: 'shop' },
  );
  assert.deepEqual(changes[0]?.containers.added.map((record) => record.id), [hex(1)]);
  assert.deepEqual(engine.inspectsAsked, [], 'shown before the batch even asked');
  await until(() => engine.inspectsAsked.length > 0, 'the inspect asked for, as for any event');
  assert.equal(model.container(hex(1))?.summary.Command, '', 'still the row from the event while the inspect is held');

  let inspected = false;
  void model.whenInspected(hex(1)).then(() => (inspected = true));
  for (let turn = 0; turn < 20; turn++) await nextTurn();
  assert.equal(inspected, false, 'a tooltip waits while the inspect is held');
  engine.letInspectsThrough();
  await until(() => inspected, 'the wait over once the inspect is applied');
  assert.equal(model.container(hex(1))?.summary.Command, 'sleep 60');
  await model.whenIdle();
  // The tooltip's wait (whenInspected) is over once the inspect is in.
  assert.equal(await Promise.race([model.whenInspected(hex(1)).then(() => 'inspected'), new Promise((resolve) => setTimeout(resolve, 1000, 'still waiting'))]), 'inspected');
  // The inspect's fields, not the event's blanks: the row was not kept as a `previous` to copy from.
  assert.equal(model.container(hex(1))?.imageKey, 'img1');
  assert.equal(model.containersUsing('img1'), 1);
});

void test('no row from a create event while a listing is in flight, nor for a container the model has', async (t) => {
  const engine = new HeldEngine();
  engine.addContainer(hex(2), 'known', 'running');
  const { model, changes } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();

  // Known already: the event is answered by the inspect alone.
  engine.holdInspects();
  changes.length = 0;
  engine.emit('container', 'create', hex(2), { name: 'known', image: 'busybox' });
  await until(() => engine.inspectsAsked.includes(hex(2)), 'the inspect asked for');
  assert.equal(changes.length, 0, 'nothing shown before the inspect');
  assert.equal(model.container(hex(2))?.state, 'running');
  engine.letInspectsThrough();
  await model.whenIdle();

  // A listing in flight (Refresh): events wait for it, and so does the row.
  engine.holdListing();
  model.refresh();
  await until(() => engine.calls.filter((call) => call === 'listContainers:all').length === 2, 'the second listing asked for');
  changes.length = 0;
  engine.addContainer(hex(3), 'late', 'created', { Status: 'Created' });
  engine.emit('container', 'create', hex(3), { name: 'late', image: 'busybox' });
  for (let turn = 0; turn < 20; turn++) await nextTurn();
  assert.equal(model.container(hex(3)), undefined, 'no row while the listing is in flight');
  assert.equal(changes.length, 0);
  engine.letListingThrough();
  await until(() => model.container(hex(3))?.state === 'created', 'the container after the listing');
});

void test('the create event gives a row only with a name and an image; Podman\'s own attributes are not labels', () => {
  const event = (Action: string, Attributes: Record<string, string>): EngineEvent => ({ Type: 'container', Action, Actor: { ID: hex(4), Attributes }, time: 1_700_000_123, timeNano: 1_700_000_123_000_000_000 });
  assert.equal(summaryFromCreateEvent(event('start', { name: 'a', image: 'b' })), undefined);
  assert.equal(summaryFromCreateEvent(event('create', { image: 'b' })), undefined);
  assert.equal(summaryFromCreateEvent({ ...event('create', { name: 'a', image: 'b' }), Type: 'image' }), undefined);
  const podman = summaryFromCreateEvent(event('create', { name: 'a', image: 'localhost/b:latest', podId: '', containerExitCode: '0', 'x.y': 'z' }));
  assert.deepEqual(
    { names: podman?.Names, image: podman?.Image, labels: podman?.Labels, state: podman?.State, status: podman?.Status, created: podman?.Created },
    { names: ['/a'], image: 'localhost/b:latest', labels: { 'x.y': 'z' }, state: 'created', status: 'Created', created: 1_700_000_123 },
  );
});

void test('a row from a create event whose inspect fails keeps the event\'s words, and a tooltip waits only so long', async (t) => {
  class FailingInspects extends MemoryEngine {
    override inspectContainer(id: string): Promise<ContainerInspect> {
      this.calls.push(`inspectContainer:${id}`);
      return Promise.reject(new EngineError('server', 'the engine failed', { status: 500 }));
    }
  }
  const engine = new FailingInspects();
  const { model } = setup(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  engine.emit('container', 'create', hex(5), { name: 'unreadable', image: 'busybox' });
  await until(() => engine.calls.includes(`inspectContainer:${hex(5)}`), 'the inspect tried');
  await model.whenIdle();
  assert.equal(model.container(hex(5))?.summary.Status, 'Created', 'the row stays as the event gave it');
  let over = false;
  const wait = model.whenInspected(hex(5), 50).then(() => (over = true));
  for (let turn = 0; turn < 20; turn++) await nextTurn();
  assert.equal(over, false, 'a tooltip waits for the inspect…');
  await wait;
  assert.equal(over, true, '…until the limit, then shows what the event gave');
  assert.equal(await Promise.race([model.whenInspected('unknown').then(() => 'at once'), new Promise((resolve) => setImmediate(resolve, 'waited'))]), 'at once');
});
