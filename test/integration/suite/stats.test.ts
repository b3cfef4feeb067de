// Live stats in the Containers view, as VS Code renders the rows, with every byte between the extension and the
// engine going through a counting proxy: stats streams are open while the view shows running rows, and all of them
// close once the view is hidden (then no stats request at all), and open again when it shows. A container stopped
// while its stream is open shows its state, with no figures and no error.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { unixSocketPath } from '../../support/engines';
import { eventually, modelState, setBerthSetting, sleep, useConnectedSuite, viewShows, type TreeRow } from '../support/fixtures';

/** `12% · 143 MiB` or `0.5% · 312 KiB` at the end of a running row's description. */
const FIGURES = / · \d+(?:\.\d)?% · \d+(?:\.\d+)? (?:B|KiB|MiB|GiB)$/;

/** A Unix-socket proxy to the engine that knows which of its connections carry a stats stream right now. */
class CountingProxy {
  readonly dir = mkdtempSync(join(tmpdir(), 'berth-stats-proxy-'));
  readonly socketPath = join(this.dir, 'proxy.sock');
  private readonly statsConnections = new Set<Socket>();
  private readonly sockets = new Set<Socket>();
  statsRequests = 0;
  private readonly server: Server;

  constructor(target: string) {
    this.server = createServer((client) => {
      const upstream = connect(target);
      this.sockets.add(client).add(upstream);
      client.on('data', (chunk: Buffer) => {
        // Each request on a connection starts a chunk with its request line; a stats stream keeps its connection.
        const line = chunk.subarray(0, 200).toString('latin1');
        if (!/^[A-Z]+ /.test(line)) return;
        if (/^GET \S*\/containers\/[^/]+\/stats\?/.test(line)) {
          this.statsRequests++;
          this.statsConnections.add(client);
        } else this.statsConnections.delete(client);
      });
      const close = (): void => {
        this.statsConnections.delete(client);
        client.destroy();
        upstream.destroy();
      };
      client.on('close', close).on('error', close);
      upstream.on('close', close).on('error', close);
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  get host(): string {
    return `unix://${this.socketPath}`;
  }

  get openStats(): number {
    return this.statsConnections.size;
  }

  listen(): Promise<void> {
    return new Promise((resolve) => this.server.listen(this.socketPath, resolve));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe('live stats in the Containers view', () => {
  let proxy: CountingProxy;
  const { engine, containers } = useConnectedSuite(async () => {
    await vscode.commands.executeCommand('workbench.view.explorer');
    await setBerthSetting('engine.host', undefined);
    await modelState('connected');
    await proxy.close();
  });

  before(async () => {
    proxy = new CountingProxy(unixSocketPath(engine.host));
    await proxy.listen();
    await setBerthSetting('engine.host', proxy.host);
    await eventually('Berth to connect through the proxy', async () => {
      const state = await modelState('connected');
      return state.endpoint === proxy.host ? state : undefined;
    });
  });

  const rowOf = (rows: TreeRow[], name: string): TreeRow | undefined => rows.find((row) => row.label === name);

  it('streams for the rows on screen while the view is visible, none at all while it is hidden', async function () {
    this.timeout(180_000);
    const burner = await containers.create({ cmd: ['sh', '-c', 'dd if=/dev/zero of=/dev/shm/fill bs=1M count=16; while :; do :; done'] });
    await vscode.commands.executeCommand('berth.containers.focus');
    const row = await viewShows('containers', [], 'the running row with CPU and memory figures', (rows) => {
      const found = rowOf(rows, burner.name);
      return found && FIGURES.test(found.description ?? '') ? found : undefined;
    }, 60_000);
    assert.ok(row.tooltip?.includes('Memory: '), row.tooltip);
    assert.ok(row.tooltip?.includes('Block I/O: '), row.tooltip);
    assert.ok(proxy.openStats >= 1, 'a stats stream is open through the proxy');

    await vscode.commands.executeCommand('workbench.view.explorer');
    await eventually('every stats stream to close once the view is hidden', () => (proxy.openStats === 0 ? true : undefined), 10_000);
    const requestsWhenHidden = proxy.statsRequests;
    await sleep(3_000);
    assert.equal(proxy.statsRequests, requestsWhenHidden, 'no stats request while the view is hidden');
    assert.equal(proxy.openStats, 0);

    await vscode.commands.executeCommand('berth.containers.focus');
    await eventually('the stream to open again when the view shows', () => (proxy.openStats >= 1 ? true : undefined), 30_000);
  });

  it('a container stopped while its stream is open shows its state, with no figures and no error', async function () {
    this.timeout(120_000);
    const sleeper = await containers.create({ cmd: ['sleep', '600'] });
    await vscode.commands.executeCommand('berth.containers.focus');
    await viewShows('containers', [], 'figures on the running row', (rows) => (FIGURES.test(rowOf(rows, sleeper.name)?.description ?? '') ? true : undefined), 60_000);
    await containers.client.containers.stop(sleeper.id, { timeoutSeconds: 0 });
    const stopped = await viewShows('containers', [], 'the stopped row', (rows) => {
      const found = rowOf(rows, sleeper.name);
      return found?.contextValue === 'berth:container:exited' ? found : undefined;
    }, 60_000);
    assert.doesNotMatch(stopped.description ?? '', /%|n\/a|NaN|rror/);
    assert.ok(!(stopped.tooltip ?? '').includes('CPU: '), stopped.tooltip);
    await vscode.commands.executeCommand('workbench.view.explorer');
  });
});
