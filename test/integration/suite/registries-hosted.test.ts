// Docker Hub and GHCR rows of the Registries view in the real extension host, browsing through those services' own
// APIs, which are replayed by a loopback server (test/fixtures/hosted-apis) since neither can be reached from here:
// sign-in checked the services' way, repositories and tags, each refusal in the service's words with "Type a
// Repository…" in place of the listing, and no token or password in the log.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { failureOf, registryRows, type ChildSummary } from '../support/registriesView';
import { GITHUB_TOKENS, HUB_USER, startHostedApi, type HostedApiServer } from '../../support/hostedApis';

const children = (path: string[] = []): Promise<ChildSummary[]> => registryRows(path, true);

function signIn(registry: string, username: string, password: string): Thenable<unknown> {
  return vscode.commands.executeCommand('berth.registries.signIn', { registry, username, password });
}

describe('Docker Hub and GHCR in the Registries view (replayed APIs)', () => {
  let hub: HostedApiServer;
  let github: HostedApiServer;
  const saved = { hub: process.env.BERTH_DOCKER_HUB_API, github: process.env.BERTH_GITHUB_API };

  before(async () => {
    hub = await startHostedApi('docker-hub');
    github = await startHostedApi('github');
    // The extension host is this process: the extension reads these at each listing, and takes only loopback ones.
    process.env.BERTH_DOCKER_HUB_API = hub.origin;
    process.env.BERTH_GITHUB_API = github.origin;
    await vscode.extensions.getExtension('berth.berth')?.activate();
  });

  after(async () => {
    for (const registry of ['docker.io', 'ghcr.io']) await vscode.commands.executeCommand('berth.registries.signOut', registry);
    for (const [registry, repository] of [['docker.io', 'busybox'], ['ghcr.io', 'berth-tester/berth-app']] as const) {
      await vscode.commands.executeCommand('berth.registries.forgetRepository', { kind: 'repository', registry, repository, typed: true });
    }
    if (saved.hub === undefined) delete process.env.BERTH_DOCKER_HUB_API;
    else process.env.BERTH_DOCKER_HUB_API = saved.hub;
    if (saved.github === undefined) delete process.env.BERTH_GITHUB_API;
    else process.env.BERTH_GITHUB_API = saved.github;
    await hub?.close();
    await github?.close();
  });

  it('Docker Hub: a wrong password is refused at sign-in in Hub\'s words, and nothing is stored', async () => {
    const message = await failureOf('berth.registries.signIn', { registry: 'docker.io', username: HUB_USER.username, password: 'Wrong-Hub-Pa55' });
    assert.match(message, /Docker Hub refused the sign-in \(401\): Incorrect authentication credentials/);
    assert.ok(!(await children()).some((child) => child.label === 'docker.io' && /signed in/.test(child.description ?? '')));
  });

  it('Docker Hub: signed in, the row lists the namespace\'s repositories over two pages, and a repository its tags', async () => {
    await signIn('docker.io', HUB_USER.username, HUB_USER.password);
    const repositories = await children(['docker.io']);
    assert.deepEqual(repositories.map((child) => child.label), ['berthtester/api-gateway', 'berthtester/web', 'berthtester/worker']);
    assert.ok(repositories.every((child) => child.contextValue === 'berth:registry:repository'));
    const tags = await children(['docker.io', 'berthtester/web']);
    assert.deepEqual(tags.map((child) => child.label), ['latest', '1.10.0', '1.9.2']);
    const reference = await vscode.commands.executeCommand<string>('berth.registries.copyReference', tags[1]?.node);
    assert.equal(reference, 'docker.io/berthtester/web:1.10.0');
  });

  it('Docker Hub: 429 shows Hub\'s words and when to retry, with Type a Repository… in place of the list', async () => {
    await signIn('docker.io', 'berthlimited', 'limited-Pa55');
    const rows = await children(['docker.io']);
    const notice = rows.find((child) => child.contextValue === 'berth:registry:error');
    assert.ok(notice, `a notice row in ${rows.map((child) => child.label).join(', ')}`);
    assert.match(notice.tooltip ?? '', /Docker Hub is limiting requests \(429\): Request was throttled\. Expected available in 60 seconds\. Refresh the Registries view in 60 s/);
    const typeRow = rows.find((child) => child.contextValue === 'berth:registry:type');
    assert.equal(typeRow?.label, 'Type a Repository…');
    const bad = await failureOf('berth.registries.typeRepository', typeRow.node, { repository: 'Busybox:latest' });
    assert.match(bad, /is not a repository name/);
    await vscode.commands.executeCommand('berth.registries.typeRepository', typeRow.node, { repository: 'busybox' });
    const typed = (await children(['docker.io'])).find((child) => child.label === 'busybox');
    assert.equal(typed?.contextValue, 'berth:registry:repository:typed');
    assert.deepEqual((await children(['docker.io', 'busybox'])).map((child) => child.label), ['latest', '1.37']);
  });

  it('GHCR: a token without read:packages signs in, and the row says which scope to add', async () => {
    await signIn('ghcr.io', 'Berth-Tester', GITHUB_TOKENS.repoScopeOnly);
    const rows = await children(['ghcr.io']);
    const notice = rows.find((child) => child.contextValue === 'berth:registry:error');
    assert.match(notice?.tooltip ?? '', /GitHub denied the package listing \(403\): You need at least read:packages scope to list packages\. The token lacks the read:packages scope \(it has: repo\)/);
    const typeRow = rows.find((child) => child.contextValue === 'berth:registry:type');
    assert.ok(typeRow, 'Type a Repository… takes the listing\'s place');
    await vscode.commands.executeCommand('berth.registries.typeRepository', typeRow.node, { repository: 'berth-tester/berth-app' });
    const tags = await children(['ghcr.io', 'berth-tester/berth-app']);
    assert.match(tags[0]?.tooltip ?? '', /read:packages/, 'the typed repository\'s tags are refused the same way');
  });

  it('GHCR: with read:packages, the user\'s packages over Link pages (the typed one once) and a package\'s tags', async () => {
    await signIn('ghcr.io', 'Berth-Tester', GITHUB_TOKENS.readPackages);
    const rows = await children(['ghcr.io']);
    assert.deepEqual(rows.map((child) => child.label), ['berth-tester/berth-app', 'berth-tester/docs-site', 'berth-tester/tools/lint']);
    const tags = await children(['ghcr.io', 'berth-tester/berth-app']);
    assert.deepEqual(tags.map((child) => child.label), ['stable', 'latest', '2.0.1', '2.0.0']);
  });

  it('no Hub password or GitHub token reaches the log, and none went anywhere but the replayed APIs', async () => {
    const log = await readFile(await vscode.commands.executeCommand<string>('berth.internal.logFile'), 'utf8');
    for (const secret of [HUB_USER.password, 'limited-Pa55', 'Wrong-Hub-Pa55', ...Object.values(GITHUB_TOKENS)]) assert.ok(!log.includes(secret), 'a secret is in the Berth log');
    assert.ok(hub.requests.some((request) => request.path === '/v2/users/login'));
    assert.ok(github.requests.some((request) => request.authorization === `Bearer ${GITHUB_TOKENS.readPackages}`));
    for (const request of [...hub.requests, ...github.requests]) assert.ok(!Object.values(GITHUB_TOKENS).some((token) => request.path.includes(token)), 'a token in a URL');
  });
});
