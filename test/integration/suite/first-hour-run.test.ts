// The first hour, continued (issue 20): Run Container offers Sign In when the registry refuses the pull of a missing
// image and then runs with the answers already given; declining creates nothing and says why. Run terminals are
// named after their container; Show Logs reveals the open terminal of a container instead of opening another;
// Add Engine selects the new engine's row. Against the private registry with htpasswd (engines.json).
import * as assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../../src/common/errors';
import { rowPattern } from '../../engine/engine/bad-input-workbench-cases';
import { engineSummaries, eventually, inspectOrUndefined, modelShowsContainer, removeImageQuietly, uniqueName, useConnectedSuite } from '../support/fixtures';

interface RunResult { id: string; exitCode: number; terminalName: string }
interface ChildSummary { label: string; description: string | undefined }

/** The Run terminals and Logs terminals open now, by name. */
function terminalsNamed(name: string): vscode.Terminal[] {
  return vscode.window.terminals.filter((terminal) => terminal.name === name);
}

describe('first hour: Run signs in, terminals by container, Add Engine', function () {
  this.timeout(120_000);
  const { engines, client, containers } = useConnectedSuite(async () => {
    await vscode.commands.executeCommand('berth.registries.signOut', engines.registry.address);
    await removeImageQuietly(client, reference);
  });
  // Only in the registry: removed from the engine before each pull.
  const reference = `${engines.registry.address}/berth/busybox:1.0`;

  before(async function () {
    const registries = (await vscode.commands.executeCommand<ChildSummary[]>('berth.internal.registriesChildren', [])) ?? [];
    if (registries.find((child) => child.label === engines.registry.address)?.description?.includes('docker config')) {
      console.log('the docker configuration has credentials for the test registry: the anonymous first attempt cannot happen');
      this.skip();
    }
    await vscode.commands.executeCommand('berth.registries.signOut', engines.registry.address);
  });

  beforeEach(() => removeImageQuietly(client, reference));

  it('declining Sign In: the refusal in the engine\'s words, and nothing created', async () => {
    const name = uniqueName('berth-it-refused');
    let message: string | undefined;
    try {
      await vscode.commands.executeCommand('berth.runContainer', { image: reference, name, cmd: ['true'], signIn: false });
    } catch (error) {
      message = errorMessage(error);
    }
    assert.ok(message !== undefined, 'a declined sign-in fails the run');
    assert.match(message, rowPattern('run-pull-refused-no-sign-in'));
    assert.match(message, /no basic auth credentials|authentication required|unauthorized/i, 'the engine\'s own words');
    assert.match(message, /Sign in to the registry \(Berth: Sign In to Registry, or docker login\)/, 'what to do next');
    assert.equal(await inspectOrUndefined(client, name), undefined, 'no container was created');
    await assert.rejects(client.images.inspect(reference), 'the image was not pulled');
  });

  it('Sign In after the refusal: the pull succeeds and the container runs with the options given first', async () => {
    const name = uniqueName('berth-it-signed-in');
    const result = await vscode.commands.executeCommand<RunResult | undefined>('berth.runContainer', {
      image: reference,
      name,
      cmd: ['sh', '-c', '[ "$BERTH_IT" = signed-in ] && exit 6; exit 1'],
      options: { env: ['BERTH_IT=signed-in'], labels: { 'berth.it': 'run-sign-in' } },
      signIn: { username: engines.registry.username, password: engines.registry.password },
    });
    assert.ok(result, 'the run returned a result');
    containers.track(result.id);
    assert.equal(result.exitCode, 6, 'the command and the environment given before the sign-in');
    const inspected = await client.containers.inspect(result.id);
    assert.equal(inspected.Name, `/${name}`);
    assert.equal(inspected.Config.Labels?.['berth.it'], 'run-sign-in');
    assert.ok((await client.images.inspect(reference)).Id, 'the image was pulled');
    assert.equal(result.terminalName, `Run: ${name}`, 'the Run terminal is named after its container');
    assert.equal(terminalsNamed(`Run: ${name}`).length, 1);
  });

  it('Run in Background takes the same offer: declined it creates nothing, signed in it starts the container', async () => {
    await vscode.commands.executeCommand('berth.registries.signOut', engines.registry.address);
    const name = uniqueName('berth-it-bg-signed-in');
    const base = { image: reference, name, cmd: ['sh', '-c', 'sleep 30'] };
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.runInBackground', { ...base, signIn: false })), rowPattern('run-pull-refused-no-sign-in'));
    assert.equal(await inspectOrUndefined(client, name), undefined, 'no container after the refusal');
    const result = await vscode.commands.executeCommand<{ id: string } | undefined>('berth.runInBackground', {
      ...base,
      signIn: { username: engines.registry.username, password: engines.registry.password },
    });
    assert.ok(result, 'the background run returned its container');
    containers.track(result.id);
    assert.equal((await client.containers.inspect(result.id)).Name, `/${name}`);
  });

  it('Pull Image takes the same offer: declined it pulls nothing, signed in it pulls again and the image is local', async () => {
    await vscode.commands.executeCommand('berth.registries.signOut', engines.registry.address);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('berth.pullImage', reference, { signIn: false })),
      (error: unknown) => /no basic auth credentials|authentication required|unauthorized/i.test(errorMessage(error)),
      'the declined pull fails with the registry\'s own words',
    );
    await assert.rejects(client.images.inspect(reference), 'nothing was pulled after the refusal');
    const result = await vscode.commands.executeCommand<{ reference: string } | undefined>('berth.pullImage', reference, {
      signIn: { username: engines.registry.username, password: engines.registry.password },
    });
    assert.deepEqual(result, { reference });
    assert.ok((await client.images.inspect(reference)).Id, 'the image was pulled after the sign-in');
    const registries = (await vscode.commands.executeCommand<ChildSummary[]>('berth.internal.registriesChildren', [])) ?? [];
    const row = registries.find((child) => child.label === engines.registry.address);
    assert.ok(row?.description?.includes('signed in'), `the registry row says it is signed in: ${row?.description}`);
  });

  it('a Run terminal without a given name takes the name the engine gave the container', async () => {
    const result = await vscode.commands.executeCommand<RunResult | undefined>('berth.runContainer', { image: engines.image, cmd: ['true'] });
    assert.ok(result);
    containers.track(result.id);
    const engineName = (await client.containers.inspect(result.id)).Name.replace(/^\//, '');
    assert.equal(result.terminalName, `Run: ${engineName}`);
    await eventually('the terminal tab shows the container name', () => Promise.resolve(terminalsNamed(`Run: ${engineName}`).length === 1 ? true : undefined));
  });

  it('Show Logs twice reveals the same terminal; once it is closed, Show Logs opens a new one', async () => {
    const { id } = await containers.create({ cmd: ['sh', '-c', 'echo logs-once; sleep 60'] });
    await modelShowsContainer(id, 'running');
    const first = await vscode.commands.executeCommand<{ terminalName: string; reused: boolean }>('berth.showLogs', id);
    assert.ok(first);
    assert.equal(first.reused, false);
    const second = await vscode.commands.executeCommand<{ terminalName: string; reused: boolean }>('berth.showLogs', id);
    assert.equal(second?.reused, true);
    assert.equal(terminalsNamed(first.terminalName).length, 1, 'one Logs terminal for the container');
    const closed = new Promise<void>((resolve) => {
      const subscription = vscode.window.onDidCloseTerminal(() => {
        subscription.dispose();
        resolve();
      });
    });
    terminalsNamed(first.terminalName)[0]?.dispose();
    await closed;
    const third = await vscode.commands.executeCommand<{ terminalName: string; reused: boolean }>('berth.showLogs', id);
    assert.equal(third?.reused, false, 'a closed terminal is not revealed');
    assert.equal(terminalsNamed(first.terminalName).length, 1);
    for (const terminal of terminalsNamed(first.terminalName)) terminal.dispose();
  });

  it('Add Engine selects the new engine\'s row in the Containers view; Remove Engine takes it out of the settings', async () => {
    const name = uniqueName('berth-it-added');
    const host = `unix://${join(tmpdir(), `${name}.sock`)}`;
    const configured = (): string[] =>
      (vscode.workspace.getConfiguration('berth').get<Array<{ name?: string }>>('engines') ?? []).map((engine) => engine.name ?? '');
    let removed = false;
    try {
      const added = await vscode.commands.executeCommand<{ engine: string; revealed: boolean }>('berth.addEngine', { name, host });
      assert.equal(added?.engine, `settings:${name}`);
      assert.equal(added.revealed, true, 'the new engine has a row, and it was revealed');
      // Revealed means selected, as the message says: VS Code refused a reveal sent before it had listed the row.
      assert.deepEqual(await vscode.commands.executeCommand<string[]>('berth.internal.selectedEngineRows'), [`settings:${name}`]);
      assert.ok(configured().includes(name), 'berth.engines names the added engine');
      const result = await vscode.commands.executeCommand<{ removed: string } | undefined>('berth.removeEngine', `settings:${name}`);
      removed = true;
      assert.deepEqual(result, { removed: name });
      assert.ok(!configured().includes(name), 'berth.engines still names the removed engine');
      await eventually('the removed engine gone from the engines', async () =>
        ((await engineSummaries()).some((summary) => summary.id === `settings:${name}`) ? undefined : true));
    } finally {
      if (!removed) await vscode.commands.executeCommand('berth.removeEngine', `settings:${name}`);
    }
  });
});
