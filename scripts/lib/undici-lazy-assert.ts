// Bundled in place of node:assert for undici's modules in the CLI (see esbuild.js). undici only calls `assert(value)`
// on its own invariants, and loading node:assert (with its AssertionError and diff printing) is ≈ 3 ms of every
// `berth` call. A failed invariant still goes through node:assert itself, so it throws the very same AssertionError.
/* eslint-disable @typescript-eslint/no-require-imports -- node:assert is loaded only when an invariant fails */
type NodeAssert = typeof import('node:assert');

export = function assert(value: unknown, message?: string | Error): void {
  if (value) return;
  const nodeAssert: NodeAssert = require('node:assert') as NodeAssert;
  nodeAssert.ok(value, message);
};
