// package.json shows no literal to users: every title, name, description and welcome text is a %key% of
// package.nls.json (`npm run nls` moves new literals there), and translations only carry keys that exist.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isNlsKey, localisableTexts } from '../../../scripts/lib/nlsTexts';

const ROOT = join(__dirname, '..', '..', '..');
const readJson = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(ROOT, name), 'utf8')) as Record<string, unknown>;

/** Every `%key%` string anywhere in the manifest. */
function referencedKeys(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string' && isNlsKey(value)) into.add(value.slice(1, -1));
  else if (Array.isArray(value)) for (const item of value) referencedKeys(item, into);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) referencedKeys(item, into);
  return into;
}

void describe('package.json localisation', () => {
  const manifest = readJson('package.json');
  const english = readJson('package.nls.json');

  void it('has no literal title, name, description or welcome text: each is a %key% (run `npm run nls`)', () => {
    const literals = localisableTexts(manifest).filter((text) => !isNlsKey(text.value));
    assert.deepEqual(
      literals.map((text) => `${text.path}: ${text.value.slice(0, 60)}`),
      [],
      'literal texts in package.json: run `npm run nls` to move them into package.nls.json',
    );
  });

  void it('every %key% has an English text in package.nls.json, and no English text is unused', () => {
    const referenced = referencedKeys(manifest);
    assert.ok(referenced.size >= 50, `only ${referenced.size} keys: the manifest was not converted`);
    assert.deepEqual([...referenced].filter((key) => typeof english[key] !== 'string' || english[key] === ''), []);
    assert.deepEqual(Object.keys(english).filter((key) => !referenced.has(key)), []);
  });

  void it('translations carry only keys that exist in English, each with a text', () => {
    const translations = readdirSync(ROOT).filter((name) => /^package\.nls\.[a-z-]+\.json$/.test(name));
    assert.ok(translations.includes('package.nls.de.json'), 'the German translation ships');
    for (const name of translations) {
      const translated = readJson(name);
      assert.deepEqual(Object.keys(translated).filter((key) => !(key in english)), [], `${name} has keys English does not`);
      assert.deepEqual(Object.keys(translated).filter((key) => typeof translated[key] !== 'string' || translated[key] === ''), [], `${name} has empty texts`);
    }
  });

  void it('the German translation has every key: the palette, views and settings read German throughout', () => {
    const german = readJson('package.nls.de.json');
    assert.deepEqual(Object.keys(english).filter((key) => !(key in german)), [], 'keys with no German text');
  });

  void it('the check finds a literal command title, category, welcome text and setting description', () => {
    const texts = localisableTexts({
      contributes: {
        commands: [{ command: 'berth.x', title: 'Do X', category: '%category.berth%' }],
        viewsWelcome: [{ view: 'berth.containers', contents: 'Nothing here', when: 'berth.engineState == connected' }],
        configuration: { title: '%config.title%', properties: { 'berth.x': { type: 'string', markdownDescription: 'The `x`', enum: ['a'], enumDescriptions: ['A'] } } },
      },
    });
    assert.deepEqual(
      texts.filter((text) => !isNlsKey(text.value)).map((text) => text.key),
      ['berth.x.title', 'viewsWelcome.berth.containers.enginestate-connected', 'config.berth.x.markdownDescription', 'config.berth.x.enumDescriptions.a'],
    );
  });

  void it('the package ships the translations', () => {
    assert.ok(existsSync(join(ROOT, 'package.nls.de.json')));
    const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!package\.nls\*\.json$/m);
  });
});
