// berth.run.network from the workspace's settings is never applied silently (issue 17): a run asks, naming the value
// and the settings file, and runs with the workspace's network only when the answer says so; otherwise the user's own
// value (the test run's user settings say none). The network here is container:<a running network-less container>,
// which widens nothing on the test engines. The question itself is answered through `workspaceNetwork`, which only
// Berth's test mode honours (the modal is answered in the real workbench by the e2e case).
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { EngineClient } from '../../../src/engine';
import { TestContainers, activateBerth, berthLogText, engineClient, eventually, modelState, suiteEngine, testEngines } from '../support/fixtures';

describe('berth.run.network from workspace settings', function () {
  this.timeout(120_000);
  const engines = testEngines();
  const engine = suiteEngine(engines);
  let client: EngineClient;
  let containers: TestContainers;
  /** The network-less container whose network the runs share; removed after them (Podman refuses it before). */
  let helper: TestContainers;
  let sharedNetwork: string;

  before(async () => {
    await activateBerth();
    await modelState('connected');
    client = engineClient(engine.host);
    containers = new TestContainers(client, engines.image);
    helper = new TestContainers(client, engines.image);
    // By id: the engine reports the mode as container:<id> whatever name it was given.
    sharedNetwork = `container:${(await helper.create({ cmd: ['sleep', '300'] })).id}`;
    await vscode.workspace.getConfiguration('berth').update('run.network', sharedNetwork, vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('berth').update('run.network', undefined, vscode.ConfigurationTarget.Workspace);
    await containers.cleanup();
    await helper.cleanup();
    await client.close();
  });

  async function runInBackground(extra: Record<string, unknown>): Promise<string> {
    const result = await vscode.commands.executeCommand<{ id: string } | undefined>('berth.runInBackground', {
      image: engines.image,
      cmd: ['sleep', '300'],
      ...extra,
    });
    // No result means the command failed or was cancelled: the Berth log says which.
    if (!result) assert.fail(`berth.runInBackground returned no result; the Berth log ends:\n${(await berthLogText()).split('\n').slice(-15).join('\n')}`);
    return containers.track(result.id);
  }

  it('answered “not this network”: the container gets the user’s own value, and the log names the file', async () => {
    const id = await runInBackground({ workspaceNetwork: 'ignore' });
    assert.equal((await client.containers.inspect(id)).HostConfig.NetworkMode, 'none');
    const settingsFile = join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', '.vscode', 'settings.json');
    const line = await eventually('the log line about the workspace network', async () =>
      (await berthLogText()).split('\n').find((text) => text.includes('not using berth.run.network') && text.includes(sharedNetwork)));
    assert.ok(line.includes(settingsFile), line);
  });

  it('answered “use it”: the container runs with the workspace’s network', async () => {
    const id = await runInBackground({ workspaceNetwork: 'use' });
    assert.equal((await client.containers.inspect(id)).HostConfig.NetworkMode, sharedNetwork);
  });

  it('a network given to the run itself wins, and nothing is asked', async () => {
    const before = (await berthLogText()).split('\n').filter((text) => text.includes('berth.run.network')).length;
    const id = await runInBackground({ options: { network: 'none' } });
    assert.equal((await client.containers.inspect(id)).HostConfig.NetworkMode, 'none');
    const after = (await berthLogText()).split('\n').filter((text) => text.includes('berth.run.network')).length;
    assert.equal(after, before, 'the run asked about the workspace network although the run named its own');
  });
});
