// A following document's changes go out one at a time: VS Code cancels an update it is still diffing when the next
// one is announced, so a large logs document announced every 100 ms never showed a new line.
import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { OneChangeInFlight } from '../../../src/common/oneChangeInFlight';

function pacer(giveUpMs = 1000): { sent: string[]; changes: OneChangeInFlight<string> } {
  const sent: string[] = [];
  return { sent, changes: new OneChangeInFlight<string>((key) => sent.push(key), giveUpMs) };
}

void describe('OneChangeInFlight', () => {
  void it('announces at once, then holds later changes until the first is applied, and sends them as one', () => {
    const { sent, changes } = pacer();
    changes.request('a');
    changes.request('a');
    changes.request('a');
    assert.deepEqual(sent, ['a']);
    changes.applied('a');
    assert.deepEqual(sent, ['a', 'a']);
    changes.applied('a');
    assert.deepEqual(sent, ['a', 'a'], 'nothing was waiting');
    changes.dispose();
  });

  void it('keeps each document apart', () => {
    const { sent, changes } = pacer();
    changes.request('a');
    changes.request('b');
    changes.request('a');
    assert.deepEqual(sent, ['a', 'b']);
    changes.applied('b');
    assert.deepEqual(sent, ['a', 'b']);
    changes.applied('a');
    assert.deepEqual(sent, ['a', 'b', 'a']);
    changes.dispose();
  });

  void it('gives an unapplied announcement up after the wait, doubling it while none is applied', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const { sent, changes } = pacer(1000);
      changes.request('a');
      changes.request('a');
      mock.timers.tick(999);
      assert.equal(sent.length, 1);
      mock.timers.tick(1);
      assert.equal(sent.length, 2, 'freed after 1 s');
      changes.request('a');
      mock.timers.tick(1999);
      assert.equal(sent.length, 2, 'the second miss waits 2 s');
      mock.timers.tick(1);
      assert.equal(sent.length, 3);
      changes.applied('a');
      changes.request('a');
      changes.request('a');
      mock.timers.tick(1000);
      assert.equal(sent.length, 5, 'an applied change resets the wait to 1 s');
      changes.dispose();
    } finally {
      mock.timers.reset();
    }
  });

  void it('sends nothing for a forgotten document, or after dispose', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const { sent, changes } = pacer(1000);
      changes.request('a');
      changes.request('a');
      changes.forget('a');
      mock.timers.tick(10_000);
      changes.applied('a');
      assert.deepEqual(sent, ['a']);
      changes.request('b');
      changes.request('b');
      changes.dispose();
      mock.timers.tick(10_000);
      assert.deepEqual(sent, ['a', 'b']);
    } finally {
      mock.timers.reset();
    }
  });
});
