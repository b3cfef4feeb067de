// What a new user runs into in the first hour (issue 20), in the real extension host: interactive runs, Ctrl+C and
// closing a Run terminal, the clicked row against the multi-selection, Enter in a multi-pick, stops that overlap,
// and Wait for Exit on a container that never started.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { containerSpec } from '../../support/containerSpec';
import { engineSummaries, eventually, inspectOrUndefined, modelShowsContainer, setBerthSetting, uniqueName, useConnectedSuite } from '../support/fixtures';

interface RunResult { id: string; exitCode: number }

/** The ids and names the commands see for a container row (what the Containers view hands a command). */
interface RowLike { kind: 'container'; engine: string; record: { id: string; name: string } }

describe('first hour: interactive runs, selections, pickers', function () {
  this.timeout(120_000);
  const { engines, client, containers } = useConnectedSuite(async () => {
    await setBerthSetting('stop.timeoutSeconds', undefined);
  });
  let engineId: string;

  before(async () => {
    await setBerthSetting('stop.timeoutSeconds', 2);
    const current = (await engineSummaries()).find((summary) => summary.current);
    assert.ok(current, 'a current engine');
    engineId = current.id;
  });

  /** Starts Run Container with `args`; resolves its terminal and the command's result (tracked for cleanup). */
  async function startRun(args: Record<string, unknown>): Promise<{ terminal: vscode.Terminal; name: string; result: Promise<RunResult | undefined> }> {
    const name = uniqueName('berth-it-hour');
    const opened = new Promise<vscode.Terminal>((resolve) => {
      const subscription = vscode.window.onDidOpenTerminal((terminal) => {
        if (terminal.name !== `Run: ${name}`) return;
        subscription.dispose();
        resolve(terminal);
      });
    });
    const result = Promise.resolve(
      vscode.commands.executeCommand<RunResult | undefined>('berth.runContainer', { image: engines.image, name, whenClosed: 'stop', ...args }),
    );
    const terminal = await opened;
    const running = await eventually('the run container runs', async () => {
      const inspected = await inspectOrUndefined(client, name);
      return inspected?.State.Running ? inspected : undefined;
    });
    containers.track(running.Id);
    return { terminal, name, result };
  }

  /** The run's result once its container has exited (bounded: a run that ignores its terminal fails here). */
  async function exited(name: string, result: Promise<RunResult | undefined>): Promise<RunResult | undefined> {
    await eventually('the run container exits', async () => ((await inspectOrUndefined(client, name))?.State.Running === false ? true : undefined), 30_000);
    return result;
  }

  it('a TTY run is interactive: typed lines reach the container, and its TTY has the terminal\'s size', async () => {
    const { terminal, name, result } = await startRun({
      tty: true,
      cmd: ['sh', '-c', 'read line; [ "$line" = hello ] || exit 4; set -- $(stty size); [ "$2" -gt 0 ] || exit 5; exit 3'],
    });
    terminal.sendText('hello', true);
    const done = await exited(name, result);
    assert.equal(done?.exitCode, 3, 'exit 4: the typed line did not arrive; exit 5: the TTY was never sized');
    assert.equal((await client.containers.inspect(name)).Config.OpenStdin, true);
  });

  it('without a TTY, "interactive" sends typed lines, and Ctrl+D closes stdin', async () => {
    const { terminal, name, result } = await startRun({
      interactive: true,
      cmd: ['sh', '-c', 'read line; [ "$line" = hello ] || exit 4; cat >/dev/null; exit 6'],
    });
    terminal.sendText('hello', true);
    terminal.sendText('\x04', false);
    assert.equal((await exited(name, result))?.exitCode, 6, 'exit 4: the line did not arrive; a timeout: Ctrl+D did not close stdin');
  });

  it('Ctrl+C stops the container: SIGTERM first', async () => {
    const { terminal, name, result } = await startRun({ cmd: ['sh', '-c', 'trap "exit 7" TERM; while true; do sleep 0.1; done'] });
    terminal.sendText('\x03', false);
    assert.equal((await exited(name, result))?.exitCode, 7, 'the container got SIGTERM and ran its trap');
  });

  it('Ctrl+C on a container that ignores SIGTERM: SIGKILL after the stop timeout', async () => {
    const { terminal, name, result } = await startRun({ cmd: ['sh', '-c', 'trap "" TERM; while true; do sleep 0.1; done'] });
    terminal.sendText('\x03', false);
    assert.equal((await exited(name, result))?.exitCode, 137, 'killed (128 + 9) once the stop timeout passed');
  });

  it('closing a Run terminal with "leave it running" keeps the container running', async () => {
    const { terminal, name, result } = await startRun({ whenClosed: 'leave', cmd: ['sh', '-c', 'while true; do sleep 0.1; done'] });
    terminal.dispose();
    assert.equal(await result, undefined, 'a run left behind has no exit status');
    const inspected = await client.containers.inspect(name);
    assert.equal(inspected.State.Running, true, 'the container runs on');
  });

  function row(container: { id: string; name: string }): RowLike {
    return { kind: 'container', engine: engineId, record: container };
  }

  it('a command on a clicked row inside the selection: a single-item command takes the clicked row', async () => {
    const first = await containers.create({ cmd: ['sleep', '300'] });
    const second = await containers.create({ cmd: ['sleep', '300'] });
    const copied = await vscode.commands.executeCommand<string | undefined>('berth.copyName', row(second), [row(first), row(second)]);
    assert.equal(copied, second.name);
  });

  it('a clicked row outside the selection: the command acts on the clicked row alone', async () => {
    const clicked = await containers.create({ cmd: ['sleep', '300'] });
    const selectedA = await containers.create({ cmd: ['sleep', '300'] });
    const selectedB = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(selectedB.id, 'running');
    // Ids stand in for rows here: the same resolution takes (clicked, selection) either way.
    const result = await vscode.commands.executeCommand<{ stopped: string[] } | undefined>(
      'berth.stop', clicked.id, [selectedA.id, selectedB.id], { confirmed: true },
    );
    assert.deepEqual(result?.stopped, [clicked.id]);
    assert.equal((await client.containers.inspect(selectedA.id)).State.Running, true);
    assert.equal((await client.containers.inspect(selectedB.id)).State.Running, true);
  });

  it('a clicked row inside the selection: a multi-item command acts on the whole selection', async () => {
    const first = await containers.create({ cmd: ['sleep', '300'] });
    const second = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(second.id, 'running');
    const result = await vscode.commands.executeCommand<{ stopped: string[] } | undefined>(
      'berth.stop', second.id, [first.id, second.id], { confirmed: true },
    );
    assert.deepEqual([...(result?.stopped ?? [])].sort(), [first.id, second.id].sort());
  });

  it('a multi-pick takes the highlighted item on Enter when none is ticked', async () => {
    const created = await containers.create({ cmd: ['sleep', '300'], start: false });
    // Not-running containers are listed newest first: the one just made is the highlighted first item.
    await eventually('the model lists the new container', async () =>
      (await vscode.commands.executeCommand<{ containers: Array<{ id: string }> }>('berth.internal.modelSnapshot')).containers.some((c) => c.id === created.id) ? true : undefined);
    let settled = false;
    const started = Promise.resolve(vscode.commands.executeCommand<{ started: string[] } | undefined>('berth.start')).finally(() => (settled = true));
    await eventually('the picker accepted Enter', async () => {
      if (settled) return true;
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return undefined;
    });
    assert.deepEqual((await started)?.started, [created.id], 'Enter with nothing ticked started the highlighted container');
  });

  it('stopping several selected containers overlaps the stops (each sees the others\' SIGTERM)', async () => {
    const volume = uniqueName('berth-it-stops');
    await client.volumes.create({ Name: volume });
    try {
      // On SIGTERM each container marks itself, then waits (about 5 s) for the other two marks. Stopped one after
      // another, the first never sees the others' marks and exits 9; stopped together, all three exit 0.
      const script = 'trap \'touch /shared/$HOSTNAME; i=0; while [ $(ls /shared | wc -l) -lt 3 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; [ $(ls /shared | wc -l) -ge 3 ] && exit 0; exit 9\' TERM; while true; do sleep 0.1; done';
      const made = [];
      for (let index = 0; index < 3; index += 1) {
        const name = uniqueName('berth-it-stop');
        const { Id } = await client.containers.create(
          containerSpec(engines.image, ['sh', '-c', script], { HostConfig: { Binds: [`${volume}:/shared`] } }),
          { name },
        );
        containers.track(Id);
        await client.containers.start(Id);
        made.push({ id: Id, name });
      }
      await setBerthSetting('stop.timeoutSeconds', 20);
      const result = await vscode.commands.executeCommand<{ stopped: string[] } | undefined>('berth.stop', made.map((container) => container.id), { confirmed: true });
      assert.equal(result?.stopped.length, 3);
      const codes = await Promise.all(made.map(async (container) => (await client.containers.inspect(container.id)).State.ExitCode));
      assert.deepEqual(codes, [0, 0, 0], 'exit 9: a container was stopped only after another had finished stopping');
    } finally {
      await setBerthSetting('stop.timeoutSeconds', 2);
      await containers.cleanup();
      await client.volumes.remove(volume, { force: true }).catch(() => undefined);
    }
  });

  it('Wait for Exit on a container that never started says so, and can start it and wait', async () => {
    const { id } = await containers.create({ cmd: ['sh', '-c', 'exit 5'], start: false });
    const declined = await vscode.commands.executeCommand<{ notStarted?: boolean; exitCode?: number } | undefined>('berth.waitForExit', id, { confirmed: false });
    assert.equal(declined?.notStarted, true, 'not "exited with status 0"');
    assert.equal(declined.exitCode, undefined);
    const waited = await vscode.commands.executeCommand<{ exitCode?: number } | undefined>('berth.waitForExit', id, { confirmed: true });
    assert.equal(waited?.exitCode, 5);
  });
});
