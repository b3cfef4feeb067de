/**
 * What `berth ps` loads of Node's own modules. A built-in outside Node's start-up snapshot is compiled when first
 * required, so the short commands must not require those only rare paths use: child_process (credential helpers,
 * ssh, the compose CLI), crypto (context hashes, build contexts), zlib (saved images), fs/promises and
 * timers/promises (file copies, build contexts, compose logs), nor what undici requires at load but the CLI's
 * bundle replaces (http, assert: esbuild.js); `berth --version` not even v8 (its flags matter only to the main
 * bundle). Nor may they load a built-in after the launcher changes V8's flags (V8 then refuses Node's code cache for it).
 * Counted from process.moduleLoadList at exit in the real bundle, against the real engines: no timing. Also which runs
 * keep the bundle's code cache.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { engineTargets, loadTestEngines } from '../../support/engines';
import { createCliHarness, type CliHarness } from './support';

const RARE_BUILT_INS = ['child_process', 'crypto', 'zlib', 'fs/promises', 'timers/promises', 'http', 'assert'];

/** A --require hook that writes the built-ins the process loaded (internal ones too), in order, to FILE when it exits. */
function loadListHook(directory: string, file: string): string {
  const hook = join(directory, 'load-list-hook.js');
  const source = `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(file)}, process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice(13)).join('\\n')));\n`;
  writeFileSync(hook, source);
  return hook;
}

interface Loaded {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The public built-ins loaded. */
  readonly loaded: string[];
  /** Built-ins, internal ones included, loaded after node:v8 (which the launcher requires to change V8's flags). */
  readonly afterV8: string[];
}

/** Runs the bundle through HARNESS with the hook; resolves its exit, stderr and the built-ins it loaded. */
async function loadedBy(harness: CliHarness, name: string, args: readonly string[], host?: string): Promise<Loaded> {
  const directory = join(harness.bundle, '..');
  const listFile = join(directory, `load-list-${name}.txt`);
  const hook = loadListHook(directory, listFile);
  const env = { DOCKER_CONFIG: join(directory, 'empty-docker-config'), NODE_OPTIONS: `--require ${hook}` };
  const result = await harness.berth(args, host === undefined ? { noHost: true, env } : { host, env });
  const all = readFileSync(listFile, 'utf8').split('\n');
  const v8At = all.indexOf('v8');
  return {
    code: result.code,
    stdout: result.stdout,
    stderr: result.stderr,
    loaded: all.filter((entry) => !entry.startsWith('internal/')),
    afterV8: v8At === -1 ? [] : all.slice(v8At + 1),
  };
}

void describe('berth --version built-ins', () => {
  let harness: CliHarness;
  before(async () => {
    harness = await createCliHarness('startup-version');
  });
  after(async () => {
    await harness.dispose();
  });

  void it('--version prints the version without loading v8', async () => {
    const { code, stdout, stderr, loaded } = await loadedBy(harness, 'version', ['--version']);
    assert.deepEqual({ code, stderr }, { code: 0, stderr: '' });
    assert.match(stdout, /^berth version \d+\.\d+\.\d+/);
    // The hook saw the run: the launcher's own modules are listed.
    assert.ok(loaded.includes('vm'), `vm missing from ${loaded.join(', ')}`);
    assert.deepEqual(['v8', ...RARE_BUILT_INS].filter((name) => loaded.includes(name)), []);
  });
});

