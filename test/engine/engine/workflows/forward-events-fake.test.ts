// A port forward watches the engine's events for its container's end. Podman 4.3 ends every event stream when it
// rotates its events file (every 1 MB of events: about two minutes of a busy test run), cleanly and without a word;
// the forward took that for a lost engine and dropped every connection in flight (the 50-connection case's empty
// answers). A real Podman rotates only when it has logged enough, so a fake engine ends the stream on demand. It
// speaks the wire format of the calls a relay makes: container inspect, exec create, a hijacked exec start, exec
// inspect and the event stream.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { ForwardRelay, type RelayEnd } from '../../../../src/engine';
import { containerEvent, answerUpgrade, jsonLine, sendJson, writeEngineHead, type FakeRoute, type FakeUpgradeRoute } from '../../../support/fakeEngine';
import { useFakeEngine } from '../../../support/fakeEngineSuite';
import { nextTurn, until } from '../../../support/wait';

const ID = 'f0'.repeat(32);
const STARTED_AT = '2026-11-29T05:00:00.000000000Z';

/** What the fake engine does; each test sets it before opening a relay. */
interface Script {
  running: boolean;
  /** How the Nth event stream (from 0) answers: ended at once, or kept open for the test to write to. */
  stream: (index: number) => 'end' | 'open';
}

const script: Script = { running: true, stream: () => 'open' };
const streams: Array<{ since: string | null; response: ServerResponse }> = [];

const engineRoutes: FakeRoute[] = [
  (request, response) => {
    if (request.path === `/containers/${ID}/json`) {
      const state = script.running ? { Status: 'running', Running: true } : { Status: 'exited', Running: false };
      sendJson(response, 200, { Id: ID, Name: '/fake-app', State: { ...state, Paused: false, StartedAt: STARTED_AT } });
      return true;
    }
    if (request.method === 'POST' && request.path === `/containers/${ID}/exec`) {
      sendJson(response, 201, { Id: 'probe' });
      return true;
    }
    if (request.path === '/exec/probe/json') {
      sendJson(response, 200, { ID: 'probe', Running: false, ExitCode: 0 });
      return true;
    }
    if (request.path === '/events') {
      const index = streams.length;
      streams.push({ since: request.query.get('since'), response });
      writeEngineHead(response, 200, 'application/json');
      if (script.stream(index) === 'end') response.end();
      else response.flushHeaders();
      return true;
    }
    return false;
  },
];
// The relay's probe (`command -v nc` and `dd`): the process exits 0 with no output.
const execStart: FakeUpgradeRoute = (request, socket) => {
  if (request.path !== '/exec/probe/start') return false;
  answerUpgrade(socket, []);
  return true;
};

void describe('a forward whose engine ends its event stream', () => {
  const suite = useFakeEngine(engineRoutes, [execStart]);

  async function openRelay(): Promise<{ relay: ForwardRelay; ended: () => RelayEnd | undefined }> {
    streams.length = 0;
    const relay = await ForwardRelay.open(suite.client, ID);
    let end: RelayEnd | undefined;
    relay.onEnd((value) => (end = value));
    return { relay, ended: () => end };
  }

  void it('watches again while the container runs, and still ends when it stops', async () => {
    script.running = true;
    script.stream = (index) => (index === 0 ? 'end' : 'open');
    const { relay, ended } = await openRelay();
    try {
      await until('a second event stream', () => streams.length === 2);
      assert.equal(ended(), undefined, 'the forward stays up: the container still runs');
      assert.ok(Number(streams[1]?.since) >= Number(streams[0]?.since), `since ${streams[1]?.since} after ${streams[0]?.since}`);
      const stop = BigInt(Date.parse(STARTED_AT) + 60_000) * 1_000_000n;
      streams[1]?.response.write(jsonLine(containerEvent('die', ID, stop)));
      await until('the forward to end', () => ended() !== undefined);
      assert.deepEqual(ended(), { reason: 'container-stopped', message: 'Container fake-app stopped' });
    } finally {
      await relay.close();
    }
  });

  void it('ends with the container when the stream ends and the container no longer runs', async () => {
    script.running = true;
    script.stream = () => 'open';
    const { relay, ended } = await openRelay();
    try {
      await until('the event stream', () => streams.length === 1);
      script.running = false;
      streams[0]?.response.end();
      await until('the forward to end', () => ended() !== undefined);
      assert.deepEqual(ended(), { reason: 'container-stopped', message: 'Container fake-app stopped' });
      assert.equal(streams.length, 1, 'no stream opened again for a stopped container');
    } finally {
      await relay.close();
    }
  });

  void it('gives up on an engine that ends every stream at once, after a bounded number of tries', async () => {
    script.running = true;
    script.stream = () => 'end';
    const { relay, ended } = await openRelay();
    try {
      await until('the forward to end', () => ended() !== undefined);
      assert.deepEqual(ended(), { reason: 'engine-lost', message: 'The engine stopped sending events for fake-app' });
      // Five in a row that ended within a second of opening (more only if this machine took a second to answer one).
      const opened = streams.length;
      assert.ok(opened >= 5, `${opened} streams`);
      await nextTurn();
      assert.equal(streams.length, opened, 'no stream opened after the forward ended');
    } finally {
      await relay.close();
    }
  });
});
