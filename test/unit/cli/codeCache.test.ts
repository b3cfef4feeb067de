// The CLI's code cache: written once, used by the next load, and never in the way (a damaged cache or no home only
// costs the compile).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { codeCacheFolder, loadWithCodeCache } from '../../../src/cli/codeCache';

function bundleIn(folder: string): string {
  const file = join(folder, 'cli-main.js');
  writeFileSync(file, `'use strict';\nconst path = require('node:path');\nexports.answer = () => 6 * 7;\nexports.where = () => path.basename(__filename) + '|' + module.exports.answer();\n`);
  return file;
}

void describe('code cache of the CLI bundle', () => {
  void it('the first load writes one cache file, the next one reads it, and both give the same exports', () => {
    const folder = mkdtempSync(join(tmpdir(), 'berth-code-cache-'));
    try {
      const file = bundleIn(folder);
      const cache = join(folder, 'cache');
      const first = loadWithCodeCache<{ answer(): number; where(): string }>(file, cache);
      assert.equal(first?.exports.where(), 'cli-main.js|42');
      first?.saveCache();
      assert.equal(readdirSync(cache).filter((name) => name.endsWith('.v8cache')).length, 1);
      const second = loadWithCodeCache<{ answer(): number }>(file, cache);
      assert.equal(second?.exports.answer(), 42);
      const before = readdirSync(cache);
      second?.saveCache();
      assert.deepEqual(readdirSync(cache), before, 'an accepted cache is not written again');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  void it('a damaged cache is refused by V8, the bundle still loads, and the cache is written anew', () => {
    const folder = mkdtempSync(join(tmpdir(), 'berth-code-cache-'));
    try {
      const file = bundleIn(folder);
      const cache = join(folder, 'cache');
      loadWithCodeCache(file, cache)?.saveCache();
      const [name] = readdirSync(cache);
      assert.ok(name !== undefined);
      writeFileSync(join(cache, name), Buffer.from('not a code cache'));
      const loaded = loadWithCodeCache<{ answer(): number }>(file, cache);
      assert.equal(loaded?.exports.answer(), 42);
      loaded?.saveCache();
      const rewritten = readdirSync(cache).map((each) => readFileSync(join(cache, each)));
      assert.equal(rewritten.length, 1);
      assert.notEqual(rewritten[0]?.toString('latin1'), 'not a code cache', 'the refused cache was written anew');
      assert.ok(readdirSync(cache).every((each) => !each.includes(`.${process.pid}`)), 'no partial file is left');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  void it('no bundle: undefined, so the launcher requires the module as usual; no home: no cache folder', () => {
    assert.equal(loadWithCodeCache(join(tmpdir(), 'berth-no-such-bundle', 'cli-main.js'), undefined), undefined);
    assert.equal(codeCacheFolder({ HOME: 'relative' }), undefined);
    assert.equal(codeCacheFolder({ HOME: '/home/u' }), '/home/u/.cache/berth');
    assert.equal(codeCacheFolder({ HOME: '/home/u', XDG_CACHE_HOME: '/var/cache/u' }), '/var/cache/u/berth');
  });
});
