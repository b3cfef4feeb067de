// The bounded-concurrency helper every multi-action shares (src/common/concurrency.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBounded } from '../../../src/common/concurrency';

/** A gate per item: work on it waits until the test opens it, so the test decides when each item finishes. */
function gates(count: number): { wait: (index: number) => Promise<void>; open: (index: number) => void } {
  const opens: Array<() => void> = [];
  const waits = Array.from({ length: count }, (_, index) => new Promise<void>((resolve) => (opens[index] = resolve)));
  return { wait: (index) => waits[index] as Promise<void>, open: (index) => opens[index]?.() };
}

void describe('forEachBounded', () => {
  void it('runs up to the limit at once, starts the next as one finishes, and does every item', async () => {
    const gate = gates(5);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const all = forEachBounded([10, 11, 12, 13, 14], 2, async (item, index) => {
      started.push(item);
      running += 1;
      most = Math.max(most, running);
      await gate.wait(index);
      running -= 1;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [10, 11], 'two at once, in the order given');
    gate.open(1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [10, 11, 12], 'a finished item makes room for the next');
    for (let index = 0; index < 5; index += 1) gate.open(index);
    await all;
    assert.deepEqual(started, [10, 11, 12, 13, 14]);
    assert.equal(most, 2);
  });

  void it('all items run together when the limit is higher than their number', async () => {
    const gate = gates(3);
    const started: number[] = [];
    const all = forEachBounded([0, 1, 2], 8, async (item) => {
      started.push(item);
      await gate.wait(item);
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [0, 1, 2], 'the third starts before the first finished');
    [2, 1, 0].forEach((index) => gate.open(index));
    await all;
  });

  void it('starts nothing new once the signal is aborted, and refuses a limit below 1', async () => {
    const controller = new AbortController();
    const done: number[] = [];
    await forEachBounded([0, 1, 2, 3], 1, (item) => {
      done.push(item);
      if (item === 1) controller.abort();
      return Promise.resolve();
    }, controller.signal);
    assert.deepEqual(done, [0, 1]);
    await assert.rejects(forEachBounded([1], 0, () => Promise.resolve()), /positive integer/);
  });
});
