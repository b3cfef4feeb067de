import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeLetter, changeTooltip, changesRowTooltip, changesSummary } from '../../../src/changes/presentation';

void describe('the Changes row words', () => {
  void it('counts each kind there is, in the order added, changed, deleted', () => {
    assert.equal(changesSummary({ added: 3, changed: 1, deleted: 1 }), '3 added, 1 changed, 1 deleted');
    assert.equal(changesSummary({ added: 0, changed: 2, deleted: 0 }), '2 changed');
    assert.equal(changesSummary({ added: 0, changed: 0, deleted: 0 }), 'no changes');
  });

  void it('marks paths as source control does, and says what happened in the tooltip', () => {
    assert.deepEqual([changeLetter(0), changeLetter(1), changeLetter(2), changeLetter(undefined)], ['C', 'A', 'D', undefined]);
    assert.equal(changeTooltip('/etc/group', 2), '/etc/group: deleted by the container (the image has it)');
    assert.equal(changeTooltip('/srv', undefined), '/srv');
  });

  void it('says when paths were left out of a very long list', () => {
    assert.ok(!changesRowTooltip(0).includes('more paths'));
    assert.ok(changesRowTooltip(12).includes('12 more paths are counted but not listed.'));
  });
});
