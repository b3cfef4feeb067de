// The bounded-concurrency helper every multi-action shares (src/common/concurrency.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { forEachBounded, inOrderAhead } from '../../../src/common/concurrency';
import { inChunksOf } from '../../../src/engine/build';
import { nextTurn, sleep } from '../../support/wait';

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
    await nextTurn();
    assert.deepEqual(started, [10, 11], 'two at once, in the order given');
    gate.open(1);
    await nextTurn();
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
    await nextTurn();
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

void describe('inOrderAhead', () => {
  void it('yields in the source order whatever order the work finishes in, with at most `ahead` started and unread', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(5), { maxLength: 30 }), fc.integer({ min: 1, max: 6 }), async (delays, ahead) => {
        let running = 0;
        let most = 0;
        const results: number[] = [];
        const work = async (index: number): Promise<number> => {
          running++;
          most = Math.max(most, running);
          await sleep(delays[index] ?? 0);
          running--;
          return index * 10;
        };
        for await (const value of inOrderAhead(delays.keys(), ahead, work)) results.push(value);
        assert.deepEqual(results, delays.map((_, index) => index * 10));
        assert.ok(most <= ahead, `${most} ran at once with ahead = ${ahead}`);
      }),
      { numRuns: 60 },
    );
  });

  void it('a failure surfaces in its turn, after the results before it; no unhandled rejection meanwhile', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const seen: number[] = [];
      const source = inOrderAhead([0, 1, 2, 3], 4, async (index) => {
        if (index === 2) throw new Error('item 2 failed');
        await sleep(20);
        return index;
      });
      await assert.rejects(async () => {
        for await (const value of source) seen.push(value);
      }, /item 2 failed/);
      assert.deepEqual(seen, [0, 1]);
      await sleep(50);
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  void it('refuses an ahead that is not a positive integer', async () => {
    await assert.rejects(inOrderAhead([1], 0, (item) => Promise.resolve(item)).next(), /positive integer/);
  });
});

void describe('inChunksOf', () => {
  void it('joins pieces into writes of at least `size` bytes (the last may be shorter) and loses or reorders nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 40 }), fc.integer({ min: 1, max: 1000 }), async (pieces, size) => {
        async function* source(): AsyncGenerator<Buffer> {
          for (const piece of pieces) {
            await Promise.resolve();
            yield Buffer.from(piece);
          }
        }
        const out: Buffer[] = [];
        for await (const chunk of inChunksOf(source(), size)) out.push(chunk);
        assert.deepEqual(Buffer.concat(out), Buffer.concat(pieces.map((piece) => Buffer.from(piece))));
        for (const chunk of out.slice(0, -1)) assert.ok(chunk.length >= size);
        for (const chunk of out) assert.ok(chunk.length > 0);
      }),
      { numRuns: 100 },
    );
  });
});
