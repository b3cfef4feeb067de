/**
 * `npm run nls`: moves every user-facing literal of package.json (display name, description, command titles and
 * categories, view and container names, welcome-view texts, walkthroughs, setting descriptions) into
 * package.nls.json and puts a `%key%` in its place. Idempotent: a `%key%` is left alone, so run it again after
 * merging work that added commands or settings. The test run never runs it; test/unit/package/nls.test.ts fails on a
 * literal it would move.
 *
 * Keys come from what the text belongs to (`berth.runContainer.title`, `config.berth.logs.tail.description`), so
 * they stay stable when entries are added or reordered. A literal whose key already holds another text replaces that
 * text: the literal is the newer one. Keys nothing refers to any more are dropped from package.nls.json (and named,
 * so their translations can be dropped too).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isNlsKey, localisableTexts, type LocalisableText } from './lib/nlsTexts';

const root = join(__dirname, '..');
const manifestPath = join(root, 'package.json');
const nlsPath = join(root, 'package.nls.json');

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
const nls = JSON.parse(readFileSync(nlsPath, 'utf8')) as Record<string, string>;

const texts: LocalisableText[] = localisableTexts(manifest);
let moved = 0;
const referenced = new Set<string>();
for (const text of texts) {
  if (isNlsKey(text.value)) {
    referenced.add(text.value.slice(1, -1));
    continue;
  }
  if (nls[text.key] !== undefined && nls[text.key] !== text.value) console.log(`nls: ${text.key} takes the newer text from package.json`);
  nls[text.key] = text.value;
  text.set(`%${text.key}%`);
  referenced.add(text.key);
  moved++;
}
// Keys that generated parts of the manifest refer to (the agent tools' names) count as referenced too.
for (const match of readFileSync(manifestPath, 'utf8').matchAll(/"%([\w.-]+)%"/g)) referenced.add(match[1] ?? '');
const dropped = Object.keys(nls).filter((key) => !referenced.has(key));
for (const key of dropped) delete nls[key];

const sorted = Object.fromEntries(Object.entries(nls).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(nlsPath, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`nls: ${moved} literal(s) moved to package.nls.json, ${Object.keys(sorted).length} key(s) in all`);
if (dropped.length > 0) console.log(`nls: no longer used, dropped: ${dropped.join(', ')} (drop them from package.nls.*.json too)`);
