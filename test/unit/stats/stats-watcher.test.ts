// The tree's stats watcher with a fake clock and a client whose streams the test feeds: samples of many containers
// become one flush a second, watching nothing closes every stream and leaves no timer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StatsSample } from '../../../src/engine';
import { FLUSH_INTERVAL_MS, StatsWatcher, type StatsClient } from '../../../src/stats/statsWatcher';
import type { TimerClock } from '../../../src/views/rowRefreshScheduler';
import { nextTurn } from '../../support/wait';

class FakeClock implements TimerClock {
  time = 0;
  readonly timers = new Map<number, { at: number; run: () => void }>();
  private next = 0;
  now(): number {
    return this.time;
  }
  setTimeout(run: () => void, delayMs: number): unknown {
    this.timers.set(++this.next, { at: this.time + delayMs, run });
    return this.next;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  advance(ms: number): void {
    this.time += ms;
    for (const [handle, timer] of [...this.timers]) {
      if (timer.at > this.time) continue;
      this.timers.delete(handle);
      timer.run();
    }
  }
}

/** Streams that yield what `push` gives them and end when their signal aborts. */
function fakeClient(): { client: StatsClient; open: Set<string>; push: (id: string, memoryBytes?: number) => void } {
  const open = new Set<string>();
  const feeds = new Map<string, (sample: StatsSample) => void>();
  const client: StatsClient = {
    containers: {
      stats: async function* (id, options) {
        open.add(id);
        const queue: StatsSample[] = [];
        let wake: (() => void) | undefined;
        feeds.set(id, (sample) => {
          queue.push(sample);
          wake?.();
        });
        const aborted = new Promise<void>((resolve) => options?.signal?.addEventListener('abort', () => resolve(), { once: true }));
        try {
          while (options?.signal?.aborted !== true) {
            const sample = queue.shift();
            if (sample) {
              yield sample;
              continue;
            }
            await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
          }
        } finally {
          open.delete(id);
        }
      },
    },
  };
  const push = (id: string, memoryBytes = 1024): void =>
    feeds.get(id)?.({ read: '2026-11-23T13:00:00Z', cpu_stats: { cpu_usage: { total_usage: 1 }, system_cpu_usage: 2 }, memory_stats: { usage: memoryBytes } });
  return { client, open, push };
}


void describe('StatsWatcher', () => {
  void it('batches the samples of many containers into one flush a second', async () => {
    const clock = new FakeClock();
    const { client, push } = fakeClient();
    const flushes: string[][] = [];
    const watcher = new StatsWatcher(() => client, (ids) => flushes.push([...ids].sort()), undefined, clock);
    watcher.watch(['a', 'b', 'c']);
    await nextTurn();
    for (const id of ['a', 'b', 'c']) push(id);
    await nextTurn();
    clock.advance(0);
    assert.deepEqual(flushes, [['a', 'b', 'c']]);
    push('a', 2048);
    push('b', 4096);
    await nextTurn();
    clock.advance(FLUSH_INTERVAL_MS - 1);
    assert.equal(flushes.length, 1, 'not twice within a second');
    clock.advance(1);
    assert.deepEqual(flushes[1], ['a', 'b']);
    assert.ok(watcher.figures('a')?.running);
    watcher.dispose();
  });

  void it('a sample that leaves the row reading the same draws nothing again, and its figures are kept', async () => {
    const clock = new FakeClock();
    const { client, push } = fakeClient();
    const flushes: string[][] = [];
    const watcher = new StatsWatcher(() => client, (ids) => flushes.push([...ids].sort()), undefined, clock);
    try {
      watcher.watch(['a', 'b']);
      await nextTurn();
      push('a');
      push('b');
      await nextTurn();
      clock.advance(0);
      assert.deepEqual(flushes, [['a', 'b']]);
      push('a', 1024);
      push('b', 8 * 1024 * 1024);
      await nextTurn();
      clock.advance(FLUSH_INTERVAL_MS);
      assert.deepEqual(flushes, [['a', 'b'], ['b']]);
      assert.equal(watcher.figures('b')?.memoryUsage, 8 * 1024 * 1024);
    } finally {
      watcher.dispose();
    }
  });

  void it('watching nothing closes every stream, forgets the figures and leaves no timer', async () => {
    const clock = new FakeClock();
    const { client, open, push } = fakeClient();
    const watcher = new StatsWatcher(() => client, () => undefined, undefined, clock);
    watcher.watch(['a', 'b']);
    await nextTurn();
    push('a');
    await nextTurn();
    assert.equal(open.size, 2);
    assert.equal(clock.timers.size, 1, 'the flush is due');
    watcher.watch([]);
    await nextTurn();
    assert.equal(open.size, 0);
    assert.equal(watcher.openStreams, 0);
    assert.equal(watcher.figures('a'), undefined);
    assert.equal(clock.timers.size, 0);
  });
});
