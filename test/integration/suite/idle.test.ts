// No timer of the extension runs while it is connected, its views are hidden and nothing changes (issues 3, 18):
// while the engine stays quiet, the global timer functions are wrapped and every timer callback that runs is
// watched for 3 s; not one may come from the extension's bundle, and no request may be made. A count, not a
// timing. (While a view is visible, one timer fires when a shown relative time changes:
// test/unit/view-row-refresh.test.ts checks that schedule.)
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { measureIdle, TimerProbe, type TimerActivity } from '../../../bench/extension-idle-probe';
import { unixSocketPath } from '../../support/engines';
import {
  EXTENSION_ID, TestContainers, activateBerth, engineClient, modelShowsContainer, modelState, suiteEngine, testEngines,
} from '../support/fixtures';

/**
 * What one change leaves behind must have run out before the window: the engine client keeps an idle connection
 * for 30 s (keepAliveTimeoutMs in src/engine/connection/transport.ts), and closing it is one last timer.
 */
const QUIET_BEFORE_MS = 32_000;
const WINDOW_MS = 3000;
/** Other suites, or other runs on a shared engine, may keep it busy; then there is nothing idle to observe. */
const DEADLINE_MS = 100_000;

describe('idle', () => {
  it('schedules and fires no timer while connected and the engine is quiet', async function () {
    this.timeout(DEADLINE_MS + 30_000);
    await activateBerth();
    // The Explorer in the side bar: Berth's views hidden.
    await vscode.commands.executeCommand('workbench.view.explorer');
    const state = await modelState('connected');
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    const result = await measureIdle({
      bundlePath: join(extension.extensionPath, 'dist', 'extension.js'),
      socketPath: unixSocketPath(state.endpoint),
      windowMs: WINDOW_MS,
      quietBeforeMs: QUIET_BEFORE_MS,
      deadlineMs: DEADLINE_MS,
    });
    // A request made after the quiet time with nothing happening is idle work, whether or not a window came.
    assert.deepEqual(result.unprovokedRequests, [], 'requests of the extension with nothing happening');
    if (!result.quiet) {
      console.log(`      the engine was never quiet for ${QUIET_BEFORE_MS / 1000} s (${result.engineEvents} events): nothing idle to observe`);
      this.skip();
    }
    // A request would bring undici's timers too; its line names the request and the bundle frames that made it.
    const { scheduled, fired, requests, sources } = result.activity;
    assert.deepEqual({ scheduled, fired, requests }, { scheduled: 0, fired: 0, requests: 0 }, `timers and requests of the extension while idle:\n${sources.join('\n')}`);
  });

  it('sees the timers an engine event makes the extension schedule (the probe is not blind)', async () => {
    const engines = testEngines();
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    const bundlePath = join(extension.extensionPath, 'dist', 'extension.js');
    const client = engineClient(suiteEngine(engines).host);
    const containers = new TestContainers(client, engines.image);
    const probe = new TimerProbe(bundlePath);
    let activity: TimerActivity;
    try {
      probe.start();
      const { id } = await containers.create({ cmd: ['true'], start: false });
      await modelShowsContainer(id, 'created');
    } finally {
      activity = probe.stop();
      await containers.cleanup();
      await client.close();
    }
    // The model coalesces events with a short timer before it fetches the container: its stack is in the bundle.
    assert.ok(activity.scheduled > 0, 'no timer of the extension seen while it applied an event');
  });
});
