// Reads kept by key and shared while they run: a caller that cancels only stops its own wait; the shared read is
// aborted only when every waiter has gone; a kept result is handed out again without a read; a failure is forgotten;
// the least recently used results go first, by count and by bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeptReads } from '../../../../src/engine/files/keptReads';

class Cancelled extends Error {}
const cancelled = (reason: unknown): Error => new Cancelled(`cancelled: ${String(reason)}`);

/** A read that resolves when told to, and records the signal it ran under. */
function controlledRead(): { read: (signal: AbortSignal) => Promise<string>; finish: (value: string) => void; signals: AbortSignal[]; calls: () => number } {
  const signals: AbortSignal[] = [];
  let resolve: ((value: string) => void) | undefined;
  return {
    read: (signal) => {
      signals.push(signal);
      return new Promise<string>((done, fail) => {
        resolve = done;
        signal.addEventListener('abort', () => fail(new Error('read aborted')), { once: true });
      });
    },
    finish: (value) => resolve?.(value),
    signals,
    calls: () => signals.length,
  };
}

void describe('KeptReads', () => {
  void it('the first caller cancelling leaves the shared read running for the other waiter', async () => {
    const reads = new KeptReads<string>({ maxEntries: 4 });
    const read = controlledRead();
    const first = new AbortController();
    const second = new AbortController();
    const firstWait = reads.get('image', read.read, first.signal, cancelled);
    const secondWait = reads.get('image', read.read, second.signal, cancelled);
    assert.equal(read.calls(), 1, 'one read for both callers');
    first.abort('closed');
    await assert.rejects(firstWait, Cancelled);
    assert.equal(read.signals[0]?.aborted, false, 'the read still runs for the second caller');
    assert.equal(reads.reading, 1);
    read.finish('bytes');
    assert.equal(await secondWait, 'bytes');
    assert.equal(await reads.get('image', read.read, undefined, cancelled), 'bytes', 'kept');
    assert.equal(read.calls(), 1);
  });

  void it('the read is aborted once every waiter has gone, and the next call reads again', async () => {
    const reads = new KeptReads<string>({ maxEntries: 4 });
    const read = controlledRead();
    const first = new AbortController();
    const second = new AbortController();
    const waits = [reads.get('image', read.read, first.signal, cancelled), reads.get('image', read.read, second.signal, cancelled)];
    first.abort();
    second.abort();
    for (const wait of waits) await assert.rejects(wait, Cancelled);
    assert.equal(read.signals[0]?.aborted, true, 'nobody waits: the read stops');
    assert.equal(reads.reading, 0);
    const again = reads.get('image', read.read, undefined, cancelled);
    assert.equal(read.calls(), 2, 'an aborted read is not kept');
    read.finish('fresh');
    assert.equal(await again, 'fresh');
  });

  void it('a caller without a signal keeps the read alive whoever else leaves', async () => {
    const reads = new KeptReads<string>({ maxEntries: 4 });
    const read = controlledRead();
    const leaving = new AbortController();
    const staying = reads.get('image', read.read, undefined, cancelled);
    const left = reads.get('image', read.read, leaving.signal, cancelled);
    leaving.abort();
    await assert.rejects(left, Cancelled);
    assert.equal(read.signals[0]?.aborted, false);
    read.finish('kept');
    assert.equal(await staying, 'kept');
  });

  void it('a signal already aborted is refused without starting a read', async () => {
    const reads = new KeptReads<string>({ maxEntries: 4 });
    const read = controlledRead();
    await assert.rejects(reads.get('image', read.read, AbortSignal.abort(), cancelled), Cancelled);
    assert.equal(read.calls(), 0);
  });

  void it('a failed read is forgotten: the next call tries again', async () => {
    const reads = new KeptReads<string>({ maxEntries: 4 });
    let calls = 0;
    const failing = (): Promise<string> => {
      calls++;
      return Promise.reject(new Error('engine said no'));
    };
    await assert.rejects(reads.get('image', failing, undefined, cancelled), /engine said no/);
    await assert.rejects(reads.get('image', failing, undefined, cancelled), /engine said no/);
    assert.equal(calls, 2);
  });

  void it('keeps at most maxEntries results and maxBytes in all, the least recently used going first', async () => {
    const reads = new KeptReads<string>({ maxEntries: 2, maxBytes: 10, sizeOf: (value) => value.length });
    let calls = 0;
    const read = (value: string) => (): Promise<string> => {
      calls++;
      return Promise.resolve(value);
    };
    await reads.get('a', read('aaaa'), undefined, cancelled);
    await reads.get('b', read('bbbb'), undefined, cancelled);
    assert.equal(reads.bytes, 8);
    await reads.get('a', read('aaaa'), undefined, cancelled);
    assert.equal(calls, 2, 'a was kept');
    await reads.get('c', read('cc'), undefined, cancelled);
    assert.equal(reads.peek('b'), undefined, 'b was the least recently used');
    assert.ok(reads.peek('a'));
    await reads.get('d', read('dddddddd'), undefined, cancelled);
    assert.ok(reads.bytes <= 10, `kept ${reads.bytes} bytes`);
    assert.ok(reads.peek('d'));
  });
});
