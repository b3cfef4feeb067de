// What the Stats panel says about its containers: nothing while they run, a note once one stops or is removed, and
// an end to all live work only when every one of them is gone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PanelStates, REMOVED } from '../../../src/stats/panelStates';

const clock = (at: number): string => `t${at}`;

describe('Stats panel states', () => {
  it('says nothing about running containers', () => {
    const states = new PanelStates(clock);
    assert.equal(states.update([{ id: 'a', name: 'web', state: 'running' }, { id: 'b', name: 'db', state: 'paused' }], 1), true);
    assert.deepEqual(states.notes(['a', 'b']), []);
    assert.equal(states.note('a'), undefined);
    assert.equal(states.allRemoved(), false);
  });

  it('notes a stopped container with the time it was seen to stop, and drops the note when it runs again', () => {
    const states = new PanelStates(clock);
    states.update([{ id: 'a', name: 'web', state: 'running' }], 1);
    assert.equal(states.update([{ id: 'a', name: 'web', state: 'exited' }], 5), true);
    assert.deepEqual(states.notes(['a']), ['web stopped at t5. The charts keep its figures until then and go on if it starts again.']);
    assert.notEqual(states.note('a'), undefined);
    // The same state again is no change, and keeps the first time.
    assert.equal(states.update([{ id: 'a', name: 'web', state: 'exited' }], 9), false);
    assert.match(states.note('a') ?? '', /at t5\./);
    assert.equal(states.update([{ id: 'a', name: 'web', state: 'running' }], 12), true);
    assert.equal(states.note('a'), undefined);
  });

  it('names other states as the engine words them', () => {
    const states = new PanelStates(clock);
    states.update([{ id: 'a', name: 'web', state: 'dead' }], 3);
    assert.equal(states.note('a'), 'web is dead (since t3). The charts keep its figures until then and go on if it starts again.');
  });

  it('keeps a removed container removed, and ends only when every container is gone', () => {
    const states = new PanelStates(clock);
    states.update([{ id: 'a', name: 'web', state: 'running' }, { id: 'b', name: 'db', state: 'running' }], 1);
    states.update([{ id: 'a', name: 'web', state: REMOVED }], 4);
    assert.equal(states.note('a'), 'web was removed at t4. The charts keep its figures until then.');
    assert.equal(states.allRemoved(), false);
    // A later sighting cannot bring a removed id back.
    assert.equal(states.update([{ id: 'a', name: 'web', state: 'running' }], 6), false);
    assert.match(states.note('a') ?? '', /was removed at t4/);
    states.update([{ id: 'b', name: 'db', state: REMOVED }], 7);
    assert.equal(states.allRemoved(), true);
    assert.deepEqual(states.notes(['b', 'a']), ['db was removed at t7. The charts keep its figures until then.', 'web was removed at t4. The charts keep its figures until then.']);
  });

  it('has nothing to end before it has seen any container', () => {
    assert.equal(new PanelStates(clock).allRemoved(), false);
  });
});
