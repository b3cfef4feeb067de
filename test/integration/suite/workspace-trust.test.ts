// An engine named by the workspace's own settings (.vscode/settings.json of the test workspace) is held back until
// the user agrees: no request reaches it before, it is not made current, and a pull with credentials goes to the
// user's engine. The engine is an in-process fake on a Unix socket that only counts what reaches it (a real engine
// cannot report "nobody called me"), answering _ping and version in the Engine API's format once consent is given.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateBerth, berthLogText, engineClient, engineSummaries, eventually, modelState, suiteEngine, testEngines } from '../support/fixtures';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

describe('an engine from workspace settings waits for the user’s consent', function () {
  this.timeout(120_000);
  const engines = testEngines();
  const engine = suiteEngine(engines);
  const dir = mkdtempSync(join(tmpdir(), 'berth-it-fake-'));
  const fakeHost = `unix://${join(dir, 'workspace-engine.sock')}`;
  const seen: Seen[] = [];
  let server: Server;

  before(async () => {
    await activateBerth();
    await modelState('connected');
    server = createServer((request, response) => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
      const headers = { 'Content-Type': 'application/json', 'Api-Version': '1.41', Server: 'Docker/20.10.0 (linux)' };
      if (request.url?.endsWith('/_ping')) {
        response.writeHead(200, { ...headers, 'Content-Type': 'text/plain' }).end('OK');
      } else if (request.url?.endsWith('/version')) {
        response.writeHead(200, headers).end(JSON.stringify({ Version: '20.10.0', ApiVersion: '1.41', MinAPIVersion: '1.12', Os: 'linux', Arch: 'amd64' }));
      } else {
        response.writeHead(404, headers).end(JSON.stringify({ message: 'the fake workspace engine serves only _ping and version' }));
      }
    });
    await new Promise<void>((resolve) => server.listen(join(dir, 'workspace-engine.sock'), resolve));
  });

  after(async () => {
    await vscode.workspace.getConfiguration('berth').update('engine.host', undefined, vscode.ConfigurationTarget.Workspace);
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
    // Leave the extension on the suite's engine for whatever runs next.
    await eventually('the suite engine current again', async () =>
      (await engineSummaries()).find((summary) => summary.current)?.endpoint === engine.host ? true : undefined);
    await modelState('connected');
  });

  it('before consent: no request reaches it, it is not current, and a pull with credentials goes elsewhere', async () => {
    await vscode.workspace.getConfiguration('berth').update('engine.host', fakeHost, vscode.ConfigurationTarget.Workspace);
    const settingsFile = join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', '.vscode', 'settings.json');
    const waiting = await eventually('the log line naming the held-back engine and the file', async () => {
      const line = (await berthLogText()).split('\n').find((text) => text.includes('Waiting for consent') && text.includes(fakeHost));
      return line;
    });
    assert.ok(waiting.includes(settingsFile), waiting);
    const summaries = await engineSummaries();
    assert.equal(summaries.find((summary) => summary.current)?.endpoint, engine.host);
    assert.deepEqual(summaries.filter((summary) => summary.endpoint === fakeHost), []);

    // A pull that signs in and sends credentials: it must reach the user's engine, never the workspace's.
    const registry = engines.registry.address;
    const reference = `${registry}/berth/busybox:1.0`;
    const client = engineClient(engine.host);
    try {
      await client.images.remove(reference).catch(() => undefined);
      const result = await vscode.commands.executeCommand<{ reference: string } | undefined>('berth.registries.pull', reference, {
        signInWith: { username: engines.registry.username, password: engines.registry.password },
      });
      assert.ok(result, 'the pull succeeded on the suite engine');
      assert.ok((await client.images.inspect(reference)).Id);
    } finally {
      await client.close();
    }
    assert.deepEqual(seen.map((request) => `${request.method} ${request.url}`), [], 'requests reached the workspace engine');
  });

  it('after consent: Berth connects to it, and no request to it ever carried registry credentials', async () => {
    assert.equal(seen.length, 0);
    const answer = await vscode.commands.executeCommand<string>('berth.internal.workspaceEngineConsent', { host: fakeHost, answer: 'allowed' });
    assert.equal(answer, 'allowed');
    await eventually('a request at the workspace engine', () => (seen.some((request) => request.url.endsWith('/_ping')) ? true : undefined));
    await eventually('the workspace engine current', async () =>
      (await engineSummaries()).find((summary) => summary.current)?.endpoint === fakeHost ? true : undefined);
    assert.deepEqual(seen.filter((request) => 'x-registry-auth' in request.headers || 'x-registry-config' in request.headers), []);
  });
});
