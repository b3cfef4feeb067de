// Networks that are created, connected, disconnected and removed: only on the private Podman, whose `network create`
// writes a file and nothing more, through the network guard (test/support/networkGuard.ts: internal networks only,
// containers created and never started, no new host interface). On dockerd only the predefined networks are used
// (volumes-api.test.ts). Podman must be there: a missing Podman fails this file rather than skipping its cases.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { removeNetworkNamingEndpoints } from '../../../src/engine';
import { NetworkStore } from '../../../src/networks/store';
import { attachmentsOf, presentNetwork, subnetsOf } from '../../../src/networks/presentation';
import { failureOf } from '../../support/assertions';
import { useEngineSuite, useNetworkGuard } from '../../support/engineSuite';
import { loadTestEngines, startCommand } from '../../support/engines';
import { expectedMessage } from '../engine/bad-input-cases';
import { until } from '../../support/wait';

const engines = loadTestEngines();
const podmanHost = engines.podmanHost;

void describe('networks on the private Podman', () => {
  assert.ok(podmanHost, `the private Podman is not in engines.json; these cases need it. Run: ${startCommand}`);
  const suite = useEngineSuite({ host: podmanHost, name: 'networks-podman' });
  const guard = useNetworkGuard(suite);

  void it('creates an internal network with a subnet; the list and the row show driver, internal and subnet', async () => {
    const name = await guard.createNetwork({ IPAM: { Config: [{ Subnet: '10.251.17.0/24' }] } });
    const listed = (await suite.client.networks.list()).find((network) => network.Name === name);
    assert.ok(listed, `${name} is listed`);
    const inspected = await suite.client.networks.inspect(name);
    assert.equal(inspected.Internal, true);
    const row = presentNetwork(inspected);
    assert.equal(row.label, name);
    assert.equal(row.description, 'bridge · local · internal · 10.251.17.0/24 · no containers');
    assert.equal(row.contextValue, 'berth:network');
  });

  void it('connects a created container, refuses removal naming it, disconnects it, then removes the network', async () => {
    const home = await guard.createNetwork();
    const other = await guard.createNetwork();
    const id = await guard.createIdleContainer(home);
    const { Name } = await suite.client.containers.inspect(id);
    const containerName = Name.replace(/^\//, '');
    await suite.client.networks.connect(other, id);
    const attached = attachmentsOf(await suite.client.networks.inspect(other));
    assert.deepEqual(attached.map((attachment) => attachment.id), [id]);
    const withContainer = await suite.client.networks.inspect(other);
    // Podman gives each new network a free subnet of its own (10.89.x.0/24).
    assert.equal(presentNetwork(withContainer).description, `bridge · local · internal · ${subnetsOf(withContainer).join(', ')} · 1 container`);
    assert.equal(subnetsOf(withContainer).length, 1);

    const refused = await failureOf(removeNetworkNamingEndpoints(suite.client, other));
    assert.equal(refused.kind, 'conflict');
    assert.equal(refused.message, expectedMessage('network-endpoints', { network: other, container: containerName }));

    await suite.client.networks.disconnect(other, id);
    assert.deepEqual(attachmentsOf(await suite.client.networks.inspect(other)), []);
    await suite.client.networks.remove(other);
    const gone = await failureOf(suite.client.networks.inspect(other));
    assert.equal(gone.kind, 'not-found');
  });

  void it("the view's store follows: a connect and a disconnect reach the attached containers without a manual refresh", async () => {
    const home = await guard.createNetwork();
    const other = await guard.createNetwork();
    const id = await guard.createIdleContainer(home);
    const store = new NetworkStore(
      {
        listNetworks: (options) => suite.client.networks.list(options),
        inspectNetwork: (name, options) => suite.client.networks.inspect(name, options),
        events: (options) => suite.client.system.events(options),
      },
      () => undefined,
    );
    try {
      store.start();
      const attachedTo = (name: string): string[] => {
        const network = store.networks().find((each) => each.Name === name);
        return network ? attachmentsOf(network).map((attachment) => attachment.id) : ['(not listed)'];
      };
      await until('the store lists the new network', () => attachedTo(other).length === 0, { timeoutMs: 10_000, intervalMs: 100 });
      await suite.client.networks.connect(other, id);
      await until('the connect event shows the container under the network', () => attachedTo(other).join() === id, { timeoutMs: 10_000, intervalMs: 100 });
      await suite.client.networks.disconnect(other, id);
      await until('the disconnect event removes it again', () => attachedTo(other).length === 0, { timeoutMs: 10_000, intervalMs: 100 });
    } finally {
      store.dispose();
    }
  });
});
