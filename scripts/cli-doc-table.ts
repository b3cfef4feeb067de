// Writes docs/cli.md's command table from the command table (src/cli/commands.ts): node --import tsx scripts/cli-doc-table.ts
// test/unit/cli/cli-doc.test.ts fails when the two drift apart.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readmeCommandTable } from '../src/cli/help';

export const CLI_DOC_PATH = resolve(__dirname, '..', 'docs', 'cli.md');
export const CLI_TABLE_START = '<!-- cli-table:start (generated from src/cli/commands.ts by scripts/cli-doc-table.ts) -->';
export const CLI_TABLE_END = '<!-- cli-table:end -->';

/** The document's text between the markers, or undefined when they are missing. */
export function cliDocBlock(doc: string): string | undefined {
  const start = doc.indexOf(CLI_TABLE_START);
  const end = doc.indexOf(CLI_TABLE_END);
  if (start < 0 || end < start) return undefined;
  return doc.slice(start + CLI_TABLE_START.length, end).trim();
}

if (require.main === module) {
  const doc = readFileSync(CLI_DOC_PATH, 'utf8');
  const current = cliDocBlock(doc);
  if (current === undefined) throw new Error(`docs/cli.md has no ${CLI_TABLE_START} … ${CLI_TABLE_END} block`);
  const start = doc.indexOf(CLI_TABLE_START) + CLI_TABLE_START.length;
  writeFileSync(CLI_DOC_PATH, `${doc.slice(0, start)}\n${readmeCommandTable()}\n${doc.slice(doc.indexOf(CLI_TABLE_END))}`);
}
