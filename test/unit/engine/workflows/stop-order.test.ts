// stopContainers' ordering, which a real engine cannot be made to show on demand: stops finish in an order the test
// chooses (the last id first), and the names must still come out in the order given, each as soon as it can.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngineError, stopContainers, type EngineClient } from '../../../../src/engine';
import { nextTurn } from '../../../support/wait';

/** Only what stopContainers calls: stopContainer, settled by the test. */
function controlledClient(): { client: EngineClient; finish: (id: string, failure?: EngineError) => void; started: string[] } {
  const pending = new Map<string, { resolve(): void; reject(error: Error): void }>();
  const started: string[] = [];
  const client = {
    containers: {
      stop: (id: string) =>
        new Promise<void>((resolve, reject) => {
          started.push(id);
          pending.set(id, { resolve, reject });
        }),
    },
  } as unknown as EngineClient;
  return {
    client,
    started,
    finish: (id, failure) => {
      const entry = pending.get(id);
      assert.ok(entry, `${id} was not being stopped`);
      if (failure) entry.reject(failure);
      else entry.resolve();
    },
  };
}


void describe('stopContainers', () => {
  void it('stops all at once (up to 8) and reports in argument order, each once those before it are done', async () => {
    const { client, finish, started } = controlledClient();
    const reported: string[] = [];
    const done = stopContainers(client, ['a', 'b', 'c'], { onSettledInOrder: (id, error) => reported.push(error ? `${id}!` : id) });
    await nextTurn();
    assert.deepEqual(started, ['a', 'b', 'c'], 'the three stops run in parallel');
    finish('c');
    await nextTurn();
    assert.deepEqual(reported, [], 'c waits for a and b');
    finish('a');
    await nextTurn();
    assert.deepEqual(reported, ['a']);
    finish('b', new EngineError('not-found', 'No such container: b'));
    const results = await done;
    assert.deepEqual(reported, ['a', 'b!', 'c']);
    assert.deepEqual(results.map((result) => [result.id, result.error?.kind]), [['a', undefined], ['b', 'not-found'], ['c', undefined]]);
  });

  void it('runs at most 8 stops at a time', async () => {
    const { client, finish, started } = controlledClient();
    const ids = Array.from({ length: 10 }, (_, index) => `c${index}`);
    const done = stopContainers(client, ids);
    await nextTurn();
    assert.equal(started.length, 8);
    finish('c0');
    await nextTurn();
    assert.equal(started.length, 9);
    for (const id of ids.slice(1)) {
      await nextTurn();
      finish(id);
    }
    assert.equal((await done).length, 10);
  });
});
