// Forward Port… in the real extension host, on the private dockerd and on Podman: a busybox httpd in a container on
// network none answers on 127.0.0.1 through the forward; the container's "Forwarded" row lists the forward with
// Open in Browser, Copy Address and Stop; Stop and the container's own stop end it (and the row goes).
import * as assert from 'node:assert/strict';
import { get } from 'node:http';
import * as vscode from 'vscode';
import { expectedMessage } from '../../engine/engine/bad-input-cases';
import { eventually, execOutput, useConnectedSuite, viewRows, viewShows } from '../support/fixtures';

interface ForwardSummary {
  container: string;
  containerPort: number;
  localPort: number;
  address: string;
  throughHelper: boolean;
  opened?: boolean;
  copied?: string;
}

const SERVE = 'mkdir -p /www && echo forwarded-hello > /www/index.html && touch /tmp/ready && exec httpd -f -p 127.0.0.1:8080 -h /www';

/** GET http://127.0.0.1:PORT/ through the forward: the body, or the error's code (ECONNREFUSED once it is gone). */
function fetchBody(port: number): Promise<string> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolve(body));
      response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('port forwards', () => {
  const { client, containers } = useConnectedSuite();

  const serving = async (): Promise<{ id: string; name: string }> => {
    const made = await containers.create({ cmd: ['sh', '-c', SERVE] });
    await eventually('httpd to start', async () => ((await execOutput(client, made.id, ['ls', '/tmp'])).includes('ready') ? true : undefined), 30_000);
    return made;
  };

  it('Forward Port… carries HTTP to a network-none container; its Forwarded row offers Open, Copy and Stop; Stop ends it', async () => {
    const made = await serving();
    const summary = await vscode.commands.executeCommand<ForwardSummary | undefined>('berth.forwardPort', made.id, { port: ':8080' });
    assert.ok(summary, 'Forward Port… returned nothing');
    assert.deepEqual([summary.container, summary.containerPort, summary.throughHelper], [made.name, 8080, false]);
    assert.equal(summary.address, `127.0.0.1:${summary.localPort}`);
    assert.equal(await fetchBody(summary.localPort), 'forwarded-hello\n');

    const group = await viewShows('containers', [made.name], `the Forwarded row of ${made.name}`, (rows) => rows.find((row) => row.label === 'Forwarded'));
    assert.deepEqual([group.description, group.contextValue], ['1', 'berth:forwards']);
    const rows = await viewRows('containers', [made.name, 'Forwarded']);
    assert.deepEqual(rows.map((row) => [row.label, row.contextValue]), [[`127.0.0.1:${summary.localPort} → 8080`, 'berth:forward']]);

    await vscode.env.clipboard.writeText('');
    const copied = await vscode.commands.executeCommand<ForwardSummary | undefined>('berth.forward.copyAddress');
    assert.ok(copied?.copied, 'Copy Address returned nothing');
    assert.ok(copied.copied === `http://${summary.address}` || copied.copied.includes(`/proxy/${summary.localPort}`), copied.copied);
    assert.equal(await vscode.env.clipboard.readText(), copied.copied);
    const opened = await vscode.commands.executeCommand<ForwardSummary | undefined>('berth.forward.openInBrowser');
    assert.equal(opened?.opened, true, 'the workbench opened the address');

    const stopped = await vscode.commands.executeCommand<ForwardSummary | undefined>('berth.forward.stop');
    assert.equal(stopped?.localPort, summary.localPort);
    assert.equal(await fetchBody(summary.localPort), 'ECONNREFUSED');
    await viewShows('containers', [made.name], 'the Forwarded row to go', (under) => (under.some((row) => row.label === 'Forwarded') ? undefined : under));
  });

  it('the forward ends when its container stops, and its row goes', async () => {
    const made = await serving();
    const summary = await vscode.commands.executeCommand<ForwardSummary | undefined>('berth.forwardPort', made.id, { port: '0:8080' });
    assert.ok(summary);
    await viewShows('containers', [made.name], `the Forwarded row of ${made.name}`, (rows) => rows.find((row) => row.label === 'Forwarded'));
    await client.containers.stop(made.id, { timeoutSeconds: 0 });
    await eventually('the forward to stop listening', async () => ((await fetchBody(summary.localPort)) === 'ECONNREFUSED' ? true : undefined), 30_000);
    await viewShows('containers', [made.name], 'the Forwarded row to go', (under) => (under.some((row) => row.label === 'Forwarded') ? undefined : under));
  });

  it('refuses a port outside 1–65535 with the bad-input row', async () => {
    const made = await serving();
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.forwardPort', made.id, { port: '70000' })), (error: Error) => {
      assert.equal(error.message, expectedMessage('forward-port-range'));
      return true;
    });
  });
});
