// Ownership (src/common/lifecycle.ts): every registration has an owner that disposes it once, in reverse order;
// a swapped binding disposes the one it replaces; per-session lifetimes end with their session.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Disposable, DisposableMap, DisposableStore, MutableDisposable, toDisposable } from '../../../src/common/lifecycle';

function recorder(): { log: string[]; item: (name: string) => { dispose(): void } } {
  const log: string[] = [];
  return { log, item: (name) => toDisposable(() => log.push(name)) };
}

void describe('toDisposable and DisposableStore', () => {
  void it('dispose once, in reverse order, and dispose late members at once', () => {
    const { log, item } = recorder();
    const store = new DisposableStore();
    const first = store.add(item('first'));
    store.add(item('second'));
    store.dispose();
    store.dispose();
    first.dispose();
    assert.deepEqual(log, ['second', 'first']);
    store.add(item('late'));
    assert.deepEqual(log, ['second', 'first', 'late']);
  });

  void it('clear ends the members but keeps the store usable; one failing member does not stop the others', () => {
    const { log, item } = recorder();
    const store = new DisposableStore();
    store.add(item('a'));
    store.add(toDisposable(() => {
      throw new Error('broken');
    }));
    assert.throws(() => store.clear(), /broken/);
    assert.deepEqual(log, ['a']);
    store.add(item('b'));
    assert.deepEqual(log, ['a'], 'a cleared store takes members again without disposing them');
    store.dispose();
    assert.deepEqual(log, ['a', 'b']);
  });

  void it('a Disposable owns what it registers', () => {
    const { log, item } = recorder();
    class Owner extends Disposable {
      constructor() {
        super();
        this._register(item('child'));
      }
    }
    new Owner().dispose();
    assert.deepEqual(log, ['child']);
  });
});

void describe('MutableDisposable', () => {
  void it('disposes the value it replaces, and refuses values after its own disposal', () => {
    const { log, item } = recorder();
    const binding = new MutableDisposable<{ dispose(): void }>();
    binding.value = item('session 1');
    binding.value = item('session 2');
    assert.deepEqual(log, ['session 1']);
    binding.clear();
    assert.deepEqual(log, ['session 1', 'session 2']);
    assert.equal(binding.value, undefined);
    binding.value = item('session 3');
    binding.dispose();
    binding.value = item('too late');
    assert.deepEqual(log, ['session 1', 'session 2', 'session 3', 'too late']);
    assert.equal(binding.value, undefined);
  });
});

void describe('DisposableMap', () => {
  void it('gives each key one lifetime, ended when the key goes or the map is disposed', () => {
    const { log, item } = recorder();
    const lifetimes = new DisposableMap<string>();
    lifetimes.lifetimeOf('a').add(item('a1'));
    lifetimes.lifetimeOf('a').add(item('a2'));
    lifetimes.lifetimeOf('b').add(item('b1'));
    assert.deepEqual([...lifetimes.keys()], ['a', 'b']);
    lifetimes.delete('a');
    assert.deepEqual(log, ['a2', 'a1']);
    assert.equal(lifetimes.has('a'), false);
    lifetimes.dispose();
    assert.deepEqual(log, ['a2', 'a1', 'b1']);
    lifetimes.lifetimeOf('c').add(item('c1'));
    assert.deepEqual(log, ['a2', 'a1', 'b1', 'c1'], 'a lifetime asked for after disposal is already over');
  });
});
