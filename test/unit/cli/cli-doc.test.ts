// docs/cli.md's command table is generated from the command table; this fails when one is edited without the other.
// Regenerate: node --import tsx scripts/cli-doc-table.ts
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { cliDocBlock, CLI_DOC_PATH } from '../../../scripts/cli-doc-table';
import { commandEntries } from '../../../src/cli/commands';
import { cliDocCommandTable } from '../../../src/cli/help';

void describe("docs/cli.md's command table", () => {
  void it('is exactly what the command table prints', () => {
    assert.equal(cliDocBlock(readFileSync(CLI_DOC_PATH, 'utf8')), cliDocCommandTable());
  });

  void it('has one row per command, naming each of its flags', () => {
    const table = cliDocCommandTable();
    for (const { entry } of commandEntries) {
      const row = table.split('\n').find((line) => line.startsWith(`| \`${entry.usage.replace(/\|/g, '\\|')}\``));
      assert.ok(row, entry.usage);
      for (const flag of entry.flagSpecs) assert.ok(row.includes(`--${flag.long}`), `${entry.usage}: --${flag.long}`);
    }
  });
});
