/**
 * The stand-ins the CLI's bundle gets in place of node:http and node:assert for undici's modules (esbuild.js): the
 * header limit is the one node:http would give, and a failed invariant throws node:assert's own error.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import undiciAssert from '../../../scripts/lib/undici-lazy-assert';

const standIn = resolve(__dirname, '../../../scripts/lib/undici-without-http.ts');

/** maxHeaderSize as the stand-in and as node:http give it in a fresh node started with NODE_ARGS. */
function headerLimits(nodeArgs: readonly string[], env: NodeJS.ProcessEnv = {}): { standIn: number; nodeHttp: number } {
  const script = `const standIn = require(${JSON.stringify(standIn)}).maxHeaderSize; console.log(JSON.stringify({ standIn, nodeHttp: require('node:http').maxHeaderSize }));`;
  const output = execFileSync(process.execPath, [...nodeArgs, '--import', 'tsx', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...env } });
  return JSON.parse(output) as { standIn: number; nodeHttp: number };
}

void describe('undici stand-ins of the CLI bundle', () => {
  void it('gives node:http’s default header limit without the option', () => {
    const limits = headerLimits([]);
    assert.equal(limits.standIn, limits.nodeHttp);
  });

  void it('asks node:http when --max-http-header-size is given on the command line or in NODE_OPTIONS', () => {
    assert.deepEqual(headerLimits(['--max-http-header-size=32768']), { standIn: 32768, nodeHttp: 32768 });
    assert.deepEqual(headerLimits([], { NODE_OPTIONS: '--max-http-header-size=8192' }), { standIn: 8192, nodeHttp: 8192 });
  });

  void it('lets a true invariant pass and fails a false one with node:assert’s AssertionError', () => {
    assert.doesNotThrow(() => undiciAssert(1));
    assert.throws(() => undiciAssert(0), (error: unknown) => error instanceof assert.AssertionError && error.code === 'ERR_ASSERTION');
    assert.throws(() => undiciAssert(false, 'the queue is empty'), { name: 'AssertionError', message: 'the queue is empty' });
  });
});
