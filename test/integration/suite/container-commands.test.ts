// Every container command's effect on the engine, checked with the engine client (not through the extension).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EngineClient } from '../../../src/engine';
import {
  TestContainers, activateBerth, engineClient, eventually, inspectOrUndefined, modelShowsContainer, modelState,
  setBerthSetting, suiteEngine, testEngines, uniqueName,
} from '../support/fixtures';

interface RunResult { id: string; exitCode: number }

describe('container commands', () => {
  const engines = testEngines();
  const engine = suiteEngine(engines);
  let client: EngineClient;
  let containers: TestContainers;

  before(async () => {
    await activateBerth();
    await modelState('connected');
    // busybox sh as PID 1 ignores SIGTERM: a short graceful wait keeps stop/restart quick.
    await setBerthSetting('stop.timeoutSeconds', 1);
    client = engineClient(engine.host);
    containers = new TestContainers(client, engines.image);
  });

  after(async () => {
    await containers.cleanup();
    await setBerthSetting('stop.timeoutSeconds', undefined);
    await client.close();
  });

  it('Run Container runs to completion, returns the exit status and opens the run terminal', async () => {
    const name = uniqueName('berth-it-run');
    const result = await vscode.commands.executeCommand<RunResult | undefined>('berth.runContainer', {
      image: engines.image,
      cmd: ['sh', '-c', 'echo run-output; exit 3'],
      name,
    });
    assert.ok(result, 'berth.runContainer returned a result');
    containers.track(result.id);
    assert.equal(result.exitCode, 3);
    const inspected = await client.containers.inspect(result.id);
    assert.equal(inspected.Name, `/${name}`);
    assert.equal(inspected.State.ExitCode, 3);
    assert.equal(inspected.HostConfig.NetworkMode, 'none', 'berth.run.network = none is applied');
    assert.ok(vscode.window.terminals.some((terminal) => terminal.name === `Run: ${name}`));
  });

  it('Run Container with autoRemove leaves no container behind', async () => {
    const result = await vscode.commands.executeCommand<RunResult | undefined>('berth.runContainer', {
      image: engines.image,
      cmd: ['sh', '-c', 'exit 0'],
      autoRemove: true,
    });
    assert.ok(result);
    containers.track(result.id);
    assert.equal(result.exitCode, 0);
    await eventually('the auto-removed container to be gone', async () =>
      (await inspectOrUndefined(client, result.id)) === undefined ? true : undefined);
  });

  it('Run in Background starts a container and returns at once', async () => {
    const name = uniqueName('berth-it-bg');
    const result = await vscode.commands.executeCommand<{ id: string } | undefined>('berth.runInBackground', {
      image: engines.image,
      cmd: ['sleep', '300'],
      name,
    });
    assert.ok(result);
    containers.track(result.id);
    const inspected = await client.containers.inspect(result.id);
    assert.equal(inspected.State.Running, true);
    assert.equal(inspected.Name, `/${name}`);
    await modelShowsContainer(result.id, 'running');
  });

  it('Start starts a created container', async () => {
    const { id } = await containers.create({ cmd: ['sleep', '300'], start: false });
    await modelShowsContainer(id, 'created');
    const result = await vscode.commands.executeCommand<{ started: string[] }>('berth.start', id);
    assert.deepEqual(result?.started, [id]);
    assert.equal((await client.containers.inspect(id)).State.Running, true);
  });

  it('Stop stops a running container', async () => {
    const { id } = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(id, 'running');
    const result = await vscode.commands.executeCommand<{ stopped: string[]; swarmWarned: string[] }>('berth.stop', id, {
      confirmed: true,
    });
    assert.deepEqual(result?.stopped, [id]);
    assert.deepEqual(result?.swarmWarned, []);
    assert.equal((await client.containers.inspect(id)).State.Running, false);
    await modelShowsContainer(id, 'exited');
  });

  it('Stop warns about a swarm-managed container (simulated with its labels)', async () => {
    const { id } = await containers.create({
      cmd: ['sleep', '300'],
      labels: {
        'com.docker.swarm.service.name': 'web',
        'com.docker.swarm.service.id': 'svc0123456789',
        'com.docker.swarm.task.id': 'task0123456789',
      },
    });
    await modelShowsContainer(id, 'running');
    const result = await vscode.commands.executeCommand<{ stopped: string[]; swarmWarned: string[] }>('berth.stop', id, {
      confirmed: true,
    });
    assert.deepEqual(result?.swarmWarned, [id]);
    assert.deepEqual(result?.stopped, [id]);
  });

  it('Restart restarts a running container', async () => {
    const { id } = await containers.create({ cmd: ['sleep', '300'] });
    const before = await client.containers.inspect(id);
    await modelShowsContainer(id, 'running');
    const result = await vscode.commands.executeCommand<{ restarted: string[] }>('berth.restart', id);
    assert.deepEqual(result?.restarted, [id]);
    const after = await client.containers.inspect(id);
    assert.equal(after.State.Running, true);
    assert.notEqual(after.State.StartedAt, before.State.StartedAt);
  });

  it('Remove removes a running container once confirmed', async () => {
    const { id } = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(id, 'running');
    const result = await vscode.commands.executeCommand<{ removed: string[] }>('berth.remove', id, { confirmed: true });
    assert.deepEqual(result?.removed, [id]);
    assert.equal(await inspectOrUndefined(client, id), undefined);
    await modelShowsContainer(id, 'absent');
  });

  it('Remove does nothing when the confirmation is declined', async () => {
    const { id } = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(id, 'running');
    const result = await vscode.commands.executeCommand<{ removed: string[] } | undefined>('berth.remove', id, {
      confirmed: false,
    });
    // The typed refusal, not undefined: a crash also resolves to undefined and must not pass here.
    assert.deepEqual(result, { removed: [], refused: [], declined: true });
    assert.equal((await client.containers.inspect(id)).State.Running, true);
  });

  it('Wait for Exit returns the exit status', async () => {
    const { id } = await containers.create({ cmd: ['sh', '-c', 'sleep 1; exit 7'] });
    const result = await vscode.commands.executeCommand<{ id: string; exitCode: number }>('berth.waitForExit', id);
    assert.equal(result?.exitCode, 7);
    assert.equal((await client.containers.inspect(id)).State.ExitCode, 7);
  });

  it('Inspect opens the container JSON the engine reports', async () => {
    const { id, name } = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(id, 'running');
    const result = await vscode.commands.executeCommand<{ uri: string }>('berth.inspect', id);
    assert.ok(result?.uri.startsWith('berth-inspect:'), result?.uri);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(result.uri));
    const parsed = JSON.parse(document.getText()) as { Id: string; Name: string };
    assert.equal(parsed.Id, id);
    assert.equal(parsed.Name, `/${name}`);
  });

  it('Copy ID and Copy Name put the values on the clipboard', async () => {
    const { id, name } = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(id, 'running');
    const copiedId = await vscode.commands.executeCommand<string>('berth.copyId', id);
    assert.equal(copiedId, id);
    assert.equal(await vscode.env.clipboard.readText(), id);
    const copiedName = await vscode.commands.executeCommand<string>('berth.copyName', id);
    assert.equal(copiedName, name);
    assert.equal(await vscode.env.clipboard.readText(), name);
  });

  it('Show Logs opens a terminal named after the container', async () => {
    const { id, name } = await containers.create({ cmd: ['sh', '-c', 'echo in-terminal; sleep 300'] });
    await modelShowsContainer(id, 'running');
    const result = await vscode.commands.executeCommand<{ terminalName: string }>('berth.showLogs', id);
    assert.equal(result?.terminalName, `Logs: ${name}`);
    assert.ok(vscode.window.terminals.some((terminal) => terminal.name === `Logs: ${name}`));
  });
});
