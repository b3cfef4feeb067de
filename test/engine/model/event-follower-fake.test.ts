// The Events view's follower when the engine ends its event stream cleanly. Podman 4.3 does so whenever it rotates
// its events file (every 1 MB of events): the view said "Lost the connection to the engine" every few minutes on a
// busy Podman although nothing was lost. A real Podman rotates only once it has logged enough, so a fake engine ends
// the stream on demand, in the engine's wire format.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { EventFollower, EventHistory, type FollowState } from '../../../src/model/eventHistory';
import { containerEvent, jsonLine, playedEventsRoute, type FakeRoute } from '../../support/fakeEngine';
import { useFakeEngine } from '../../support/fakeEngineSuite';
import { nextTurn, until } from '../../support/wait';

const ID = 'e0'.repeat(32);
const FIRST_SINCE = '1795900000.000000000';
/** More than the follower's 1 s: a stream that lived this long before its end is not a failing engine. */
const ROTATION_AFTER_MS = 1200;

/** How the Nth event stream (from 0) behaves. */
let plan: (index: number, response: ServerResponse) => void = () => undefined;
const streams: Array<{ since: string | null }> = [];

const routes: FakeRoute[] = [playedEventsRoute(streams, (index, response) => plan(index, response))];

void describe('the events follower when the engine ends its stream', () => {
  const suite = useFakeEngine(routes);

  function follow(backoff?: { initialMs: number; maxMs: number }): { follower: EventFollower; states: FollowState[]; stop: () => void } {
    streams.length = 0;
    const follower = new EventFollower({ events: (options) => suite.client.system.events(options) }, new EventHistory(100), {
      firstSince: () => FIRST_SINCE,
      backoff,
    });
    const states: FollowState[] = [];
    follower.onDidChangeState((state) => states.push(state));
    const controller = new AbortController();
    void follower.run(controller.signal);
    return { follower, states, stop: () => controller.abort() };
  }

  void it('opens the stream again from the newest event, without saying the connection dropped', async () => {
    const at = 1_795_900_010_000_000_000n;
    plan = (index, response) => {
      if (index > 0) return;
      response.write(jsonLine(containerEvent('start', ID, at)));
      setTimeout(() => response.end(), ROTATION_AFTER_MS);
    };
    const { follower, states, stop } = follow();
    try {
      await until('a second stream', () => streams.length === 2);
      await until('the follower to be live again', () => follower.state.kind === 'live');
      assert.deepEqual(
        states.map((state) => state.kind),
        ['live', 'connecting', 'live'],
      );
      assert.equal(streams[0]?.since, FIRST_SINCE);
      assert.equal(streams[1]?.since, '1795900009.000000000', 'resumed a second before the newest event');
      assert.equal(follower.history.total, 1);
    } finally {
      stop();
    }
  });

  void it('says so, and waits, when every stream ends as soon as it opens', async () => {
    plan = (_index, response) => response.end();
    const { follower, states, stop } = follow({ initialMs: 60_000, maxMs: 60_000 });
    try {
      await until('the follower to say the stream ended', () => follower.state.kind === 'disconnected');
      await nextTurn();
      assert.deepEqual(states.at(-1), { kind: 'disconnected', reason: 'the engine closed the event stream' });
      assert.equal(streams.length, 1, 'no second stream before the backoff');
    } finally {
      stop();
    }
  });
});
