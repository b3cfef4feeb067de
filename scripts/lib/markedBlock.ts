// A generated block inside a hand-written document, between a start and an end marker: read it for the drift tests,
// replace it for the generators (scripts/cli-doc-table.ts, scripts/settings-table.ts).
import { readFileSync, writeFileSync } from 'node:fs';

/** The text between the markers, trimmed, or undefined when they are missing. */
export function markedBlock(text: string, start: string, end: string): string | undefined {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) return undefined;
  return text.slice(from + start.length, to).trim();
}

/** Rewrites FILE with BLOCK between the markers; throws naming the markers when the file lacks them. */
export function replaceMarkedBlock(file: string, start: string, end: string, block: string): void {
  const text = readFileSync(file, 'utf8');
  if (markedBlock(text, start, end) === undefined) throw new Error(`${file} has no ${start} … ${end} block`);
  const from = text.indexOf(start) + start.length;
  writeFileSync(file, `${text.slice(0, from)}\n${block}\n${text.slice(text.indexOf(end))}`);
}