void describe('berth code cache', () => {
  let harness: CliHarness;
  before(async () => {
    harness = await createCliHarness('startup-cache');
  });
  after(async () => {
    await harness.dispose();
  });

  // V8 keeps a source with one character outside ASCII as two-byte text: the bundle's 600 kB then cost twice the memory
  // and a slower read on every call. esbuild escapes strings but keeps a regular expression's characters as written,
  // and only the production build (the one that ships) drops the comments.
  void it('ships a main bundle that is ASCII only', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'berth-cli-production-'));
    try {
      execFileSync(process.execPath, ['esbuild.js', '--production', `--cli-outdir=${outdir}`], { cwd: join(__dirname, '..', '..', '..') });
      const source = readFileSync(join(outdir, 'cli-main.js'));
      const offset = source.findIndex((byte) => byte > 0x7f);
      assert.equal(offset, -1, `non-ASCII at ${offset}: ${source.toString('latin1', Math.max(0, offset - 40), offset + 10)}`);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  // V8 writes what the run compiled: a cache from a run that never reached the engine would leave the engine client
  // out of every later start.
  void it('is kept from a successful engine call, not from --help or a failed call', async () => {
    const directory = join(harness.bundle, '..');
    const cacheHome = join(directory, 'cache-home');
    mkdirSync(cacheHome);
    const env = { DOCKER_CONFIG: join(directory, 'empty-docker-config'), XDG_CACHE_HOME: cacheHome };
    const cacheFiles = (): string[] => (existsSync(join(cacheHome, 'berth')) ? readdirSync(join(cacheHome, 'berth')).filter((name) => name.endsWith('.v8cache')) : []);

    const help = await harness.berth(['--help'], { noHost: true, env });
    assert.deepEqual({ code: help.code, stderr: help.stderr }, { code: 0, stderr: '' });
    assert.match(help.stdout, /Usage/i);
    assert.deepEqual(cacheFiles(), [], 'no cache from --help');

    const refused = await harness.berth(['--host', `unix://${join(directory, 'no-engine.sock')}`, 'ps'], { noHost: true, env });
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /^berth: /);
    assert.deepEqual(cacheFiles(), [], 'no cache from a failed call');

    const listed = await harness.berth(['ps', '--filter', `label=${harness.labelFilter}`], { env });
    assert.deepEqual({ code: listed.code, stderr: listed.stderr }, { code: 0, stderr: '' });
    assert.equal(cacheFiles().length, 1, 'one cache from the successful ps');
  });
});

for (const target of engineTargets(loadTestEngines())) {
  void describe(`berth start-up built-ins (${target.name})`, () => {
    let harness: CliHarness;
    before(async () => {
      harness = await createCliHarness(`startup-${target.name}`);
    });
    after(async () => {
      await harness.dispose();
    });

    void it('ps lists through net without child_process, crypto, zlib, fs/promises, http or assert', { skip: target.skip }, async () => {
      const { code, stderr, loaded } = await loadedBy(harness, target.name, ['ps', '--filter', `label=${harness.labelFilter}`], target.host);
      assert.deepEqual({ code, stderr }, { code: 0, stderr: '' });
      // The hook saw the whole run: the engine was reached over a socket.
      assert.ok(loaded.includes('net'), `net missing from ${loaded.join(', ')}`);
      assert.deepEqual(RARE_BUILT_INS.filter((name) => loaded.includes(name)), []);
    });

    // V8 refuses Node's code cache of a built-in once the launcher has changed its flags: one loaded after that is
    // compiled from its source.
    void it('ps and images load every built-in they use before V8 flags change', { skip: target.skip }, async () => {
      for (const args of [['ps', '--filter', `label=${harness.labelFilter}`], ['images', '--filter', 'label=berth.test.none=1']]) {
        const { code, stderr, loaded, afterV8 } = await loadedBy(harness, target.name, args, target.host);
        assert.deepEqual({ args, code, stderr }, { args, code: 0, stderr: '' });
        // The flags were changed in this run (node:v8 loaded), and the engine was reached (node:net loaded).
        assert.ok(loaded.includes('v8') && loaded.includes('net'), `v8 or net missing from ${loaded.join(', ')}`);
        assert.deepEqual({ args, afterV8 }, { args, afterV8: [] });
      }
    });

    void it('images and volume ls load none of them either', { skip: target.skip }, async () => {
      for (const args of [['images', '--filter', 'label=berth.test.none=1'], ['volume', 'ls', '--filter', 'label=berth.test.none=1']]) {
        const { code, stderr, loaded } = await loadedBy(harness, target.name, args, target.host);
        assert.deepEqual({ args, code, stderr }, { args, code: 0, stderr: '' });
        assert.deepEqual({ args, rare: RARE_BUILT_INS.filter((name) => loaded.includes(name)) }, { args, rare: [] });
      }
    });
  });
}
