// Ports in the browser, in the real extension host, on the private dockerd and on Podman. The test engines run
// without a bridge (--bridge=none) and every test container has NetworkMode none, so no port can be forwarded: the
// containers are CREATED with port bindings and never started, and what is tested is what Berth computes from the
// engine's own answer (HostConfig.PortBindings, shown as "not yet published"), the URI Open in Browser hands to
// vscode.env.openExternal (its result) and what Copy Address puts on the clipboard. Running containers' ports come
// from the listing's `Ports`: that part is unit-tested (test/unit/model/ports.test.ts).
// Docker keeps the bindings of a container without a network; Podman drops them, so on Podman the same container
// shows no Ports row and Open in Browser refuses with its reason (checked, not skipped).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { rowPattern } from '../../engine/engine/bad-input-workbench-cases';
import { suiteEngine, useConnectedSuite, viewRows, viewShows } from '../support/fixtures';

interface PortAddress {
  container: string;
  port: string;
  address: string;
  external: string;
  opened?: boolean;
}

/** The address as the browser gets it: as is, or forwarded by the host (code-server proxies a local port under /proxy/PORT). */
function sameOrForwarded(result: PortAddress, port: number): void {
  assert.ok(result.external === result.address || result.external.includes(`/proxy/${port}`), `${result.external} is not ${result.address} or its forwarded form`);
}

