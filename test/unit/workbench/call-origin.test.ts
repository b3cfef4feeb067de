// Which command arguments come from Berth's own UI (src/workbench/callOrigin.ts): only the objects a Berth tree
// handed out, never an object shaped like one; an outside call loses `confirmed: true`; what a question shows of
// an outside value cannot forge a line.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isFromBerthUi, listLine, ownRows, shownValue, SHOWN_PER_LIST, withoutOutsideConfirmation } from '../../../src/workbench/callOrigin';

interface Row {
  kind: string;
  id: string;
}

/** A provider as a Berth tree is (no vscode needed: only the methods the wrapper calls). */
function provider(rows: Row[], later = false): Parameters<typeof ownRows<Row>>[0] {
  return { getTreeItem: () => ({}), getChildren: () => (later ? Promise.resolve(rows) : rows) };
}

void describe('isFromBerthUi', () => {
  void it('takes rows the tree handed out, alone or as the selection, and no arguments at all (the palette)', async () => {
    const rows = [{ kind: 'container', id: 'a' }, { kind: 'container', id: 'b' }];
    const served = ownRows(provider(rows));
    const handed = served.getChildren() as Row[];
    assert.equal(isFromBerthUi([handed[0], handed]), true);
    assert.equal(isFromBerthUi([]), true);
    assert.equal(isFromBerthUi([undefined]), true);
    const later = [{ kind: 'image', id: 'c' }];
    const handedLater = (await ownRows(provider(later, true)).getChildren()) as Row[];
    assert.equal(isFromBerthUi([handedLater[0]]), true, 'rows served asynchronously count too');
  });

  void it('refuses a forged row, an id, an options bag, or a selection with one forged row in it', () => {
    const rows = [{ kind: 'container', id: 'a' }];
    const [row] = ownRows(provider(rows)).getChildren() as Row[];
    assert.equal(isFromBerthUi([{ kind: 'container', id: 'a' }]), false, 'a copy of a row is not the row');
    assert.equal(isFromBerthUi(['a']), false);
    assert.equal(isFromBerthUi([row, { confirmed: true }]), false);
    assert.equal(isFromBerthUi([row, [row, { kind: 'container', id: 'b' }]]), false);
  });
});

void describe('withoutOutsideConfirmation', () => {
  void it('drops confirmed: true from options bags, keeps a refusal and every other value', () => {
    const args = withoutOutsideConfirmation(['a', { confirmed: true, engine: 'x' }, { confirmed: false }]);
    assert.deepEqual(args, ['a', { engine: 'x' }, { confirmed: false }]);
  });

  void it('drops Compose Down\'s volumes: true and Build\'s confirmLargeContext: true, keeps their refusals', () => {
    const args = withoutOutsideConfirmation([
      { files: ['/w/compose.yaml'], volumes: true },
      { dockerfile: '/w/Dockerfile', tag: 'a:1', confirmLargeContext: true },
      { project: 'p' },
      { volumes: false, confirmLargeContext: false },
      { options: { volumes: ['/:/host'] } },
    ]);
    assert.deepEqual(args, [{ files: ['/w/compose.yaml'] }, { dockerfile: '/w/Dockerfile', tag: 'a:1' }, { project: 'p' }, { volumes: false, confirmLargeContext: false }, { options: { volumes: ['/:/host'] } }]);
  });
});

void describe('shownValue and listLine', () => {
  void it('escapes what could forge a line or reorder text, and says how many values it leaves out', () => {
    assert.equal(shownValue('/:/host\nImage: harmless'), '/:/host\\u{a}Image: harmless');
    assert.equal(shownValue('a\u202eb'), 'a\\u{202e}b');
    assert.equal(shownValue(3), '3');
    const many = Array.from({ length: SHOWN_PER_LIST + 5 }, (_, index) => `v${index}`);
    assert.match(listLine('Mounts', many)[0] ?? '', /, and 5 more$/);
    assert.deepEqual(listLine('Mounts', []), []);
  });
});
