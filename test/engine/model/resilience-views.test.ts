// SIGKILL of the engine while the extension's own model (src/model, what the trees render) and a followed-logs
// session (src/logs, what the logs terminal and document show) are open, on a dockerd this suite owns. Both must
// tell the user, reconnect by themselves once the engine is back, and match the engine again. The time from the
// daemon answering _ping to the model matching the engine goes to test-output/resilience.json (reported, never
// asserted: issue 5 asks for under 2 s).
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { EngineClient, parseHost } from '../../../src/engine';
import { followContainerLogs, type LogSink } from '../../../src/logs/logFollower';
import { EngineModel } from '../../../src/model/engineModel';
import { modelSourceOf } from '../../../src/model/source';
import { loadTestEngines } from '../../support/engines';
import { createScratchDockerd, type ScratchDockerd } from '../../support/scratchDockerd';
import { recordResilienceFigures } from '../../support/resilience';
import { containerSpec } from '../../support/containerSpec';
import { until } from '../../support/wait';

const engines = loadTestEngines();
const IMAGE_REPO = 'berth-test/busybox';

let daemon: ScratchDockerd;
let client: EngineClient;
let observer: EngineClient;

before(async () => {
  daemon = createScratchDockerd('views');
  await daemon.start();
  client = new EngineClient({ endpoint: parseHost(daemon.host, {}) });
  observer = new EngineClient({ endpoint: parseHost(daemon.host, {}) });
  await client.images.import(createReadStream(join(engines.stateDir, 'image', 'busybox-rootfs.tar')), {
    repo: IMAGE_REPO,
    tag: 'latest',
    changes: ['CMD ["/bin/sh"]'],
  });
});

after(async () => {
  await client.close().catch(() => undefined);
  await observer.close().catch(() => undefined);
  await daemon.dispose();
});

/** True when the model holds exactly the engine's containers, in the engine's states. */
async function modelMatchesEngine(model: EngineModel): Promise<boolean> {
  if (model.state !== 'connected') return false;
  const listed = await observer.containers.list({ all: true }).catch(() => undefined);
  if (!listed) return false;
  const engineView = listed.map((c) => `${c.Id}:${c.State}`).sort();
  const modelView = [...model.containers()].map((record) => `${record.id}:${record.state}`).sort();
  return JSON.stringify(engineView) === JSON.stringify(modelView);
}

void describe('SIGKILL of the engine under the explorer model and a followed log', { timeout: 240_000 }, () => {
  void it('says so, reconnects by itself, and matches the engine again', async () => {
    const ticker = await client.containers.create(
      // dockerd brings the container back when it restarts, as a service's container would be.
      containerSpec(`${IMAGE_REPO}:latest`, ['sh', '-c', 'i=0; while true; do i=$((i+1)); echo tick-$i; sleep 0.1; done'], { HostConfig: { RestartPolicy: { Name: 'always' } } }),
    );
    await client.containers.start(ticker.Id);

    const model = new EngineModel(modelSourceOf(client));
    const states: string[] = [];
    model.onDidChangeState((state) => states.push(state));
    model.start();
    await model.whenConnected();
    await until('the model lists the running ticker', () => model.container(ticker.Id)?.state === 'running');

    const notices: string[] = [];
    let output = '';
    const sink: LogSink = {
      output: (_stream, text) => (output += text),
      notice: (text) => notices.push(text),
    };
    const following = new AbortController();
    const follower = followContainerLogs(client, ticker.Id, sink, { tail: 'all', signal: following.signal, followRestarts: true });
    const followerOutcome = follower.then(
      () => 'ended',
      (error: unknown) => error,
    );
    await until('the followed log shows output', () => output.includes('tick-3\n'));

    await daemon.kill();
    await until('the model says the engine is unreachable', () => model.state === 'unreachable');
    assert.match(model.snapshot().reason ?? '', /Cannot reach the engine at unix:\/\/.*docker\.sock/);
    await until('the logs session says the engine was lost', () => notices.some((text) => text.startsWith('lost the engine')));

    const outputBeforeRestart = output.length;
    const readyAt = await daemon.start();
    await until('the model matches the engine again', () => modelMatchesEngine(model));
    const modelMatchedMs = performance.now() - readyAt;
    await until('the ticker runs again', () => model.container(ticker.Id)?.state === 'running');
    await until('the logs session reconnects', () => notices.some((text) => text.startsWith('reconnected')));
    await until('new output follows the reconnect', () => /tick-\d+\n/.test(output.slice(outputBeforeRestart)));
    const logsResumedMs = performance.now() - readyAt;

    // The same session carried on: no error ended it, and the states went connected → unreachable → connected.
    following.abort();
    const outcome = await followerOutcome;
    assert.ok(outcome === 'ended' || (outcome instanceof Error && following.signal.aborted), `the follower ended with ${String(outcome)}`);
    assert.deepEqual(states.filter((state, index) => state !== states[index - 1]).slice(-2), ['unreachable', 'connected']);
    recordResilienceFigures('views', {
      engine: 'dockerd 20.10 (scratch, SIGKILL)',
      daemonReadyToModelMatchesMs: Math.round(modelMatchedMs),
      daemonReadyToLogsResumedMs: Math.round(logsResumedMs),
      notices,
    });
    model.dispose();
    await client.containers.remove(ticker.Id, { force: true });
  });
});