describe('ports in the browser', () => {
  const { client, containers } = useConnectedSuite();
  const bindings = {
    '80/tcp': [{ HostIp: '', HostPort: '18181' }],
    '8443/tcp': [{ HostIp: '127.0.0.1', HostPort: '18182' }],
    '53/udp': [{ HostIp: '', HostPort: '18153' }],
  };
  let made = { id: '', name: '' };
  let kept: Record<string, unknown> = {};

  before(async () => {
    made = await containers.create({ cmd: ['sleep', '60'], start: false, portBindings: bindings });
    kept = ((await client.inspectContainer(made.id)).HostConfig['PortBindings'] as Record<string, unknown> | null) ?? {};
  });

  it('the engine keeps the bindings of a created container (dockerd) or drops them without a network (Podman)', () => {
    if (suiteEngine().kind === 'docker') assert.deepEqual(kept, bindings);
    else assert.deepEqual(kept, {}, 'Podman kept port bindings on a container without a network: the Podman cases below need a rewrite');
  });

  it('the container row: its Ports row lists each binding as not yet published, its tooltip names them, its context offers Copy Address', async () => {
    // Expanding the row reads the bindings of a container that is not running (one inspect); the row is then drawn again.
    const under = await viewShows('containers', [made.name], `rows under ${made.name}`, (rows) => (rows.length > 0 ? rows : undefined));
    const row = await viewShows('containers', [], `row of ${made.name} with its ports read`, (rows) =>
      rows.find((each) => each.label === made.name && (Object.keys(kept).length === 0 || each.contextValue?.endsWith(':ports'))));
    if (Object.keys(kept).length === 0) {
      assert.equal(row.contextValue, 'berth:container:created', 'no ports, no :ports');
      assert.deepEqual(under.map((each) => each.label), ['Files', 'Changes']);
      return;
    }
    assert.equal(row.contextValue, 'berth:container:created:ports');
    assert.match(row.tooltip ?? '', /Ports \(published when it starts\): .*0\\\.0\\\.0\\\.0:18181 → 80\/tcp/);
    assert.deepEqual(under.map((each) => [each.label, each.contextValue]), [['Ports', 'berth:ports'], ['Files', 'berth:files:folder'], ['Changes', 'berth:changes']]);
    const ports = await viewRows('containers', [made.name, 'Ports']);
    // Rows below a container carry no id (src/files/rows.ts says why): an id there let a listing that overlapped a
    // redraw of the container's row leave VS Code refusing every later one.
    assert.deepEqual([...under, ...ports].map((each) => each.id), [undefined, undefined, undefined, undefined, undefined, undefined]);
    assert.deepEqual(ports.map((each) => [each.label, each.description, each.contextValue]), [
      ['0.0.0.0:18153 → 53/udp', 'UDP: no address to open in a browser', 'berth:port:other'],
      ['0.0.0.0:18181 → 80/tcp', 'http://localhost:18181 · not yet published', 'berth:port:unpublished'],
      ['127.0.0.1:18182 → 8443/tcp', 'http://localhost:18182 · not yet published', 'berth:port:unpublished'],
    ]);
  });

  it('Open in Browser hands http://localhost:PORT (through asExternalUri) to the browser; Copy Address copies it', async () => {
    const open = async (): Promise<PortAddress | undefined> => vscode.commands.executeCommand<PortAddress | undefined>('berth.ports.openInBrowser', made.id, { port: 18181 });
    if (Object.keys(kept).length === 0) {
      await assert.rejects(open, (error: Error) => {
        assert.match(error.message, rowPattern('ports-none'));
        assert.ok(error.message.startsWith(`${made.name} publishes no port`), error.message);
        return true;
      });
      return;
    }
    const opened = await open();
    assert.ok(opened, 'Open in Browser returned nothing');
    assert.equal(opened.address, 'http://localhost:18181');
    assert.equal(opened.port, '0.0.0.0:18181 → 80/tcp');
    assert.equal(opened.opened, true, 'the workbench opened the URI');
    sameOrForwarded(opened, 18181);
    await vscode.env.clipboard.writeText('');
    const copied = await vscode.commands.executeCommand<PortAddress | undefined>('berth.ports.copyAddress', made.id, { port: 8443 });
    assert.equal(copied?.address, 'http://localhost:18182', 'a binding to 127.0.0.1 is reached as localhost');
    sameOrForwarded(copied, 18182);
    assert.equal(await vscode.env.clipboard.readText(), copied.external);
  });

  it('with several ports a pick chooses one (Enter takes the first, port 80)', async () => {
    if (Object.keys(kept).length === 0) {
      // Podman dropped the ports: Copy Address refuses too, with the same reason (no pick to answer).
      await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.ports.copyAddress', made.id)), rowPattern('ports-none'));
      return;
    }
    await vscode.env.clipboard.writeText('');
    let settled = false;
    const copying = Promise.resolve(vscode.commands.executeCommand<PortAddress | undefined>('berth.ports.copyAddress', made.id)).finally(() => (settled = true));
    const end = Date.now() + 20_000;
    while (!settled && Date.now() < end) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const copied = await copying;
    assert.equal(copied?.address, 'http://localhost:18181');
    assert.equal(await vscode.env.clipboard.readText(), copied.external);
  });

  it('a running container on network none: its Ports row and Open in Browser say that network none drops its ports', async () => {
    const offline = await containers.create({ cmd: ['sleep', '60'], portBindings: { '80/tcp': [{ HostIp: '', HostPort: '18381' }] } });
    const docker = suiteEngine().kind === 'docker';
    const refusal = docker ? 'ports-network-none' : 'ports-none'; // Podman dropped the bindings.
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.ports.openInBrowser', offline.id)), rowPattern(refusal));
    if (!docker) return;
    const ports = await viewShows('containers', [offline.name], `the Ports row of ${offline.name}`, (rows) => rows.find((each) => each.label === 'Ports'));
    assert.equal(ports.description, '1 · dropped by network none');
  });

  it('a container whose ports have no browser address (UDP, a random host port not yet picked) is refused with the reason', async () => {
    const other = await containers.create({
      cmd: ['sleep', '60'],
      start: false,
      portBindings: { '53/udp': [{ HostIp: '', HostPort: '18353' }], '3000/tcp': [{ HostIp: '', HostPort: '' }] },
    });
    const kinds = suiteEngine().kind === 'docker' ? 'ports-no-address' : 'ports-none'; // Podman dropped the bindings.
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.ports.openInBrowser', other.id)), (error: Error) => {
      assert.match(error.message, rowPattern(kinds));
      if (kinds === 'ports-no-address') assert.match(error.message, /0\.0\.0\.0:18353 → 53\/udp: UDP: no address.*0\.0\.0\.0:\(random\) → 3000\/tcp: the engine picks a random host port/);
      return true;
    });
  });
});
