/**
 * What `berth ps` loads of Node's own modules. A built-in outside Node's start-up snapshot is compiled when first
 * required, so the short commands must not require those only rare paths use: child_process (credential helpers,
 * ssh, the compose CLI), crypto (context hashes, build contexts) and zlib (saved images). Counted from
 * process.moduleLoadList at exit in the real bundle, against the real engines: no timing.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { engineTargets, loadTestEngines } from '../../support/engines';
import { createCliHarness, type CliHarness } from './support';

const RARE_BUILT_INS = ['child_process', 'crypto', 'zlib'];

/** A --require hook that writes the public built-ins the process loaded to FILE when it exits. */
function loadListHook(directory: string, file: string): string {
  const hook = join(directory, 'load-list-hook.js');
  const source = `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(file)}, process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ') && !entry.includes('internal/')).map((entry) => entry.slice(13)).join('\\n')));\n`;
  writeFileSync(hook, source);
  return hook;
}

for (const target of engineTargets(loadTestEngines())) {
  void describe(`berth start-up built-ins (${target.name})`, () => {
    let harness: CliHarness;
    before(async () => {
      harness = await createCliHarness(`startup-${target.name}`);
    });
    after(async () => {
      await harness.dispose();
    });

    const loadedBy = async (args: readonly string[]): Promise<{ code: number | null; stderr: string; loaded: string[] }> => {
      const directory = join(harness.bundle, '..');
      const listFile = join(directory, `load-list-${target.name}.txt`);
      const hook = loadListHook(directory, listFile);
      const result = await harness.berth(args, { host: target.host, env: { DOCKER_CONFIG: join(directory, 'empty-docker-config'), NODE_OPTIONS: `--require ${hook}` } });
      return { code: result.code, stderr: result.stderr, loaded: readFileSync(listFile, 'utf8').split('\n') };
    };

    void it('ps lists through net without child_process, crypto or zlib', { skip: target.skip }, async () => {
      const { code, stderr, loaded } = await loadedBy(['ps', '--filter', `label=${harness.labelFilter}`]);
      assert.deepEqual({ code, stderr }, { code: 0, stderr: '' });
      // The hook saw the whole run: the engine was reached over a socket.
      assert.ok(loaded.includes('net'), `net missing from ${loaded.join(', ')}`);
      assert.deepEqual(RARE_BUILT_INS.filter((name) => loaded.includes(name)), []);
    });

    void it('images and volume ls load none of them either', { skip: target.skip }, async () => {
      for (const args of [['images', '--filter', 'label=berth.test.none=1'], ['volume', 'ls', '--filter', 'label=berth.test.none=1']]) {
        const { code, stderr, loaded } = await loadedBy(args);
        assert.deepEqual({ args, code, stderr }, { args, code: 0, stderr: '' });
        assert.deepEqual({ args, rare: RARE_BUILT_INS.filter((name) => loaded.includes(name)) }, { args, rare: [] });
      }
    });
  });
}
