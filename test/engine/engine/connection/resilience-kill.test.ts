// SIGKILL the engine in the middle of a followed log, a pull and an open event stream, on a dockerd this suite owns
// (test/support/scratchDockerd.ts; the shared one is never touched). Each time the client must fail with a clear
// EngineError instead of hanging, and once the daemon is back the same client must work again. Recovery time
// (daemon answering _ping → first successful call of the client) goes to test-output/resilience.json.
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { EngineClient, EngineError, parseHost, type EngineEvent } from '../../../../src/engine';
import { loadTestEngines } from '../../../support/engines';
import { createScratchDockerd, type ScratchDockerd } from '../../../support/scratchDockerd';
import { expectedMessage } from '../bad-input-cases';
import { recordResilienceFigures } from '../../../support/resilience';
import { containerSpec } from '../../../support/containerSpec';
import { sleep } from '../../../support/wait';

const engines = loadTestEngines();
const IMAGE_REPO = 'berth-test/busybox';
const IMAGE = `${IMAGE_REPO}:latest`;

interface Recovery {
  readonly scenario: string;
  /** SIGKILL sent → the client's pending operation rejected. */
  readonly killToErrorMs: number;
  readonly errorKind: string;
  readonly errorMessage: string;
  /** dockerd started again → it answers _ping. */
  readonly restartToReadyMs: number;
  /** dockerd answering _ping again → the first successful call of the same client. */
  readonly readyToFirstSuccessMs: number;
  /** Calls that failed between the daemon being ready and that first success. */
  readonly failedCallsAfterReady: number;
}

const recoveries: Recovery[] = [];
let daemon: ScratchDockerd;
let client: EngineClient;

before(async () => {
  daemon = createScratchDockerd('kill');
  await daemon.start();
  client = new EngineClient({ endpoint: parseHost(daemon.host, {}) });
  await client.images.import(createReadStream(join(engines.stateDir, 'image', 'busybox-rootfs.tar')), {
    repo: IMAGE_REPO,
    tag: 'latest',
    changes: ['CMD ["/bin/sh"]'],
  });
});

after(async () => {
  recordResilienceFigures('sigkill', { engine: 'dockerd 20.10 (scratch, SIGKILL)', recoveries });
  if (daemon.pid !== undefined) {
    const leftovers = await client.containers.list({ all: true, filters: { label: ['berth.test=1'] } }).catch(() => []);
    for (const container of leftovers) await client.containers.remove(container.Id, { force: true }).catch(() => undefined);
  }
  await client.close().catch(() => undefined);
  await daemon.dispose();
});

/**
 * Kills the daemon once `pending` is in flight, restarts it whatever `pending` did (an operation that finished before
 * the kill must not leave the daemon dead for the next case), then expects an EngineError and times the first call
 * of the same client that succeeds.
 */
async function killAndRecover(scenario: string, pending: Promise<unknown>): Promise<EngineError> {
  const outcome = pending.then(
    () => undefined,
    (error: unknown) => error,
  );
  const killedAt = performance.now();
  let error: unknown;
  let errorAt = killedAt;
  let restartedAt = killedAt;
  let readyAt = killedAt;
  try {
    await daemon.kill();
    error = await outcome;
    errorAt = performance.now();
  } finally {
    restartedAt = performance.now();
    readyAt = await daemon.start();
  }
  assert.ok(error instanceof EngineError, `${scenario}: expected an EngineError after SIGKILL, got ${String(error)}`);
  let failed = 0;
  for (;;) {
    try {
      await client.containers.list({ all: true });
      break;
    } catch (retryError) {
      failed += 1;
      assert.ok(failed < 200, `${scenario}: the client never recovered: ${String(retryError)}`);
      await sleep(10);
    }
  }
  recoveries.push({
    scenario,
    killToErrorMs: Math.round(errorAt - killedAt),
    errorKind: error.kind,
    errorMessage: error.message,
    restartToReadyMs: Math.round(readyAt - restartedAt),
    readyToFirstSuccessMs: Math.round((performance.now() - readyAt) * 10) / 10,
    failedCallsAfterReady: failed,
  });
  return error;
}

/** The bad-input table's row for an engine that dies mid-stream (docs/bad-input.md). */
const closedMessage = (): string => expectedMessage('engine-killed', { host: daemon.host });

