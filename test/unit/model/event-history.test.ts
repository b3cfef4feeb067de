import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EngineEvent } from '../../../src/engine';
import { EventHistory, REPLAY_WINDOW_NS } from '../../../src/model/eventHistory';

const BASE = 1_795_854_677_000_000_000n;

function event(offsetNanos: bigint, action = 'start', id = 'c1', attributes: Record<string, string> = { name: 'web' }): EngineEvent {
  const nanos = BASE + offsetNanos;
  return { Type: 'container', Action: action, Actor: { ID: id, Attributes: attributes }, time: Number(nanos / 1_000_000_000n), timeNano: Number(nanos), exactTimeNano: nanos.toString() };
}

void describe('EventHistory', () => {
  void it('keeps the newest N events, oldest first', () => {
    const history = new EventHistory(3);
    for (let i = 0n; i < 5n; i++) assert.equal(history.add(event(i * 1000n, `a${i}`)), true);
    assert.deepEqual(history.entries().map((entry) => entry.event.Action), ['a2', 'a3', 'a4']);
    assert.equal(history.total, 5);
    assert.equal(history.size, 3);
  });

  void it('drops an event replayed after a resume, and keeps one that differs only by a nanosecond', () => {
    const history = new EventHistory(10);
    assert.equal(history.add(event(0n)), true);
    assert.equal(history.add(event(5n, 'die')), true);
    assert.equal(history.add(event(5n, 'die')), false);
    assert.equal(history.add(event(6n, 'die')), true);
    assert.equal(history.add(event(5n, 'die', 'c1', { name: 'web', exitCode: '1' })), true);
    assert.equal(history.duplicates, 1);
    assert.equal(history.size, 4);
  });

  void it('resumes a window before the newest event, in the engine\'s SECONDS.NANOS', () => {
    const history = new EventHistory(10);
    assert.equal(history.resumeSince(), undefined);
    history.add(event(123n));
    const expected = BASE + 123n - REPLAY_WINDOW_NS;
    assert.equal(history.resumeSince(), `${expected / 1_000_000_000n}.${(expected % 1_000_000_000n).toString().padStart(9, '0')}`);
  });

  void it('forgets keys older than the replay window, so memory stays bounded', () => {
    const history = new EventHistory(2);
    history.add(event(0n));
    history.add(event(REPLAY_WINDOW_NS * 3n, 'die'));
    // The first event is outside the window now: a replay of it (which a resume never asks for) would count as new.
    assert.equal(history.add(event(0n)), true);
  });

  void it('keeps the newest entries when the bound shrinks or grows', () => {
    const history = new EventHistory(4);
    for (let i = 0n; i < 4n; i++) history.add(event(i, `a${i}`));
    history.resize(2);
    assert.deepEqual(history.entries().map((entry) => entry.event.Action), ['a2', 'a3']);
    history.resize(3);
    history.add(event(10n, 'a4'));
    history.add(event(11n, 'a5'));
    assert.deepEqual(history.entries().map((entry) => entry.event.Action), ['a3', 'a4', 'a5']);
  });
});
