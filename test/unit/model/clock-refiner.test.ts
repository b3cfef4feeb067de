import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refineClocksAfterListings, REFINE_CHUNK } from '../../../src/model/clockRefiner';
import { EngineModel, type ModelChange } from '../../../src/model/engineModel';
import type { Scheduler } from '../../../src/model/batcher';
import { hex, MemoryEngine, until } from './support';
import { nextTurn } from '../../support/wait';

const immediate: Scheduler = (run) => {
  const handle = setImmediate(run);
  return { dispose: () => clearImmediate(handle) };
};

/** An engine whose inspects take a few turns of the event loop, as a real one's take time. */
class SlowInspects extends MemoryEngine {
  override async inspectContainer(id: string): ReturnType<MemoryEngine['inspectContainer']> {
    for (let turn = 0; turn < 3; turn++) await nextTurn();
    return super.inspectContainer(id);
  }
}

void test('estimated clocks are inspected in chunks after a listing, and an event meanwhile waits for one chunk at most', async (t) => {
  const engine = new SlowInspects();
  const count = 4 * REFINE_CHUNK + 10;
  // `Up 2 hours` is an estimate (1.5 to 2.5 hours): each of these is inspected once for its exact StartedAt.
  for (let n = 0; n < count; n++) engine.addContainer(hex(n), `c${n}`, 'running', { Status: 'Up 2 hours' });
  const model = new EngineModel(engine, { scheduler: immediate, backoff: { initialMs: 1_000_000, maxMs: 1_000_000 }, now: () => 1_700_000_000_000 });
  t.after(() => model.dispose());
  const logged: string[] = [];
  const refiner = refineClocksAfterListings(model, (_level, message) => logged.push(message));
  t.after(() => refiner.dispose());
  const changes: ModelChange[] = [];
  model.onDidChange((change) => changes.push(change));
  const inspects = (): number => engine.calls.filter((call) => call.startsWith('inspectContainer:')).length;
  let inspectsBeforeEvent = -1;
  model.onDidChange((change) => {
    if (change.containers.added.some((record) => record.name === 'new')) inspectsBeforeEvent = inspects();
  });

  model.start();
  await model.whenConnected();
  await until(() => inspects() > 0, 'the refinement to begin');
  engine.addContainer(hex(9999), 'new', 'running');
  engine.emit('container', 'start', hex(9999));
  await until(() => inspectsBeforeEvent >= 0, 'the new container');
  await until(() => inspects() === count + 1, 'every estimated clock inspected');
  await model.whenIdle();

  assert.ok(inspectsBeforeEvent <= 2 * REFINE_CHUNK + 1, `the event waited behind ${inspectsBeforeEvent} inspects`);
  const refined = changes.filter((change) => !change.full && change.containers.added.length === 0);
  assert.ok(refined.length >= 5, `${refined.length} refinement changes`);
  assert.ok(refined.every((change) => change.containers.updated.length <= REFINE_CHUNK), 'a change holds one chunk at most');
  assert.deepEqual(logged, [`Inspecting ${count} containers for their exact start and finish times`]);
  assert.equal(model.container('c0')?.clock?.exact, true);
});
