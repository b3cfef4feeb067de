// Run Container's terminal closed while the container runs (issue 19): the run is stopped, and with "remove when
// done" the engine removes the container (AutoRemove); without it the container stays, exited, not running.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EngineClient } from '../../../src/engine';
import { activateBerth, engineClient, eventually, inspectOrUndefined, modelState, suiteEngine, testEngines, uniqueName } from '../support/fixtures';

interface RunResult { id: string; exitCode: number }

describe('run terminal closed mid-run', () => {
  const engines = testEngines();
  const engine = suiteEngine(engines);
  let client: EngineClient;
  const names: string[] = [];

  before(async () => {
    await activateBerth();
    await modelState('connected');
    client = engineClient(engine.host);
  });

  after(async () => {
    for (const name of names) await client.containers.remove(name, { force: true }).catch(() => undefined);
    await client.close();
  });

  /** Starts Run Container, waits until its container runs, closes its terminal; resolves the command's result. */
  async function runAndCloseTerminal(autoRemove: boolean): Promise<{ name: string; result: RunResult | undefined }> {
    const name = uniqueName(autoRemove ? 'berth-it-close-rm' : 'berth-it-close');
    names.push(name);
    const opened = new Promise<vscode.Terminal>((resolve) => {
      const subscription = vscode.window.onDidOpenTerminal((terminal) => {
        if (terminal.name !== `Run: ${name}`) return;
        subscription.dispose();
        resolve(terminal);
      });
    });
    const running = vscode.commands.executeCommand<RunResult | undefined>('berth.runContainer', {
      image: engines.image,
      // Exits on SIGTERM, so the stop that closing the terminal causes is quick.
      cmd: ['sh', '-c', 'trap "exit 0" TERM; echo ready; while true; do sleep 0.1; done'],
      name,
      autoRemove,
      // Closing asks "stop it or leave it running?" (issue 20); this suite answers stop.
      whenClosed: 'stop',
    });
    const terminal = await opened;
    await eventually('the container runs', async () => ((await inspectOrUndefined(client, name))?.State.Running ? true : undefined));
    terminal.dispose();
    return { name, result: await running };
  }

  it('with "remove when done": the run stops and the engine removes the container', async () => {
    const { name, result } = await runAndCloseTerminal(true);
    assert.equal(result, undefined, 'a cancelled run has no exit status to return');
    await eventually('the container is gone', async () => ((await inspectOrUndefined(client, name)) === undefined ? true : undefined));
  });

  it('without it: the run stops and the container stays, exited and not running', async () => {
    const { name, result } = await runAndCloseTerminal(false);
    assert.equal(result, undefined, 'a cancelled run has no exit status to return');
    await eventually('the container has exited', async () => ((await inspectOrUndefined(client, name))?.State.Status === 'exited' ? true : undefined));
    const inspected = await client.containers.inspect(name);
    assert.equal(inspected.State.Running, false);
    assert.equal(inspected.HostConfig.AutoRemove, false);
  });
});
