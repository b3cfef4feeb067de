import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseAction, committedImage, containerEffect, imageNeedsRefetch } from '../../../src/model/actions';
import { EventBatcher, type PendingWork, type Scheduler } from '../../../src/model/batcher';
import type { EngineEvent } from '../../../src/engine';
import { nextTurn } from '../../support/wait';

void test('Docker and Podman action names map to the same effects', () => {
  assert.equal(containerEffect('die'), 'refetch');
  assert.equal(containerEffect('died'), 'refetch', 'Podman says died');
  assert.equal(containerEffect('destroy'), 'remove');
  assert.equal(containerEffect('remove'), 'remove', 'Podman says remove');
  assert.equal(containerEffect('start'), 'refetch');
  assert.equal(containerEffect('rename'), 'refetch');
  assert.equal(containerEffect('some-future-action'), 'refetch', 'unknown actions are refetched, not missed');
});

void test('actions with a suffix are matched on their prefix', () => {
  assert.equal(baseAction('health_status: healthy'), 'health_status');
  assert.equal(containerEffect('health_status: unhealthy'), 'refetch');
  assert.equal(containerEffect('exec_start: sh -c ls'), 'ignore');
  assert.equal(containerEffect('exec_die'), 'ignore');
});

void test('image actions that change nothing shown are ignored', () => {
  assert.equal(imageNeedsRefetch('push'), false);
  assert.equal(imageNeedsRefetch('tag'), true);
  assert.equal(imageNeedsRefetch('untag'), true);
  assert.equal(imageNeedsRefetch('delete'), true);
  assert.equal(imageNeedsRefetch('remove'), true);
});

void test('a commit event names the new image', () => {
  const event: EngineEvent = { Type: 'container', Action: 'commit', Actor: { ID: 'c1', Attributes: { imageID: 'sha256:new' } }, time: 1, timeNano: 1 };
  assert.equal(committedImage(event), 'sha256:new');
  assert.equal(committedImage({ ...event, Action: 'start' }), undefined);
});

function failOnError(error: unknown): void {
  assert.fail(`processing failed: ${String(error)}`);
}

function event(Type: string, Action: string, ID: string): EngineEvent {
  return { Type, Action, Actor: { ID }, time: 1, timeNano: 1 };
}

/** A scheduler the test fires by hand. */
function manualScheduler(): { scheduler: Scheduler; fire: () => void; armed: () => number } {
  let pending: Array<() => void> = [];
  return {
    scheduler: (run) => {
      pending.push(run);
      return { dispose: () => (pending = pending.filter((candidate) => candidate !== run)) };
    },
    fire: () => {
      const runs = pending;
      pending = [];
      for (const run of runs) run();
    },
    armed: () => pending.length,
  };
}

void test('a burst of events becomes one unit of work, strongest effect per container', async () => {
  const batches: PendingWork[] = [];
  const manual = manualScheduler();
  const batcher = new EventBatcher((work) => Promise.resolve(void batches.push(work)), failOnError, manual.scheduler);
  batcher.add(event('container', 'create', 'a'));
  batcher.add(event('container', 'start', 'a'));
  batcher.add(event('container', 'die', 'a'));
  batcher.add(event('container', 'start', 'a'));
  batcher.add(event('container', 'create', 'b'));
  batcher.add(event('container', 'destroy', 'b'));
  batcher.add(event('image', 'tag', 'sha256:x'));
  batcher.add(event('image', 'tag', 'sha256:x'));
  assert.equal(manual.armed(), 1, 'one flush armed for the whole burst');
  manual.fire();
  await batcher.whenIdle();
  assert.equal(batches.length, 1);
  const [work] = batches;
  assert.deepEqual([...(work?.containers ?? [])], [['a', 'refetch'], ['b', 'remove']]);
  assert.deepEqual([...(work?.images ?? [])], ['sha256:x']);
});

void test('ignored events arm nothing, so a quiet engine has no timer', () => {
  const manual = manualScheduler();
  const batcher = new EventBatcher(() => Promise.resolve(), failOnError, manual.scheduler);
  assert.equal(batcher.add(event('container', 'exec_start: sh', 'a')), false);
  assert.equal(batcher.add(event('image', 'push', 'x')), false);
  assert.equal(batcher.add(event('network', 'connect', 'n')), false);
  assert.equal(manual.armed(), 0);
  assert.equal(batcher.isIdle, true);
});

void test('events during a flush wait for the next one; a paused batcher holds its work', async () => {
  const batches: PendingWork[] = [];
  const manual = manualScheduler();
  let release: () => void = () => undefined;
  const batcher = new EventBatcher(
    (work) => {
      batches.push(work);
      return new Promise<void>((resolve) => (release = resolve));
    },
    failOnError,
    manual.scheduler,
  );
  batcher.add(event('container', 'start', 'a'));
  manual.fire();
  batcher.add(event('container', 'stop', 'b'));
  assert.equal(manual.armed(), 0, 'no second flush while the first runs');
  release();
  await nextTurn();
  assert.equal(manual.armed(), 1, 'armed again once the first flush is done');
  const hold = batcher.pause();
  manual.fire();
  assert.equal(batches.length, 1, 'paused: nothing flushed');
  hold.dispose();
  manual.fire();
  release();
  await batcher.whenIdle();
  assert.equal(batches.length, 2);
  assert.deepEqual([...(batches[1]?.containers ?? [])], [['b', 'refetch']]);
});
