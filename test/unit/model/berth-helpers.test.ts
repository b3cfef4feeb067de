/**
 * Berth's own helper containers (a volume's file browser, a changed file's image version, a port forward's
 * namespace joiner) are not the user's: no row from a listing, a create event or an event's inspect, and a
 * prune plan never lists them as containers to remove or keep.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FORWARD_HELPER_LABEL, IMAGE_SIDE_HELPER_LABEL, planPrune, VOLUME_HELPER_LABEL, type ContainerSummary, type DiskUsage, type EngineClient } from '../../../src/engine';
import { EngineModel } from '../../../src/model/engineModel';
import type { Scheduler } from '../../../src/model/batcher';
import { containerSummary, hex, MemoryEngine, until } from './support';

const immediate: Scheduler = (run) => {
  const handle = setImmediate(run);
  return { dispose: () => clearImmediate(handle) };
};

const HELPERS: ReadonlyArray<[number, string, string, ContainerSummary['State']]> = [
  [2, 'volume-helper', VOLUME_HELPER_LABEL, 'created'],
  [3, 'image-side-helper', IMAGE_SIDE_HELPER_LABEL, 'created'],
  [4, 'forward-helper', FORWARD_HELPER_LABEL, 'running'],
];

void test('no helper of any kind is a row: not from the listing, a create event or an event\'s inspect', async (t) => {
  const engine = new MemoryEngine();
  engine.addContainer(hex(1), 'web', 'running');
  for (const [n, name, label, state] of HELPERS) engine.addContainer(hex(n), name, state, { Labels: { [label]: hex(1) } });
  const model = new EngineModel(engine, { scheduler: immediate, backoff: { initialMs: 1_000_000, maxMs: 1_000_000 }, now: () => 1_700_000_000_000 });
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  assert.deepEqual([...model.containers()].map((record) => record.name), ['web'], 'the listing shows the user\'s container only');

  // A helper made while the view is open: its create event (labels among the attributes) and the inspect after it.
  for (const [n, name, label, state] of HELPERS) {
    engine.addContainer(hex(n + 10), `${name}-new`, state, { Labels: { [label]: hex(1) } });
    engine.emit('container', 'create', hex(n + 10), { name: `${name}-new`, image: 'busybox', [label]: hex(1) });
    engine.emit('container', 'start', hex(n + 10), { name: `${name}-new`, image: 'busybox' });
  }
  engine.addContainer(hex(20), 'db', 'created');
  engine.emit('container', 'create', hex(20), { name: 'db', image: 'busybox' });
  await until(() => model.container(hex(20)) !== undefined, 'the user\'s new container');
  await model.whenIdle();
  for (const [n] of HELPERS) assert.equal(engine.calls.includes(`inspectContainer:${hex(n + 10)}`), true, 'the event was read');
  assert.deepEqual([...model.containers()].map((record) => record.name).sort(), ['db', 'web']);
});

void test('a prune plan lists no helper among the containers, stopped or running', async () => {
  const listed = [
    containerSummary(hex(1), 'stopped-web', { State: 'exited', Status: 'Exited (0) 1 second ago' }),
    containerSummary(hex(5), 'running-db', { State: 'running' }),
    ...HELPERS.map(([n, name, label, state]) => containerSummary(hex(n), name, { State: state, Labels: { [label]: hex(1) } })),
  ];
  const usage: DiskUsage = { LayersSize: 0, Images: [], Containers: [], Volumes: [], BuildCache: [] };
  const client = { system: { df: () => Promise.resolve(usage) }, containers: { list: () => Promise.resolve(listed) } } as unknown as EngineClient;
  const plan = await planPrune(client, ['containers']);
  const part = plan.parts[0];
  assert.deepEqual(part?.remove.map((item) => item.name), ['stopped-web']);
  assert.deepEqual(part?.kept.map((item) => item.name), ['running-db']);
});
