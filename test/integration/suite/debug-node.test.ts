// Attach Node.js Debugger in the real extension host, with VS Code's built-in JavaScript debugger, on the private
// dockerd and on Podman: a container of the Node.js test image runs a small script with --inspect; Attach forwards
// the inspector, a breakpoint set through vscode.debug stops it, a variable is read with `evaluate`, it continues,
// and ending the session ends the forward. A node process without --inspect is opened with SIGUSR1; a stopped
// container and one without node are refused with their clear messages.
// Sessions are ended with a disconnect that keeps the debuggee, never vscode.debug.stopDebugging: should Berth's
// termination guard fail, the JavaScript debugger would kill the host's process tree of the app's container PID.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { tarOf } from '../../../src/engine/files';
import { expectedMessage } from '../../engine/engine/bad-input-cases';
import { DEBUG_APP, DEBUG_APP_BREAK_LINE, detach, StoppedEvents, useDebugApp } from '../support/debugSessions';
import { listening } from '../../support/loopbackPort';
import { eventually, useConnectedSuite, viewShows } from '../support/fixtures';

interface AttachSummary {
  container: string;
  pid: number;
  containerPort: number;
  localPort: number;
  signalled: boolean;
  remoteRoot: string | undefined;
  localRoot: string | undefined;
  token: string;
}


describe('Attach Node.js Debugger', function () {
  this.timeout(180_000);
  const { client, containers } = useConnectedSuite();
  const app = useDebugApp(client, 'berth-debug-');

  /** A container running /app/app.js with node and ARGS (the script put in before it starts). */
  const appContainer = async (args: string[]): Promise<{ id: string; name: string }> => {
    const made = await containers.create({ image: app.image, cmd: ['node', ...args, '/app/app.js'], start: false });
    await client.containers.putArchive(made.id, '/app', await tarOf([{ header: { name: 'app.js', mode: 0o644, size: Buffer.byteLength(DEBUG_APP) }, data: Buffer.from(DEBUG_APP) }]));
    await client.containers.start(made.id);
    return made;
  };

  it('attaches to --inspect, stops at a breakpoint, reads a variable, continues; stopping the session ends the forward', async () => {
    const made = await appContainer(['--inspect=127.0.0.1:9229']);
    const stopped = new StoppedEvents();
    const breakpoint = new vscode.SourceBreakpoint(new vscode.Location(vscode.Uri.file(join(app.folder, 'app.js')), new vscode.Position(DEBUG_APP_BREAK_LINE, 0)));
    try {
      vscode.debug.addBreakpoints([breakpoint]);
      const summary = await eventually(
        'Attach Node.js Debugger',
        async () => await vscode.commands.executeCommand<AttachSummary | undefined>('berth.attachNodeDebugger', made.id, { localRoot: app.folder, remoteRoot: '/app' }),
        60_000,
      );
      assert.deepEqual([summary.container, summary.containerPort, summary.signalled, summary.remoteRoot], [made.name, 9229, false, '/app']);
      assert.ok(await listening(summary.localPort), 'the inspector forward listens');
      await viewShows('containers', [made.name], `the Forwarded row of ${made.name}`, (rows) => rows.find((row) => row.label === 'Forwarded'));

      const hit = await eventually('the breakpoint to stop the app', () => stopped.seen[0], 60_000);
      const trace = (await hit.session.customRequest('stackTrace', { threadId: hit.threadId })) as { stackFrames: Array<{ id: number; line: number; source?: { path?: string } }> };
      const top = trace.stackFrames[0];
      assert.ok(top, 'a stack frame at the breakpoint');
      assert.equal(top.line, DEBUG_APP_BREAK_LINE + 1);
      // The workbench may name the local copy by a vscode-remote: URI's path or by the plain path.
      assert.ok(top.source?.path?.endsWith(join(app.folder, 'app.js')), `the remote /app/app.js maps to the local copy, not ${top.source?.path}`);
      const value = (await hit.session.customRequest('evaluate', { expression: 'counter', frameId: top.id, context: 'repl' })) as { result: string };
      assert.ok(Number(value.result) >= 1, `counter read ${value.result}`);

      vscode.debug.removeBreakpoints([breakpoint]);
      await hit.session.customRequest('continue', { threadId: hit.threadId });
      const root = await eventually('the attached session', () => app.attached.of(summary.token), 10_000);
      await detach(root);
      await eventually('the inspector forward to end', async () => ((await listening(summary.localPort)) ? undefined : true), 30_000);
      await viewShows('containers', [made.name], 'the Forwarded row to go', (under) => (under.some((row) => row.label === 'Forwarded') ? undefined : under));
      const state = await client.containers.inspect(made.id);
      assert.equal(state.State.Running, true, 'the app keeps running after the debugger detached');
    } finally {
      vscode.debug.removeBreakpoints([breakpoint]);
      stopped.dispose();
    }
  });

  it('opens the inspector of a node process without --inspect with SIGUSR1 once agreed, and attaches', async () => {
    const made = await appContainer([]);
    const summary = await eventually(
      'Attach Node.js Debugger with SIGUSR1',
      async () => await vscode.commands.executeCommand<AttachSummary | undefined>('berth.attachNodeDebugger', made.id, { localRoot: app.folder, remoteRoot: '/app', confirmed: true }),
      60_000,
    );
    assert.deepEqual([summary.signalled, summary.containerPort], [true, 9229]);
    const root = await eventually('the attached session', () => app.attached.of(summary.token), 30_000);
    assert.ok(app.attached.targetsOf(root).length > 0, 'the command returns once the debugger has reached the node process');
    await detach(root);
    await eventually('the inspector forward to end', async () => ((await listening(summary.localPort)) ? undefined : true), 30_000);
  });

  it('refuses a container that runs no node, and one that is not running', async () => {
    const idle = await containers.create({ cmd: ['sleep', '600'] });
    const refusal = (id: string) => (error: Error) => {
      assert.equal(error.message, expectedMessage(id, { name: idle.name }));
      return true;
    };
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.attachNodeDebugger', idle.id)), refusal('debug-no-node'));
    await client.containers.stop(idle.id, { timeoutSeconds: 0 });
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.attachNodeDebugger', idle.id)), refusal('debug-not-running'));
  });
});
