// Shared by the bad-input suites: run a call that must fail and compare with the table's row.
import assert from 'node:assert/strict';
import { EngineError } from '../../../src/engine';
import { badInputCase, expectedMessage } from './bad-input-cases';

/** Awaits CALL, which must reject with an EngineError whose kind and message are the row's, word for word. */
export async function assertCase(id: string, call: () => Promise<unknown>, values: Readonly<Record<string, string>> = {}): Promise<void> {
  let failure: unknown;
  try {
    await call();
  } catch (error) {
    failure = error;
  }
  assert.ok(failure instanceof EngineError, `${id}: expected an EngineError, got ${describe(failure)}`);
  assert.equal(failure.message, expectedMessage(id, values), id);
  assert.equal(failure.kind, badInputCase(id).errorKind, `${id}: error kind`);
}

function describe(value: unknown): string {
  if (value === undefined) return 'success';
  return value instanceof Error ? `${value.name}: ${value.message}` : JSON.stringify(value);
}
