// Writes docs/cli.md's command table from the command table (src/cli/commands.ts): node --import tsx scripts/cli-doc-table.ts
// test/unit/cli/cli-doc.test.ts fails when the two drift apart.
import { resolve } from 'node:path';
import { cliDocCommandTable } from '../src/cli/help';
import { markedBlock, replaceMarkedBlock } from './lib/markedBlock';

export const CLI_DOC_PATH = resolve(__dirname, '..', 'docs', 'cli.md');
export const CLI_TABLE_START = '<!-- cli-table:start (generated from src/cli/commands.ts by scripts/cli-doc-table.ts) -->';
export const CLI_TABLE_END = '<!-- cli-table:end -->';

/** The document's text between the markers, or undefined when they are missing. */
export function cliDocBlock(doc: string): string | undefined {
  return markedBlock(doc, CLI_TABLE_START, CLI_TABLE_END);
}

if (require.main === module) replaceMarkedBlock(CLI_DOC_PATH, CLI_TABLE_START, CLI_TABLE_END, cliDocCommandTable());
