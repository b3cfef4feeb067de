// The berth-node debug configuration in the real extension host, with VS Code's built-in JavaScript debugger, on the
// private dockerd and on Podman: vscode.debug.startDebugging with a berth-node configuration runs a small app of a
// temporary folder in a `none` network container of the Node.js test image, the breakpoint set through vscode.debug
// stops it, a variable is read, it continues; ending the session removes the container and stops the forward, and
// says so. A named Dockerfile is built first; a missing one is refused with its row and starts nothing.
import * as assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { expectedMessage } from '../../engine/engine/bad-input-cases';
import { cleanupLabel } from '../../support/engines';
import { DEBUG_APP_BREAK_LINE, detach, StoppedEvents, useDebugApp } from '../support/debugSessions';
import { listening } from '../../support/loopbackPort';
import { berthLogText, eventually, inspectOrUndefined, useConnectedSuite } from '../support/fixtures';


describe('berth-node debug configuration', function () {
  this.timeout(240_000);
  const { client } = useConnectedSuite(async () => {
    const left = await client.containers.list({ all: true, filters: { label: ['berth.debug=berth-node', 'berth.test=1'] } });
    for (const container of left) await client.containers.remove(container.Id, { force: true }).catch(() => undefined);
  });
  const app = useDebugApp(client, 'berth-launch-');

  const configuration = (extra: Record<string, unknown>): vscode.DebugConfiguration => ({
    type: 'berth-node',
    request: 'launch',
    name: 'Berth IT launch',
    program: 'app.js',
    localRoot: app.folder,
    remoteRoot: '/srv/app',
    networkMode: 'none',
    labels: { ...cleanupLabel },
    ...extra,
  });

  it('runs the app with the inspector, stops at a breakpoint, reads a variable, continues; ending the session removes the container and the forward', async () => {
    const stopped = new StoppedEvents();
    const breakpoint = new vscode.SourceBreakpoint(new vscode.Location(vscode.Uri.file(join(app.folder, 'app.js')), new vscode.Position(DEBUG_APP_BREAK_LINE, 0)));
    try {
      vscode.debug.addBreakpoints([breakpoint]);
      const started = await vscode.debug.startDebugging(undefined, configuration({ image: app.image }));
      assert.equal(started, true, 'VS Code started the debug session');
      const root = await eventually('the launched session', () => app.attached.roots.find((session) => session.name === 'Berth IT launch'), 30_000);
      // The JavaScript debugger's own resolution turns `node` into `pwa-node`: proof that it ran on what Berth returned.
      assert.match(String(root.configuration.type), /^(pwa-)?node$/, 'the configuration became the JavaScript debugger\'s attach');
      assert.equal(root.configuration.request, 'attach');
      assert.equal(root.configuration.remoteRoot, '/srv/app');
      const localPort = root.configuration.port as number;
      assert.ok(await listening(localPort), 'the inspector forward listens');
      const [container] = await client.containers.list({ filters: { label: ['berth.debug=berth-node', 'berth.test=1'] } });
      assert.ok(container, 'the app runs in a container');
      const inspect = await client.containers.inspect(container.Id);
      assert.deepEqual([inspect.Config.Cmd, inspect.HostConfig.NetworkMode], [['node', '--inspect=127.0.0.1:9229', 'app.js'], 'none']);

      const hit = await eventually('the breakpoint to stop the app', () => stopped.seen[0], 60_000);
      const trace = (await hit.session.customRequest('stackTrace', { threadId: hit.threadId })) as { stackFrames: Array<{ id: number; line: number; source?: { path?: string } }> };
      const top = trace.stackFrames[0];
      assert.ok(top, 'a stack frame at the breakpoint');
      assert.equal(top.line, DEBUG_APP_BREAK_LINE + 1);
      assert.ok(top.source?.path?.endsWith(join(app.folder, 'app.js')), `the remote /srv/app/app.js maps to the local copy, not ${top.source?.path}`);
      const value = (await hit.session.customRequest('evaluate', { expression: 'counter', frameId: top.id, context: 'repl' })) as { result: string };
      assert.ok(Number(value.result) >= 1, `counter read ${value.result}`);
      vscode.debug.removeBreakpoints([breakpoint]);
      await hit.session.customRequest('continue', { threadId: hit.threadId });

      await detach(root);
      await eventually('the container to be removed', async () => ((await inspectOrUndefined(client, container.Id)) === undefined ? true : undefined), 60_000);
      await eventually('the inspector forward to end', async () => ((await listening(localPort)) ? undefined : true), 30_000);
      await eventually('the log to say what the end did', async () => ((await berthLogText()).includes(`Debug session ended: removed container ${inspect.Name.replace(/^\//, '')}`) ? true : undefined), 30_000);
    } finally {
      vscode.debug.removeBreakpoints([breakpoint]);
      stopped.dispose();
    }
  });

  it('builds the Dockerfile the configuration names first, and runs the app in that image', async () => {
    const tag = `berth-it-debug-${Date.now().toString(36)}:latest`;
    await writeFile(join(app.folder, 'Dockerfile.debug'), `FROM ${app.image}\nLABEL berth.it.built=yes\n`);
    try {
      const started = await vscode.debug.startDebugging(undefined, configuration({ dockerfile: 'Dockerfile.debug', image: tag, name: 'Berth IT build' }));
      assert.equal(started, true, 'VS Code started the debug session');
      const root = await eventually('the launched session', () => app.attached.roots.find((session) => session.name === 'Berth IT build'), 30_000);
      const [container] = await client.containers.list({ filters: { label: ['berth.debug=berth-node', 'berth.test=1'] } });
      assert.ok(container, 'the app runs in a container');
      const inspect = await client.containers.inspect(container.Id);
      assert.equal(inspect.Config.Labels?.['berth.it.built'], 'yes', 'the container runs the image just built');
      // A detach before the JavaScript debugger has reached the app cancels its websocket mid-handshake, and js-debug
      // then never ends the session (stop 42's hang): wait, as a user would, for the debugger to be attached.
      await eventually('the debugger to reach the app', () => (app.attached.targetsOf(root).length > 0 ? true : undefined), 30_000);
      await detach(root);
      await eventually('the container to be removed', async () => ((await inspectOrUndefined(client, container.Id)) === undefined ? true : undefined), 60_000);
    } finally {
      await rm(join(app.folder, 'Dockerfile.debug'), { force: true });
      await client.images.remove(tag, { force: true }).catch(() => undefined);
    }
  });

  it('refuses a configuration naming a missing Dockerfile, and starts nothing', async () => {
    const before = await client.containers.list({ all: true, filters: { label: ['berth.debug=berth-node', 'berth.test=1'] } });
    const started = await vscode.debug.startDebugging(undefined, configuration({ dockerfile: 'docker/Dockerfile.debug' }));
    assert.equal(started, false, 'no debug session starts');
    const message = expectedMessage('debug-launch-no-dockerfile', { path: 'docker/Dockerfile.debug', folder: app.folder });
    await eventually('the refusal in the log', async () => ((await berthLogText()).split('\n').some((line) => line.includes('Starting Berth IT launch failed') && line.includes(message)) ? true : undefined), 20_000);
    const afterwards = await client.containers.list({ all: true, filters: { label: ['berth.debug=berth-node', 'berth.test=1'] } });
    assert.equal(afterwards.length, before.length, 'no container was created');
  });
});
