// Writes the README's CLI table from the command table (src/cli/commands.ts): node --import tsx scripts/cli-readme-table.ts
// test/unit/cli-readme.test.ts fails when the two drift apart.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readmeCommandTable } from '../src/cli/help';

export const README_PATH = resolve(__dirname, '..', 'README.md');
export const CLI_TABLE_START = '<!-- cli-table:start (generated from src/cli/commands.ts by scripts/cli-readme-table.ts) -->';
export const CLI_TABLE_END = '<!-- cli-table:end -->';

/** The README text between the markers, or undefined when they are missing. */
export function readmeCliBlock(readme: string): string | undefined {
  const start = readme.indexOf(CLI_TABLE_START);
  const end = readme.indexOf(CLI_TABLE_END);
  if (start < 0 || end < start) return undefined;
  return readme.slice(start + CLI_TABLE_START.length, end).trim();
}

if (require.main === module) {
  const readme = readFileSync(README_PATH, 'utf8');
  const current = readmeCliBlock(readme);
  if (current === undefined) throw new Error(`README.md has no ${CLI_TABLE_START} … ${CLI_TABLE_END} block`);
  const start = readme.indexOf(CLI_TABLE_START) + CLI_TABLE_START.length;
  writeFileSync(README_PATH, `${readme.slice(0, start)}\n${readmeCommandTable()}\n${readme.slice(readme.indexOf(CLI_TABLE_END))}`);
}
