// The Networks view and the network commands in the real extension host. On dockerd only the predefined networks are
// used (never create a network there): rows, Inspect, and Remove refused with the engine's words. On the private
// Podman (the matrix's Podman pass) Create Network…, Connect, Disconnect and Remove run through the commands, under
// the network guard (test/support/networkGuard.ts: internal networks, a container created and never started, no new
// host interface).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { networkGuard } from '../../support/networkGuard';
import { uniqueName, useConnectedSuite, viewShows } from '../support/fixtures';

describe('networks view', () => {
  const { engines, engine, client } = useConnectedSuite();

  before(async () => {
    // The view follows the engine only while it is shown.
    await vscode.commands.executeCommand('berth.networks.focus');
  });

  it('shows the predefined networks with driver and scope, marked predefined; Inspect opens the engine\'s JSON', async () => {
    // Podman's list calls its default network `bridge`, its inspect (which the view shows) `podman`.
    const name = engine.kind === 'docker' ? 'none' : 'podman';
    const row = await viewShows('networks', [], `row of ${name}`, (rows) => rows.find((each) => each.label === name));
    const inspected = await client.networks.inspect(name);
    assert.ok(row.description?.startsWith(`${inspected.Driver} · ${inspected.Scope}`), row.description);
    assert.equal(row.contextValue, 'berth:network:predefined');
    await vscode.commands.executeCommand('berth.networks.inspect', name);
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.equal((JSON.parse(text) as { Id: string }).Id, inspected.Id);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Remove of a predefined network is refused with the engine\'s words, and the row stays', async function () {
    if (engine.kind !== 'docker') this.skip(); // Podman's default network: covered by its own case below.
    await assert.rejects(
      async () => vscode.commands.executeCommand('berth.networks.remove', 'none', { confirmed: true }),
      (error: Error) => error.message.includes('none is a pre-defined network and cannot be removed'),
    );
    await viewShows('networks', [], 'row of none still there', (rows) => rows.find((each) => each.label === 'none'));
  });

  describe('on the private Podman: create, connect, disconnect, remove', function () {
    before(function () {
      if (engine.kind !== 'podman') this.skip(); // Never create a network on dockerd (the dockerd pass has the cases above).
    });
    const guard = networkGuard(engine.host, engines);
    before(async function () {
      if (engine.kind === 'podman') await guard.begin();
    });
    after(async function () {
      if (engine.kind === 'podman') await guard.end();
    });

    it('Create Network… (internal, subnet) adds a row; Connect and Disconnect change its containers; Remove drops it', async () => {
      const name = uniqueName('it-net');
      guard.watch({ network: name });
      const created = await vscode.commands.executeCommand<string>('berth.networks.create', { Name: name, Driver: 'bridge', Internal: true, IPAM: { Config: [{ Subnet: '10.251.23.0/24' }] } });
      assert.equal(created, name);
      await viewShows('networks', [], `row of ${name}`, (rows) => rows.find((each) => each.label === name && each.description === 'bridge · local · internal · 10.251.23.0/24 · no containers'));

      const home = await guard.createNetwork();
      const id = await guard.createIdleContainer(home);
      const containerName = (await client.containers.inspect(id)).Name.replace(/^\//, '');
      await vscode.commands.executeCommand('berth.networks.connect', { network: name, container: id });
      await viewShows('networks', [name], `${containerName} under ${name}`, (rows) => rows.find((each) => each.label === containerName));
      await assert.rejects(
        async () => vscode.commands.executeCommand('berth.networks.remove', name, { confirmed: true }),
        (error: Error) => error.message.includes(`Network ${name} has endpoints: container ${containerName}`),
      );
      await vscode.commands.executeCommand('berth.networks.disconnect', { network: name, container: id });
      await viewShows('networks', [], `row of ${name} without containers`, (rows) => rows.find((each) => each.label === name && each.description?.endsWith('no containers')));
      await vscode.commands.executeCommand('berth.networks.remove', name, { confirmed: true });
      await viewShows('networks', [], `row of ${name} gone`, (rows) => (rows.some((each) => each.label === name) ? undefined : true));
    });

    it('Remove from a right-click on a row outside the selection removes that row alone; the selection stays', async () => {
      const [a, b, c] = ['a', 'b', 'c'].map((letter) => uniqueName(`it-net-${letter}`)) as [string, string, string];
      for (const name of [a, b, c]) {
        guard.watch({ network: name });
        await vscode.commands.executeCommand('berth.networks.create', { Name: name, Driver: 'bridge', Internal: true });
      }
      const row = (name: string): { kind: string; name: string } => ({ kind: 'network', name });
      const removed = await vscode.commands.executeCommand<string[]>('berth.networks.remove', row(c), [row(a), row(b)], { confirmed: true });
      assert.deepEqual(removed, [c]);
      const left = (await client.networks.list({})).map((network) => network.Name);
      assert.ok(left.includes(a) && left.includes(b) && !left.includes(c), left.join(', '));
      await vscode.commands.executeCommand('berth.networks.remove', [a, b], { confirmed: true });
      assert.deepEqual((await client.networks.list({})).map((network) => network.Name).filter((name) => [a, b].includes(name)), []);
    });
  });
});
