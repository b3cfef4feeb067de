/** Assertions shared by the engine-facing tests. No vscode import. */
import assert from 'node:assert/strict';
import { EngineError } from '../../src/engine';

/** Awaits a call that must fail with an EngineError, and returns that error for its message to be checked. */
export async function failureOf(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof EngineError, `expected an EngineError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}
