// The Volumes view and the volume and prune commands in the real extension host: rows follow the engine's volume
// events while the view is shown, a row expands to the containers that mount it, removal of a volume in use names
// them, and a prune lists what goes and what stays. Every volume here carries this file's own label, and every prune
// is narrowed to it, because other suites share the engine.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { containerSpec } from '../../support/containerSpec';
import { uniqueName, useConnectedSuite, viewRows, viewShows } from '../support/fixtures';

interface PruneResult {
  nothingToRemove: boolean;
  planned: string[];
  kept: string[];
  outcomes: Array<{ kind: string; removed: string[]; spaceReclaimed: number }>;
}

describe('volumes view and prune', () => {
  const marker = uniqueName('it-volumes');
  const labels = { 'berth.test': '1', 'berth.test.volumes': marker };
  const filter = `label=berth.test.volumes=${marker}`;
  const { engines, client, containers } = useConnectedSuite(async () => {
    for (const volume of await client.volumes.list({ filters: { label: [`berth.test.volumes=${marker}`] } })) {
      await client.volumes.remove(volume.Name, { force: true });
    }
  });

  before(async () => {
    // The view follows the engine only while it is shown.
    await vscode.commands.executeCommand('berth.volumes.focus');
  });

  it('a volume created through the command appears as a row from its event, with its driver', async () => {
    const name = uniqueName('it-vol');
    const created = await vscode.commands.executeCommand<string>('berth.volumes.create', { Name: name, Driver: 'local', Labels: labels });
    assert.equal(created, name);
    const row = await viewShows('volumes', [], `row of ${name}`, (rows) => rows.find((each) => each.label === name));
    assert.match(row.description ?? '', /^local · .*unused$/);
    assert.equal(row.contextValue, 'berth:volume:unused');
    const top = (await viewRows('volumes'))[0];
    assert.equal(top?.label, 'Disk Usage');
  });

  it('a volume row expands to the container that mounts it; removing it names that container', async () => {
    const name = uniqueName('it-used');
    await client.volumes.create({ Name: name, Labels: labels });
    const containerName = uniqueName('it-user');
    const { Id } = await client.containers.create(containerSpec(engines.image, ['true'], { HostConfig: { Binds: [`${name}:/data`] } }), { name: containerName });
    containers.track(Id);
    // A created container has no mounts until it ran once.
    await client.containers.start(Id);
    await (await client.containers.wait(Id, { condition: 'not-running' })).result;
    await viewShows('volumes', [], `row of ${name} in use`, (rows) => rows.find((each) => each.label === name && each.contextValue === 'berth:volume:used'));
    const users = await viewRows('volumes', [name]);
    // The Files row (browsing the volume through a helper container, made only when it is expanded) comes first.
    assert.deepEqual(users.map((user) => user.label), ['Files', containerName]);

    await assert.rejects(
      async () => vscode.commands.executeCommand('berth.volumes.remove', name, { confirmed: true }),
      (error: Error) => error.message.includes(`Volume ${name} is in use by container ${containerName}`),
    );
    assert.equal((await client.volumes.inspect(name)).Name, name);
  });

  it('Prune Unused Volumes lists what goes and what stays, prunes, and reports the engine\'s figures; then nothing is left to remove', async () => {
    const unused = uniqueName('it-unused');
    await client.volumes.create({ Name: unused, Labels: labels });
    const result = await vscode.commands.executeCommand<PruneResult>('berth.prune.volumes', { filters: [filter], confirmed: true });
    assert.ok(result);
    assert.equal(result.nothingToRemove, false);
    assert.ok(result.planned.includes(unused), result.planned.join(','));
    assert.equal(result.kept.length, 1, 'the volume in use is kept');
    assert.deepEqual(result.outcomes[0]?.removed.filter((name) => result.planned.includes(name)).sort(), [...result.planned].sort());
    await viewShows('volumes', [], `row of ${unused} gone`, (rows) => (rows.some((each) => each.label === unused) ? undefined : true));

    const again = await vscode.commands.executeCommand<PruneResult>('berth.prune.volumes', { filters: [filter] });
    assert.equal(again?.nothingToRemove, true);
    assert.deepEqual(again.outcomes, []);
  });

  it('a filter that is not KEY=VALUE is refused before any engine call', async () => {
    await assert.rejects(
      async () => vscode.commands.executeCommand('berth.prune.volumes', { filters: ['label'], confirmed: true }),
      /The filter "label" is not KEY=VALUE/,
    );
  });
});
