// Runtime strings go through vscode.l10n.t, whose English text is its key: the bundle in l10n/ must hold every one
// of them as `@vscode/l10n-dev export` finds them in src/ (`npm run l10n` writes it), so VS Code, when a translation
// lacks a string, shows the English text and never a raw key. Translations carry only strings that exist, with
// their {0}… placeholders intact.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..', '..');
const readJson = (path: string): Record<string, string> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
const placeholders = (text: string): string[] => [...text.matchAll(/\{\d+\}/g)].map((match) => match[0]).sort();

void describe('l10n bundles', () => {
  void it('l10n/bundle.l10n.json is what @vscode/l10n-dev exports from src/ (run `npm run l10n`)', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'berth-l10n-'));
    await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'vscode-l10n-dev'), ['export', '--outDir', outDir, './src'], { cwd: ROOT, timeout: 120_000 });
    const exported = readJson(join(outDir, 'bundle.l10n.json'));
    assert.ok(Object.keys(exported).length > 0, 'no vscode.l10n.t call found in src/');
    assert.deepEqual(readJson(join(ROOT, 'l10n', 'bundle.l10n.json')), exported);
  });

  void it('each translation has only strings of the English bundle, with the same placeholders', () => {
    const english = readJson(join(ROOT, 'l10n', 'bundle.l10n.json'));
    const translations = readdirSync(join(ROOT, 'l10n')).filter((name) => /^bundle\.l10n\.[a-z-]+\.json$/.test(name));
    assert.ok(translations.includes('bundle.l10n.de.json'), 'the German bundle ships');
    for (const name of translations) {
      const translated = readJson(join(ROOT, 'l10n', name));
      assert.deepEqual(Object.keys(translated).filter((key) => !(key in english)), [], `${name}: strings the sources no longer use`);
      for (const [key, text] of Object.entries(translated)) {
        assert.ok(text !== '' && text !== key.replace(/\{\d+\}/g, ''), `${name}: "${key}" is empty`);
        assert.deepEqual(placeholders(text), placeholders(key), `${name}: "${key}" must keep its placeholders`);
      }
    }
  });

  void it('the German bundle translates every string, except the words German spells the same', () => {
    const english = readJson(join(ROOT, 'l10n', 'bundle.l10n.json'));
    const german = readJson(join(ROOT, 'l10n', 'bundle.l10n.de.json'));
    // A missing entry shows the English text, which for these is the German one too.
    const sameInGerman = new Set(['Container', 'Name', 'TTY', 'Volume', 'Volumes', 'Labels:', 'Ports']);
    assert.deepEqual(Object.keys(english).filter((key) => !(key in german) && !sameInGerman.has(key)), [], 'strings with no German entry');
  });

  void it('a string a translation lacks falls back to English, never to a raw key (bad-input row translation-missing)', () => {
    // VS Code shows the key itself when the language's bundle lacks it; so each key must be its own English text.
    const english = readJson(join(ROOT, 'l10n', 'bundle.l10n.json'));
    assert.deepEqual(Object.entries(english).filter(([key, text]) => key !== text).map(([key]) => key), [], 'keys that are not their English text');
    const german = readJson(join(ROOT, 'l10n', 'bundle.l10n.de.json'));
    const lookup = (bundle: Record<string, string>, key: string): string => bundle[key] ?? key;
    const dropped = Object.keys(german)[0] ?? '';
    const partial = Object.fromEntries(Object.entries(german).filter(([key]) => key !== dropped));
    assert.equal(lookup(partial, dropped), english[dropped], 'the dropped string shows in English');
  });

  void it('package.json points VS Code at the bundles', () => {
    const manifest = readJson(join(ROOT, 'package.json'));
    assert.equal(manifest['l10n'], './l10n');
  });
});
