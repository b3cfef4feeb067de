// The guard on debug sessions attached to a container: no request may make VS Code's JavaScript debugger kill the
// PID the containerised app reports, which on the host is another process.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keepDebuggeeRunning, type ProtocolMessage } from '../../../src/debugging/terminationGuard';

void describe('keepDebuggeeRunning', () => {
  void it('turns terminate into a disconnect that keeps the debuggee', () => {
    const message: ProtocolMessage = { type: 'request', command: 'terminate', arguments: { restart: false } };
    assert.equal(keepDebuggeeRunning(message), true);
    assert.deepEqual(message, { type: 'request', command: 'disconnect', arguments: { terminateDebuggee: false } });
  });

  void it('makes every disconnect keep the debuggee, keeping its other arguments', () => {
    const asked: ProtocolMessage = { type: 'request', command: 'disconnect', arguments: { restart: false, terminateDebuggee: true } };
    assert.equal(keepDebuggeeRunning(asked), true);
    assert.deepEqual(asked.arguments, { restart: false, terminateDebuggee: false });
    const bare: ProtocolMessage = { type: 'request', command: 'disconnect' };
    assert.equal(keepDebuggeeRunning(bare), true);
    assert.deepEqual(bare.arguments, { terminateDebuggee: false });
  });

  void it('leaves other requests, events and an already safe disconnect alone', () => {
    for (const message of [
      { type: 'request', command: 'continue', arguments: { threadId: 1 } },
      { type: 'event', event: 'terminated' },
      { type: 'request', command: 'disconnect', arguments: { terminateDebuggee: false } },
    ]) {
      const before = structuredClone(message);
      assert.equal(keepDebuggeeRunning(message), false);
      assert.deepEqual(message, before);
    }
  });
});
