// dockerd runs one disk usage at a time and refuses a second with 409 "a disk usage operation is already running"; a
// real dockerd gives that answer only when two calls race, so the fake gives it on demand. The client asks again
// while the engine says it is busy, gives up with the engine's own words after its attempts, and never retries any
// other refusal.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { EngineClient, isEngineError, parseHost } from '../../../../src/engine';
import { sendError, sendJson, startFakeEngine, type FakeEngine } from '../../../support/fakeEngine';
import { until } from '../../../support/wait';

const BUSY = 'a disk usage operation is already running';
const EMPTY_USAGE = { LayersSize: 0, Images: [], Containers: [], Volumes: [], BuildCache: [] };

/** A fake whose /system/df answers each call with the next of ANSWERS (the last one repeats). */
async function engineAnswering(answers: ReadonlyArray<{ status: number; message?: string }>): Promise<FakeEngine> {
  let calls = 0;
  return startFakeEngine([
    (request, response) => {
      if (request.path !== '/system/df') return false;
      const answer = answers[Math.min(calls, answers.length - 1)] as { status: number; message?: string };
      calls++;
      if (answer.status === 200) sendJson(response, 200, EMPTY_USAGE);
      else sendError(response, answer.status, answer.message ?? '');
      return true;
    },
  ]);
}

const dfCalls = (fake: FakeEngine): number => fake.seen.filter((line) => line === 'GET /system/df').length;

void describe('disk usage while the engine runs another', () => {
  const fakes: FakeEngine[] = [];
  const clients: EngineClient[] = [];
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(fakes.map((fake) => fake.close()));
  });
  const clientOf = (fake: FakeEngine): EngineClient => {
    fakes.push(fake);
    const client = new EngineClient({ endpoint: parseHost(fake.host, {}) });
    clients.push(client);
    return client;
  };

  void it('asks again while the engine is busy, and returns the answer that follows', async () => {
    const fake = await engineAnswering([{ status: 409, message: BUSY }, { status: 409, message: BUSY }, { status: 200 }]);
    const usage = await clientOf(fake).system.df();
    assert.deepEqual(usage.Images, []);
    assert.equal(dfCalls(fake), 3, 'two refusals, then the answer');
  });

  void it("gives up after its attempts with the engine's own words, not a crash", async () => {
    const fake = await engineAnswering([{ status: 409, message: BUSY }]);
    const error = await clientOf(fake).system.df().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.ok(isEngineError(error), `an EngineError, not ${String(error)}`);
    assert.equal(error.engineMessage, BUSY);
    assert.equal(dfCalls(fake), 8, 'eight attempts in all');
  });

  void it('does not ask again after another refusal', async () => {
    const fake = await engineAnswering([{ status: 500, message: 'error getting disk usage: no space left on device' }, { status: 200 }]);
    const error = await clientOf(fake).system.df().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.ok(isEngineError(error), `an EngineError, not ${String(error)}`);
    assert.match(error.message, /no space left on device/);
    assert.equal(dfCalls(fake), 1);
  });

  void it('stops asking once the call is cancelled', async () => {
    const fake = await engineAnswering([{ status: 409, message: BUSY }]);
    const controller = new AbortController();
    const pending = clientOf(fake).system.df({ signal: controller.signal });
    // Cancel while the client waits between attempts: after the first refusal has come back.
    await until('the first refusal', () => dfCalls(fake) >= 1, { intervalMs: 0 });
    controller.abort();
    const error = await pending.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.ok(isEngineError(error), `an EngineError, not ${String(error)}`);
    assert.ok(dfCalls(fake) < 8, `stopped early: ${dfCalls(fake)} calls`);
  });
});
