// 100 reconnects of the event stream must leave nothing behind: no open handles (sockets, timers) and no abort
// listeners on a long-lived signal, like the extension's, that every stream is given. Two ways a stream ends:
// the client stops it (a real dockerd of this suite's own), and the engine drops it mid-stream (the in-process
// fake: a real engine cannot be made to drop a connection 100 times cheaply). Counts are asserted, times are not.
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EngineClient, EngineError, parseHost } from '../../../../src/engine';
import { loadTestEngines } from '../../../support/engines';
import { containerEvent, jsonLine, startFakeEngine, writeEngineHead, type FakeEngine } from '../../../support/fakeEngine';
import { createScratchDockerd, type ScratchDockerd } from '../../../support/scratchDockerd';
import { activeResources, recordResilienceFigures } from '../../../support/resilience';
import { nextTurn, sleep } from '../../../support/wait';

const CYCLES = 100;
const engines = loadTestEngines();
const figures: Record<string, unknown> = {};
let daemon: ScratchDockerd;
let fake: FakeEngine;

before(async () => {
  daemon = createScratchDockerd('reconnect');
  await daemon.start();
  // An import is an event the daemon replays to every stream opened with `since` before it.
  const setup = new EngineClient({ endpoint: parseHost(daemon.host, {}) });
  await setup.images.import(createReadStream(join(engines.stateDir, 'image', 'busybox-rootfs.tar')), { repo: 'berth-test/busybox', tag: 'latest' });
  await setup.close();
  let served = 0;
  fake = await startFakeEngine([
    (request, response) => {
      if (request.path !== '/events') return false;
      // One event, then the engine drops the connection in the middle of the chunked body.
      served += 1;
      writeEngineHead(response, 200, 'application/json');
      response.write(jsonLine(containerEvent('start', `${served}`.padStart(64, 'a'), BigInt(served) * 1_000_000_000n)), () => {
        response.socket?.destroy();
      });
      return true;
    },
  ]);
});

after(async () => {
  recordResilienceFigures('reconnects', figures);
  await fake.close();
  await daemon.dispose();
});

/** Lets sockets finish closing before counting. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await nextTurn();
  await sleep(50);
}

interface Snapshot {
  readonly resources: Record<string, number>;
  readonly abortListeners: number;
  readonly processListeners: number;
}

function snapshot(signal: AbortSignal): Snapshot {
  return {
    resources: activeResources(),
    abortListeners: getEventListeners(signal, 'abort').length,
    processListeners: process.eventNames().reduce((sum, name) => sum + process.listenerCount(name), 0),
  };
}

/** Runs CYCLE once to warm up (the pool's kept-alive socket, lazy version negotiation), then CYCLES times. */
async function measure(label: string, lifetime: AbortSignal, cycle: (index: number) => Promise<void>): Promise<{ before: Snapshot; after: Snapshot }> {
  await cycle(-1);
  await settle();
  const beforeCycles = snapshot(lifetime);
  for (let index = 0; index < CYCLES; index++) await cycle(index);
  await settle();
  const afterCycles = snapshot(lifetime);
  figures[label] = { cycles: CYCLES, before: beforeCycles, after: afterCycles };
  return { before: beforeCycles, after: afterCycles };
}

function assertNoGrowth(result: { before: Snapshot; after: Snapshot }): void {
  for (const [type, count] of Object.entries(result.after.resources)) {
    assert.ok(count <= (result.before.resources[type] ?? 0), `${type}: ${result.before.resources[type] ?? 0} before, ${count} after`);
  }
  assert.equal(result.after.abortListeners, result.before.abortListeners, 'abort listeners on the long-lived signal');
  assert.equal(result.after.processListeners, result.before.processListeners, 'process listeners');
}

void describe(`${CYCLES} reconnects of the event stream`, { timeout: 180_000 }, () => {
  void it('client-side: open on a real dockerd, read an event, stop; nothing accumulates', async () => {
    const client = new EngineClient({ endpoint: parseHost(daemon.host, {}) });
    const lifetime = new AbortController();
    let events = 0;
    const result = await measure('clientStops', lifetime.signal, async () => {
      for await (const event of client.system.events({ since: 1, signal: lifetime.signal })) {
        assert.equal(typeof event.Action, 'string');
        events += 1;
        break;
      }
    });
    assert.equal(events, CYCLES + 1);
    assertNoGrowth(result);
    await client.close();
  });

  void it('engine-side: the engine drops every stream mid-body; each drop is an unreachable error; nothing accumulates', async () => {
    const client = new EngineClient({ endpoint: parseHost(fake.host, {}) });
    const lifetime = new AbortController();
    const failures = new Map<string, number>();
    let events = 0;
    const result = await measure('engineDrops', lifetime.signal, async () => {
      try {
        for await (const event of client.system.events({ signal: lifetime.signal })) {
          assert.equal(event.Action, 'start');
          events += 1;
        }
        assert.fail('the stream ended without an error although the engine dropped it');
      } catch (error) {
        assert.ok(error instanceof EngineError, String(error));
        failures.set(`${error.kind}: ${error.message}`, (failures.get(`${error.kind}: ${error.message}`) ?? 0) + 1);
      }
    });
    assert.equal(events, CYCLES + 1);
    assert.deepEqual(
      [...failures],
      [[`unreachable: Cannot reach the engine at ${fake.host}: the engine closed the connection. Check that the engine is healthy and try again`, CYCLES + 1]],
    );
    assertNoGrowth(result);
    await client.close();
  });
});
