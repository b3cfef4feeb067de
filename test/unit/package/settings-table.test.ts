// The README's settings table is generated from package.json; this fails when a setting is added, removed or
// reworded without it. Regenerate: node --import tsx scripts/settings-table.ts
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { contributedSettings, README_PATH, readmeSettingsBlock, renderSettingsTable } from '../../../scripts/settings-table';

void describe("the README's settings table", () => {
  void it('is exactly what package.json contributes', () => {
    assert.equal(readmeSettingsBlock(readFileSync(README_PATH, 'utf8')), renderSettingsTable());
  });

  void it('names every setting, each with a description', () => {
    const table = renderSettingsTable();
    const settings = contributedSettings();
    assert.ok(settings.length >= 17, `only ${settings.length} settings found`);
    for (const { key, text } of settings) {
      assert.ok(table.includes(`| \`${key}\` |`), key);
      assert.ok(text && !text.startsWith('%'), `${key} has no English description`);
    }
  });
});
