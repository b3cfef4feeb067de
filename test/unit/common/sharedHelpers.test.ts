// The helpers that replaced copies in several features: one input check from a parser, one coalesced change timer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CoalescedRun } from '../../../src/common/coalescedRun';
import { validatedBy } from '../../../src/common/errors';
import { parseImageReference, validateImageReference } from '../../../src/engine';
import { eventually, sleep, until } from '../../support/wait';

void describe('validatedBy', () => {
  const even = validatedBy((text) => {
    if (Number(text) % 2 !== 0) throw new Error(`${text} is odd`);
  });

  void it('says nothing while the parser accepts the text, and the parser\'s own words while it refuses it', () => {
    assert.equal(even('4'), undefined);
    assert.equal(even('3'), '3 is odd');
  });

  void it('checks an image reference as typed with the words its parse gives after Enter', () => {
    assert.equal(validateImageReference('busybox:latest'), undefined);
    const refused = validateImageReference('Busybox:latest');
    assert.ok(refused !== undefined);
    assert.throws(() => parseImageReference('Busybox:latest'), (error: unknown) => error instanceof Error && error.message === refused);
  });
});

void describe('CoalescedRun', () => {
  void it('runs once for a burst of schedules, and again for a schedule after that run', async () => {
    const lifetime = new AbortController();
    let runs = 0;
    const updates = new CoalescedRun(() => runs++, 5, lifetime.signal);
    for (let i = 0; i < 10; i++) updates.schedule();
    await until('the first run', () => runs === 1);
    updates.schedule();
    await until('the second run', () => runs === 2);
    updates.dispose();
  });

  void it('runs nothing once disposed or once its signal aborted', async () => {
    const lifetime = new AbortController();
    let runs = 0;
    const disposed = new CoalescedRun(() => runs++, 1, lifetime.signal);
    disposed.schedule();
    disposed.dispose();
    const aborted = new CoalescedRun(() => runs++, 1, lifetime.signal);
    lifetime.abort();
    aborted.schedule();
    // Well past both intervals: a run still pending would have happened.
    await sleep(50);
    assert.equal(runs, 0);
  });
});

void describe('test/support/wait.ts', () => {
  void it('until gives up naming what it waited for; eventually hands back the first answer', async () => {
    await assert.rejects(until('the impossible', () => false, { timeoutMs: 20, intervalMs: 5 }), /gave up waiting after 20 ms: the impossible/);
    let calls = 0;
    assert.equal(await eventually('the third call', () => (++calls === 3 ? 'three' : undefined), { intervalMs: 0 }), 'three');
  });
});