void describe('SIGKILL of the engine mid-stream', { timeout: 180_000 }, () => {
  void it('during a followed log: a clear error, then logs work again', async () => {
    const ticker = await client.containers.create(containerSpec(IMAGE, ['sh', '-c', 'i=0; while true; do i=$((i+1)); echo tick-$i; sleep 0.1; done']));
    await client.containers.start(ticker.Id);
    let seen = '';
    let ticking!: () => void;
    const threeTicks = new Promise<void>((resolve) => (ticking = resolve));
    const following = (async () => {
      for await (const chunk of client.containers.logs(ticker.Id, { follow: true, stdout: true })) {
        seen += chunk.data.toString('utf8');
        if (seen.includes('tick-3\n')) ticking();
      }
    })();
    await threeTicks;
    const error = await killAndRecover('followed log', following);
    assert.equal(error.kind, 'unreachable');
    assert.equal(error.message, closedMessage());
    // The container's output survived the crash and a new log call reads it.
    let replay = '';
    for await (const chunk of client.containers.logs(ticker.Id, { stdout: true, tail: 'all' })) replay += chunk.data.toString('utf8');
    assert.match(replay, /^tick-1\ntick-2\ntick-3\n/);
    await client.containers.remove(ticker.Id, { force: true });
  });

  void it('while the event stream is open: a clear error, then a new stream resumes from the last event', async () => {
    const events: EngineEvent[] = [];
    let firstEvent!: () => void;
    const gotEvent = new Promise<void>((resolve) => (firstEvent = resolve));
    const streaming = (async () => {
      for await (const event of client.system.events({ filters: { type: ['container'], label: ['berth.test=1'] } })) {
        events.push(event);
        firstEvent();
      }
    })();
    const before = await client.containers.create(containerSpec(IMAGE, ['true']));
    await gotEvent;
    assert.deepEqual(
      events.map((event) => [event.Action, event.Actor.ID]),
      [['create', before.Id]],
    );
    const error = await killAndRecover('event stream', streaming);
    assert.equal(error.kind, 'unreachable');
    assert.equal(error.message, closedMessage());

    // Reconnect as the explorer does: since = the last timeNano seen; a change made after the restart arrives.
    const last = events[events.length - 1] as EngineEvent;
    const since = `${Math.floor(last.timeNano / 1e9)}.${String(last.timeNano % 1e9).padStart(9, '0')}`;
    const controller = new AbortController();
    const resumed: EngineEvent[] = [];
    const after = await client.containers.create(containerSpec(IMAGE, ['true']));
    const reading = (async () => {
      for await (const event of client.system.events({ since, filters: { type: ['container'], label: ['berth.test=1'] }, signal: controller.signal })) {
        resumed.push(event);
        if (event.Actor.ID === after.Id && event.Action === 'create') controller.abort();
      }
    })();
    await assert.rejects(reading, (failure: unknown) => failure instanceof EngineError && failure.kind === 'cancelled');
    assert.ok(
      resumed.some((event) => event.Actor.ID === after.Id && event.Action === 'create'),
      JSON.stringify(resumed.map((event) => event.Action)),
    );
    for (const id of [before.Id, after.Id]) await client.containers.remove(id, { force: true });
  });

  void it('during a pull from the registry on 127.0.0.1: a clear error, then the pull succeeds', async () => {
    const reference = engines.registryImages[0] as string;
    const auth = { username: engines.registry.username, password: engines.registry.password, serveraddress: engines.registry.address };
    // The pull of a small image can finish before the kill lands; try a few times, each from a clean state.
    let error: EngineError | undefined;
    for (let attempt = 0; attempt < 5 && error === undefined; attempt++) {
      await client.images.remove(reference, { force: true }).catch(() => undefined);
      let progressed!: () => void;
      const firstLine = new Promise<void>((resolve) => (progressed = resolve));
      let finished = false;
      const pulling = (async () => {
        for await (const line of client.images.pull(reference, { auth })) {
          if (line.status !== undefined) progressed();
        }
        finished = true;
        progressed();
      })();
      await firstLine;
      if (finished) continue;
      const failure = await killAndRecover('pull', pulling).catch((problem: unknown) => problem);
      if (failure instanceof EngineError) error = failure;
      else if (!finished) throw failure;
    }
    assert.ok(error, 'no pull was still running when dockerd was killed, in 5 attempts');
    assert.equal(error.kind, 'unreachable');
    assert.equal(error.message, closedMessage());
    for await (const line of client.images.pull(reference, { auth })) assert.equal(typeof line, 'object');
    const image = await client.images.inspect(reference);
    assert.match(image.Id, /^sha256:/);
  });
});
