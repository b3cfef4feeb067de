// Stop All and the engine-down path run against a second private dockerd this file starts itself: stopping every
// container, or the whole engine, must never disturb the shared engine other suites are using.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EngineClient } from '../../../src/engine';
import {
  TestContainers, activateBerth, berthLogText, engineClient, eventually, modelShowsContainer, modelState, setBerthSetting, skipUnlessDocker,
  testEngines,
} from '../support/fixtures';
import { PrivateEngine } from '../../vscode/privateEngine';
import { rowPattern } from '../../engine/engine/bad-input-workbench-cases';

describe('a second engine: Stop All, engine down and back up', function () {
  this.timeout(180_000);
  const engines = testEngines();
  let engine: PrivateEngine;
  let client: EngineClient;
  let containers: TestContainers;

  before(async function () {
    // Stopping every container, or the whole engine, needs an engine of the test's own: a private dockerd, the same in
    // both passes of the matrix. The shared Podman service cannot be stopped without breaking the other suites.
    skipUnlessDocker(this, 'Stop All and engine down/up run against a private dockerd of their own (covered by the dockerd pass)');
    await activateBerth();
    engine = await PrivateEngine.create('berth-it-engine-');
    await engine.importTestImage(engines);
    client = engineClient(engine.host);
    containers = new TestContainers(client, engines.image);
    await setBerthSetting('stop.timeoutSeconds', 1);
    await setBerthSetting('engine.host', engine.host);
    const connected = await modelState('connected');
    assert.equal(connected.endpoint, engine.host);
  });

  after(async () => {
    await containers?.cleanup().catch(() => undefined);
    await client?.close();
    await setBerthSetting('engine.host', undefined);
    await setBerthSetting('stop.timeoutSeconds', undefined);
    await engine?.dispose();
    // Leave the extension on the shared engine for whatever runs next.
    await modelState('connected');
  });

  it('switching berth.engine.host shows the other engine\'s containers without a reload', async () => {
    const { id } = await containers.create({ cmd: ['sleep', '300'] });
    const current = await modelShowsContainer(id, 'running');
    assert.equal(current.endpoint, engine.host);
  });

  it('Stop All Running stops every running container once confirmed', async () => {
    const first = await containers.create({ cmd: ['sleep', '300'] });
    const second = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(second.id, 'running');
    const result = await vscode.commands.executeCommand<{ stopped: string[]; failed: string[] }>('berth.stopAll', {
      confirmed: true,
    });
    assert.ok(result, 'berth.stopAll returned a result');
    assert.ok(result.stopped.includes(first.id) && result.stopped.includes(second.id), JSON.stringify(result));
    assert.deepEqual(result.failed, []);
    const running = await client.containers.list({ filters: { status: ['running'] } });
    assert.deepEqual(running.map((container) => container.Id), []);
    await modelShowsContainer(first.id, 'exited');
  });

  it('Stop All Running does nothing when the confirmation is declined', async () => {
    const { id } = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(id, 'running');
    const result = await vscode.commands.executeCommand<{ stopped: string[] } | undefined>('berth.stopAll', {
      confirmed: false,
    });
    // The typed refusal, not undefined: a crash also resolves to undefined and must not pass here.
    assert.deepEqual(result, { stopped: [], failed: [], declined: true });
    assert.equal((await client.containers.inspect(id)).State.Running, true);
  });

  it('engine down: the model becomes unreachable with a reason; engine up: the views come back by themselves', async () => {
    const { id } = await containers.create({ cmd: ['sleep', '300'], labels: { 'berth.test.survivor': '1' } });
    await modelShowsContainer(id, 'running');

    await engine.stop();
    const down = await modelState('unreachable');
    assert.equal(down.endpoint, engine.host);
    assert.ok(down.reason && down.reason.length > 0, 'the snapshot carries the engine error');

    await engine.start();
    // No Retry: the model reconnects with backoff and re-lists on its own.
    const back = await modelState('connected', 90_000);
    assert.equal(back.endpoint, engine.host);
    // The daemon restarted, so its containers stopped; the model must list the container again, in its new state.
    await modelShowsContainer(id, 'exited', 30_000);
    await client.containers.start(id);
    await modelShowsContainer(id, 'running');
  });

  it('engine down: Stop and Show Logs say the engine is unreachable, and offer none of its containers', async () => {
    const { id } = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(id, 'running');
    await engine.stop();
    await modelState('unreachable');
    for (const [commandId, activity] of [['berth.stop', 'Stopping'], ['berth.showLogs', 'Showing logs']] as const) {
      let settled = false;
      const call = Promise.resolve(vscode.commands.executeCommand(commandId)).finally(() => (settled = true));
      // A picker over the gone engine's containers would wait for an answer: close it after a bounded look, and fail.
      const answered = await eventually(`${commandId} to answer without a picker`, () => (settled ? true : undefined), 5_000).catch(() => false);
      if (!answered) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await call;
      assert.ok(answered, `${commandId} offered a picker over an engine that is gone`);
      // The log line carries the stack: `<activity> failed: EngineError: The engine … is unreachable: <reason>`.
      const line = await eventually(`the log to say ${activity} failed: unreachable`, async () =>
        (await berthLogText()).split('\n').find((entry) => entry.includes(`${activity} failed:`) && entry.includes('The engine')), 10_000);
      assert.match(line, rowPattern('picker-engine-gone'), 'the bad-input row\'s words: the engine, its endpoint, unreachable, the reason');
    }
    await engine.start();
    await modelState('connected', 90_000);
  });

  it('Retry reconnects at once after the engine came back', async () => {
    // Automatic reconnects an hour apart: only Retry can bring the model back within the wait below, so this fails
    // when Retry does nothing (with the default backoff the model would reconnect by itself within 1.5 s).
    await vscode.commands.executeCommand('berth.internal.reconnectBackoff', { initialMs: 3_600_000, maxMs: 3_600_000 });
    try {
      await engine.stop();
      await modelState('unreachable');
      await engine.start();
      await vscode.commands.executeCommand('berth.retry');
      await modelState('connected', 30_000);
    } finally {
      await vscode.commands.executeCommand('berth.internal.reconnectBackoff');
      await modelState('connected', 90_000);
    }
  });
});
