// The CLI's code cache: written once, used by the next load, and never in the way (a damaged cache or no home only
// costs the compile).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { codeCacheFolder, loadWithCodeCache } from '../../../src/cli/codeCache';

function bundleIn(folder: string): string {
  const file = join(folder, 'cli-main.js');
  writeFileSync(file, `'use strict';\nconst path = require('node:path');\nexports.answer = () => 6 * 7;\nexports.where = () => path.basename(__filename) + '|' + module.exports.answer();\n`);
  return file;
}

/** A CLI start in a new process: what V8 took from the cache there. */
function startIn(file: string, cache: string): { answer: number; fromCache: boolean } {
  const child = join(__dirname, 'codeCacheChild.ts');
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', child, file, cache], { encoding: 'utf8', timeout: 120_000 })) as { answer: number; fromCache: boolean };
}

void describe('code cache of the CLI bundle', () => {
  void it('the first start writes one cache file, the next one compiles from it, and both give the same exports', () => {
    const folder = mkdtempSync(join(tmpdir(), 'berth-code-cache-'));
    try {
      const file = bundleIn(folder);
      const cache = join(folder, 'cache');
      assert.deepEqual(startIn(file, cache), { answer: 42, fromCache: false });
      const written = readdirSync(cache).filter((name) => name.endsWith('.v8cache'));
      assert.equal(written.length, 1);
      assert.deepEqual(startIn(file, cache), { answer: 42, fromCache: true });
      assert.deepEqual(readdirSync(cache), written, 'an accepted cache is not written again');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  void it('a damaged cache is refused by V8, the bundle still loads, and the cache is written anew', () => {
    const folder = mkdtempSync(join(tmpdir(), 'berth-code-cache-'));
    try {
      const file = bundleIn(folder);
      const cache = join(folder, 'cache');
      startIn(file, cache);
      const [name] = readdirSync(cache);
      assert.ok(name !== undefined);
      writeFileSync(join(cache, name), Buffer.from('not a code cache'));
      assert.deepEqual(startIn(file, cache), { answer: 42, fromCache: false });
      const rewritten = readdirSync(cache).map((each) => readFileSync(join(cache, each)));
      assert.equal(rewritten.length, 1);
      assert.notEqual(rewritten[0]?.toString('latin1'), 'not a code cache', 'the refused cache was written anew');
      assert.deepEqual(startIn(file, cache), { answer: 42, fromCache: true });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  void it('in one process: the exports work; no bundle gives undefined (the launcher then requires as usual)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'berth-code-cache-'));
    try {
      const loaded = loadWithCodeCache<{ where(): string }>(bundleIn(folder), undefined);
      assert.equal(loaded?.exports.where(), 'cli-main.js|42');
      assert.equal(loadWithCodeCache(join(folder, 'missing', 'cli-main.js'), undefined), undefined);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  void it('the cache folder: XDG_CACHE_HOME, else HOME/.cache; none for a home that is not absolute', () => {
    assert.equal(codeCacheFolder({ HOME: 'relative' }), undefined);
    assert.equal(codeCacheFolder({ HOME: '/home/u' }), '/home/u/.cache/berth');
    assert.equal(codeCacheFolder({ HOME: '/home/u', XDG_CACHE_HOME: '/var/cache/u' }), '/var/cache/u/berth');
  });
});
