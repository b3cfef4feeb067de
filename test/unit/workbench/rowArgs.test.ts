// Which rows a command acts on (src/workbench/rowArgs.ts), by VS Code's convention for a right-click: the clicked row
// with the rest of the selection when it is part of it, the clicked row alone when it is not.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clickedWithSelection } from '../../../src/workbench/rowArgs';

const row = (name: string): { kind: string; name: string } => ({ kind: 'network', name });
const nameOf = (value: unknown): string | undefined => (typeof value === 'object' && value !== null && 'name' in value ? String(value.name) : typeof value === 'string' ? value : undefined);

void describe('clickedWithSelection', () => {
  void it('a right-click on a row outside the selection acts on that row alone, not on the selection', () => {
    assert.deepEqual(clickedWithSelection([row('c'), [row('a'), row('b')]], nameOf).keys, ['c']);
  });

  void it('a right-click on a selected row acts on the whole selection, each once', () => {
    assert.deepEqual(clickedWithSelection([row('b'), [row('a'), row('b'), row('a')]], nameOf).keys, ['a', 'b']);
  });

  void it('a row alone, keys from automation, and no arguments (the palette then asks)', () => {
    assert.deepEqual(clickedWithSelection([row('a'), [row('a')]], nameOf).keys, ['a']);
    assert.deepEqual(clickedWithSelection([['x', 'y'], { confirmed: true }], nameOf), { keys: ['x', 'y'], options: { confirmed: true } });
    assert.deepEqual(clickedWithSelection(['x', { engine: 'podman' }], nameOf), { keys: ['x'], options: { engine: 'podman' } });
    assert.deepEqual(clickedWithSelection([], nameOf).keys, []);
  });
});
