// An engine that stalls (headers sent, then nothing; or nothing at all) must not trap the user: every long
// operation ends through its AbortSignal with EngineError kind 'cancelled', and the client stays usable after.
// The engine here is the in-process fake of test/support/fakeEngine.ts: a real dockerd cannot stall on demand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngineError } from '../../../../src/engine';
import { containerEvent, jsonLine, sendJson, stallAfterHeaders, stallBeforeHeaders } from '../../../support/fakeEngine';
import { logFrame } from '../../../support/frames';
import { useFakeEngine } from '../../../support/fakeEngineSuite';
import { drain } from '../../../support/wait';

const CONTAINER = 'c0ffee'.padEnd(64, '0');

const suite = useFakeEngine([
  (request, response) => {
    if (request.path === `/containers/${CONTAINER}/logs` && request.query.get('follow') === '1') {
      // One frame proves the stream is live; then the engine hangs.
      stallAfterHeaders(response, 200, 'application/vnd.docker.raw-stream', logFrame(1, 'first line\n'));
      return true;
    }
    if (request.path === `/containers/${CONTAINER}/wait`) {
      stallAfterHeaders(response, 200, 'application/json');
      return true;
    }
    if (request.path === '/events') {
      stallAfterHeaders(response, 200, 'application/json', jsonLine(containerEvent('start', CONTAINER, 1_700_000_000_000_000_000n)));
      return true;
    }
    if (request.path === '/images/create') {
      stallAfterHeaders(response, 200, 'application/json', jsonLine({ status: 'Pulling from library/busybox', id: 'latest' }));
      return true;
    }
    if (request.path === '/containers/json') {
      // A plain call whose body never comes.
      stallAfterHeaders(response, 200, 'application/json');
      return true;
    }
    if (request.path === `/containers/${CONTAINER}/json`) {
      // A plain call that never even gets its headers.
      stallBeforeHeaders(response);
      return true;
    }
    if (request.path === '/version') {
      sendJson(response, 200, { ApiVersion: '1.41', Version: '20.10.24', Os: 'linux', Arch: 'amd64' });
      return true;
    }
    return false;
  },
]);

/**
 * Runs OPERATION with a signal and aborts once the fake has stalled the request and, for streams, once the client
 * has received the first item (the operation calls `received`). Resolves the rejection.
 */
async function cancelWhenStalled(
  operation: (signal: AbortSignal, received: () => void) => Promise<unknown>,
  expectsItem = false,
): Promise<EngineError> {
  const controller = new AbortController();
  const stalledBefore = suite.fake.stalledCount;
  let markReceived = (): void => undefined;
  const firstItem = expectsItem ? new Promise<void>((resolve) => (markReceived = resolve)) : Promise.resolve();
  const outcome = operation(controller.signal, () => markReceived()).then(
    () => assert.fail('the stalled operation finished instead of being cancelled'),
    (error: unknown) => error,
  );
  await suite.fake.stalled(stalledBefore + 1);
  await firstItem;
  controller.abort();
  const error = await outcome;
  assert.ok(error instanceof EngineError, `expected an EngineError, got ${String(error)}`);
  return error;
}

void describe('cancelling long operations on a stalled engine', { timeout: 60_000 }, () => {
  void it('a followed log that stops sending', async () => {
    const received: string[] = [];
    const error = await cancelWhenStalled(
      (signal, onFirst) =>
        drain(suite.client.containers.logs(CONTAINER, { follow: true, stdout: true, tty: false, signal }), (chunk) => {
          received.push(chunk.data.toString('utf8'));
          onFirst();
        }),
      true,
    );
    assert.equal(error.kind, 'cancelled');
    assert.deepEqual(received, ['first line\n']);
  });

  void it('a wait whose result never comes', async () => {
    const error = await cancelWhenStalled(async (signal) => {
      const handle = await suite.client.containers.wait(CONTAINER, { condition: 'next-exit', signal });
      await handle.result;
    });
    assert.equal(error.kind, 'cancelled');
  });

  void it('an event stream that goes quiet', async () => {
    const actions: string[] = [];
    const error = await cancelWhenStalled(
      (signal, onFirst) =>
        drain(suite.client.system.events({ signal }), (event) => {
          actions.push(event.Action);
          onFirst();
        }),
      true,
    );
    assert.equal(error.kind, 'cancelled');
    assert.deepEqual(actions, ['start']);
  });

  void it('a pull that stops making progress', async () => {
    const statuses: string[] = [];
    const error = await cancelWhenStalled(
      (signal, onFirst) =>
        drain(suite.client.images.pull('busybox:latest', { signal }), (progress) => {
          statuses.push(progress.status ?? '');
          onFirst();
        }),
      true,
    );
    assert.equal(error.kind, 'cancelled');
    assert.deepEqual(statuses, ['Pulling from library/busybox']);
  });

  void it('a plain call whose body never arrives', async () => {
    const error = await cancelWhenStalled((signal) => suite.client.containers.list({ signal }));
    assert.equal(error.kind, 'cancelled');
  });

  void it('a plain call that never gets its headers', async () => {
    const error = await cancelWhenStalled((signal) => suite.client.containers.inspect(CONTAINER, { signal }));
    assert.equal(error.kind, 'cancelled');
  });

  void it('a signal aborted before the call rejects at once without a request', async () => {
    const requestsBefore = suite.fake.seen.length;
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(suite.client.containers.list({ signal: controller.signal }), (error: unknown) => {
      assert.ok(error instanceof EngineError);
      assert.equal(error.kind, 'cancelled');
      return true;
    });
    assert.equal(suite.fake.seen.length, requestsBefore);
  });

  void it('after every cancellation the same client still answers', async () => {
    const version = await suite.client.system.version();
    assert.equal(version.ApiVersion, '1.41');
    // The fake closes nothing by itself: cancelled requests must have released their connections.
    assert.equal(suite.fake.stalledCount, 0);
  });
});
