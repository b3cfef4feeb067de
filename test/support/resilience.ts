// Figures the resilience suites measure (reported, never asserted on time), merged into
// test-output/resilience.json so each suite adds its own section.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const outputFile = join(resolve(__dirname, '..', '..'), 'test-output', 'resilience.json');

export function recordResilienceFigures(section: string, figures: unknown): void {
  mkdirSync(join(outputFile, '..'), { recursive: true });
  let existing: Record<string, unknown> = {};
  if (existsSync(outputFile)) {
    try {
      existing = JSON.parse(readFileSync(outputFile, 'utf8')) as Record<string, unknown>;
    } catch {
      existing = {};
    }
  }
  existing[section] = { ...(figures as object), recordedAt: new Date().toISOString() };
  writeFileSync(outputFile, `${JSON.stringify(existing, null, 2)}\n`);
}

/** Open handles by type, from process.getActiveResourcesInfo(). */
export function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}
