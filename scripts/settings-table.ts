// Writes the README's settings table from package.json's contributes.configuration and package.nls.json:
//   node --import tsx scripts/settings-table.ts
// test/unit/package/settings-table.test.ts fails when a setting is added, removed or reworded without it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { markedBlock, replaceMarkedBlock } from './lib/markedBlock';

const ROOT = resolve(__dirname, '..');
export const README_PATH = resolve(ROOT, 'README.md');
export const SETTINGS_START = '<!-- settings-table:start (generated from package.json by scripts/settings-table.ts) -->';
export const SETTINGS_END = '<!-- settings-table:end -->';

interface SettingSchema {
  readonly type?: string | string[];
  readonly default?: unknown;
  readonly description?: string;
  readonly markdownDescription?: string;
}

/** Every setting Berth contributes, in package.json's order, with its English description. */
export function contributedSettings(): Array<{ key: string; schema: SettingSchema; text: string }> {
  const manifest = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, SettingSchema> } };
  };
  const nls = JSON.parse(readFileSync(resolve(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const localised = (text = ''): string => text.replace(/^%(.+)%$/, (whole, key: string) => nls[key] ?? whole);
  return Object.entries(manifest.contributes.configuration.properties).map(([key, schema]) => ({
    key,
    schema,
    text: localised(schema.markdownDescription ?? schema.description),
  }));
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ').trim();
}

function shownDefault(value: unknown): string {
  if (value === undefined) return '';
  const json = JSON.stringify(value);
  return json === '""' ? '*(empty)*' : `\`${cell(json)}\``;
}

export function renderSettingsTable(): string {
  const rows = contributedSettings().map(
    ({ key, schema, text }) => `| \`${key}\` | ${shownDefault(schema.default)} | ${cell(text)} |`,
  );
  return ['| setting | default | what it does |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The README text between the markers, or undefined when they are missing. */
export function readmeSettingsBlock(readme: string): string | undefined {
  return markedBlock(readme, SETTINGS_START, SETTINGS_END);
}

if (require.main === module) replaceMarkedBlock(README_PATH, SETTINGS_START, SETTINGS_END, renderSettingsTable());
