// lastingEvents: the engine's events across the clean ends of the stream that Podman 4.3 makes each time it rotates
// its events file, when it also replays part of that file. A real Podman rotates only after a megabyte of events, so a
// fake engine ends and replays on demand, in the wire format of GET /events.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { lastingEvents, MAX_QUICK_ENDS, type EngineEvent } from '../../../../src/engine';
import { containerEvent, jsonLine, playedEventsRoute, type FakeRoute } from '../../../support/fakeEngine';
import { useFakeEngine } from '../../../support/fakeEngineSuite';

const ID = 'a1'.repeat(32);
const T1 = 1_795_900_001_000_000_000n;
const T2 = 1_795_900_002_500_000_000n;
const T3 = 1_795_900_003_000_000_000n;

/** How the Nth event stream (from 0) answers after its headers. */
let plan: (index: number, response: ServerResponse) => void = (_index, response) => response.end();
const streams: Array<{ since: string | null }> = [];

const routes: FakeRoute[] = [playedEventsRoute(streams, (index, response) => plan(index, response))];

const send = (response: ServerResponse, action: string, nanos: bigint): boolean => response.write(jsonLine(containerEvent(action, ID, nanos)));

void describe('events across the clean ends of the stream', () => {
  const suite = useFakeEngine(routes);

  async function take(count: number, options: { beforeReopen?: () => Promise<boolean> } = {}): Promise<EngineEvent[]> {
    streams.length = 0;
    const controller = new AbortController();
    const taken: EngineEvent[] = [];
    try {
      for await (const event of lastingEvents(suite.client, { since: 1_795_900_000, signal: controller.signal, ...options })) {
        taken.push(event);
        if (taken.length === count) break;
      }
    } finally {
      controller.abort();
    }
    return taken;
  }

  void it('opens the stream again at the newest event and passes each event on once', async () => {
    plan = (index, response) => {
      if (index === 0) {
        send(response, 'create', T1);
        send(response, 'start', T2);
        response.end();
      } else {
        // What Podman sends after a rotation: part of its file again, the newest event seen, then what is new.
        send(response, 'create', T1);
        send(response, 'start', T2);
        send(response, 'die', T3);
        response.flushHeaders();
      }
    };
    const events = await take(3);
    assert.deepEqual(
      events.map((event) => event.Action),
      ['create', 'start', 'die'],
    );
    assert.deepEqual(
      streams.map((stream) => stream.since),
      ['1795900000', '1795900002.500000000'],
    );
  });

  void it('stops after a clean end when the caller says so', async () => {
    plan = (_index, response) => {
      send(response, 'start', T1);
      response.end();
    };
    let asked = 0;
    const events = await take(10, {
      beforeReopen: () => {
        asked++;
        return Promise.resolve(false);
      },
    });
    assert.equal(events.length, 1);
    assert.equal(asked, 1);
    assert.equal(streams.length, 1);
  });

  void it('stops when the engine ends every stream as soon as it opens', async () => {
    plan = (_index, response) => response.end();
    const events = await take(10);
    assert.equal(events.length, 0);
    // MAX_QUICK_ENDS in a row (more only if this machine took a second to answer one).
    assert.ok(streams.length >= MAX_QUICK_ENDS, `${streams.length} streams`);
  });
});
