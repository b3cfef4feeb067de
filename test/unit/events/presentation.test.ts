import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EngineEvent } from '../../../src/engine';
import { filterDescription, matchesFilter, objectName, presentEvent } from '../../../src/events/presentation';

const ID = 'de8d91b93315d74b55cc3b47ffb82b135c2eae5d2b72572bbbe19e66f4311f4e';
const die: EngineEvent = {
  Type: 'container',
  Action: 'die',
  Actor: { ID, Attributes: { name: 'web', image: 'busybox', exitCode: '137', signal: '9' } },
  time: 1795854677,
  timeNano: 1795854677e9,
  exactTimeNano: '1795854677000000000',
};
const pull: EngineEvent = { Type: 'image', Action: 'pull', Actor: { ID: `sha256:${'a'.repeat(64)}` }, time: 1795854677, timeNano: 1795854677e9 };

void describe('Events view rows', () => {
  void it('show type, action and name, with exit code and signal beside the time', () => {
    const row = presentEvent({ sequence: 0, event: die, nanos: 1795854677000000000n });
    assert.equal(row.label, 'container die web');
    assert.match(row.description, /^\d\d:\d\d:\d\d\.000 · exitCode=137 · signal=9$/);
    assert.equal(row.contextValue, 'berth:event:revealable');
    assert.match(row.tooltip, /container die/);
  });

  void it('name an object without a name by its short id', () => {
    assert.equal(objectName(pull), 'a'.repeat(12));
  });

  void it('filter on every word in type, action or object', () => {
    assert.equal(matchesFilter(die, ''), true);
    assert.equal(matchesFilter(die, 'container DIE'), true);
    assert.equal(matchesFilter(die, 'web'), true);
    assert.equal(matchesFilter(die, 'de8d91'), true);
    assert.equal(matchesFilter(die, 'container start'), false);
    assert.equal(matchesFilter(pull, 'web'), false);
  });

  void it('say how many a filter shows of how many are kept', () => {
    assert.equal(filterDescription(3, 10, 'die'), '3 of 10');
    assert.equal(filterDescription(10, 10, ''), '');
  });
});
