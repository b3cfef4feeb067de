// Docker Hub's and GHCR's listings through their own APIs, against a loopback server replaying those APIs' answers
// (test/fixtures/hosted-apis): paging, sign-in, and each refusal with the service's own words and what to do next.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiBaseFor, DockerHubCatalog, GhcrCatalog, hostedCatalogFor, retryWhen, DOCKER_HUB_API, GITHUB_API } from '../../../../src/engine/registry';
import { RegistryError } from '../../../../src/engine/registry';
import { repositoryNameProblem } from '../../../../src/registries/typedRepositories';
import { badInputCase, expectedMessage } from '../../../engine/engine/bad-input-cases';
import { GITHUB_TOKENS, HUB_TWO_FACTOR_USER, HUB_USER, startHostedApi, type HostedApiServer } from '../../../support/hostedApis';

async function refusal(work: () => Promise<unknown>): Promise<RegistryError> {
  try {
    await work();
  } catch (error) {
    assert.ok(error instanceof RegistryError, `a RegistryError (a refusal), not a crash: ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

describe('Docker Hub through hub.docker.com/v2 (replayed)', () => {
  let hub: HostedApiServer;
  before(async () => {
    hub = await startHostedApi('docker-hub');
  });
  after(() => hub.close());

  it('signs in, then lists the namespace over both pages and a repository\'s tags', async () => {
    const catalog = new DockerHubCatalog({ auth: HUB_USER, apiBase: hub.origin });
    try {
      assert.deepEqual(await catalog.repositories(), ['berthtester/web', 'berthtester/worker', 'berthtester/api-gateway']);
      assert.deepEqual(await catalog.tags('berthtester/web'), ['latest', '1.10.0', '1.9.2']);
    } finally {
      await catalog.close();
    }
    const logins = hub.requests.filter((request) => request.path === '/v2/users/login');
    assert.equal(logins.length, 1, 'one sign-in serves every listing');
    assert.deepEqual(JSON.parse(logins[0]!.body), HUB_USER);
    assert.ok(hub.requests.filter((request) => request.path.startsWith('/v2/repositories/')).every((request) => request.authorization?.startsWith('Bearer ')));
    assert.ok(!hub.requests.some((request) => request.path.includes(HUB_USER.password)), 'the password never goes into a URL');
  });

  it('the limit stops the paging', async () => {
    const catalog = new DockerHubCatalog({ auth: HUB_USER, apiBase: hub.origin });
    const before = hub.requests.length;
    assert.deepEqual(await catalog.repositories({ limit: 2 }), ['berthtester/web', 'berthtester/worker']);
    assert.equal(hub.requests.slice(before).filter((request) => request.path.includes('page=2')).length, 0);
    await catalog.close();
  });

  it('a bare name is an official image (library/…), listed without signing in', async () => {
    const catalog = new DockerHubCatalog({ apiBase: hub.origin });
    assert.deepEqual(await catalog.tags('busybox'), ['latest', '1.37']);
    await catalog.close();
  });

  it('a refused sign-in says so in Hub\'s words, without the password', async () => {
    const catalog = new DockerHubCatalog({ auth: { username: HUB_USER.username, password: 'wrong-Secret-1' }, apiBase: hub.origin });
    const error = await refusal(() => catalog.repositories());
    await catalog.close();
    assert.equal(error.kind, badInputCase('hub-login-refused').errorKind);
    assert.equal(error.message, expectedMessage('hub-login-refused'));
    assert.doesNotMatch(`${error.message} ${error.hint ?? ''}`, /wrong-Secret-1/);
  });

  it('an account with two-factor authentication is told to use an access token', async () => {
    const catalog = new DockerHubCatalog({ auth: { username: HUB_TWO_FACTOR_USER, password: 'Any-Pa55' }, apiBase: hub.origin });
    const error = await refusal(() => catalog.verify());
    await catalog.close();
    assert.equal(error.message, expectedMessage('hub-two-factor'));
  });

  it('429: Hub\'s words and when to try again', async () => {
    const catalog = new DockerHubCatalog({ auth: { username: 'berthlimited', password: 'limited-Pa55' }, apiBase: hub.origin });
    const error = await refusal(() => catalog.repositories());
    await catalog.close();
    assert.equal(error.status, 429);
    assert.equal(error.kind, badInputCase('hub-rate-limited').errorKind);
    assert.equal(error.message, expectedMessage('hub-rate-limited'));
  });

  it('without a sign-in, listing the namespace is refused before any request', async () => {
    const catalog = new DockerHubCatalog({ apiBase: hub.origin });
    const before = hub.requests.length;
    const error = await refusal(() => catalog.repositories());
    await catalog.close();
    assert.equal(error.message, expectedMessage('hub-not-signed-in'));
    assert.equal(hub.requests.length, before);
  });

  it('a repository that is gone: 404 with Hub\'s words', async () => {
    const catalog = new DockerHubCatalog({ auth: HUB_USER, apiBase: hub.origin });
    const error = await refusal(() => catalog.tags('berthtester/gone'));
    await catalog.close();
    assert.equal(error.kind, 'not-found');
    assert.match(error.message, /Docker Hub has no berthtester\/gone \(404\): object not found/);
  });
});

describe('GHCR through GitHub\'s packages API (replayed)', () => {
  let github: HostedApiServer;
  before(async () => {
    github = await startHostedApi('github');
  });
  after(() => github.close());

  it('lists the user\'s container packages over Link pages, and a package\'s tags (untagged versions skipped)', async () => {
    const catalog = new GhcrCatalog({ auth: { username: 'Berth-Tester', password: GITHUB_TOKENS.readPackages }, apiBase: github.origin });
    try {
      await catalog.verify();
      assert.deepEqual(await catalog.repositories(), ['berth-tester/berth-app', 'berth-tester/tools/lint', 'berth-tester/docs-site']);
      assert.deepEqual(await catalog.tags('berth-tester/berth-app'), ['latest', '2.0.1', '2.0.0', 'stable']);
      assert.deepEqual(await catalog.tags('berth-tester/tools/lint'), ['v3']);
    } finally {
      await catalog.close();
    }
    assert.ok(github.requests.every((request) => request.authorization === `Bearer ${GITHUB_TOKENS.readPackages}`));
    assert.ok(github.requests.some((request) => request.path === '/user/packages/container/tools%2Flint/versions?per_page=100'), 'a package name with a slash is one path segment');
  });

  it('a token without read:packages: GitHub\'s words and the scope to add', async () => {
    const catalog = new GhcrCatalog({ auth: { username: 'Berth-Tester', password: GITHUB_TOKENS.repoScopeOnly }, apiBase: github.origin });
    await catalog.verify();
    const error = await refusal(() => catalog.repositories());
    await catalog.close();
    assert.equal(error.kind, badInputCase('ghcr-no-read-packages').errorKind);
    assert.equal(error.message, expectedMessage('ghcr-no-read-packages'));
    assert.doesNotMatch(`${error.message} ${error.hint ?? ''}`, new RegExp(GITHUB_TOKENS.repoScopeOnly));
  });

  it('a used-up rate limit: GitHub\'s words and when it resets', async () => {
    const catalog = new GhcrCatalog({ auth: { username: 'Berth-Tester', password: GITHUB_TOKENS.rateLimited }, apiBase: github.origin });
    const error = await refusal(() => catalog.repositories());
    await catalog.close();
    const pattern = badInputCase('ghcr-rate-limited').message.split(/<[^>]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+');
    assert.match(error.message, new RegExp(`^${pattern}$`));
    // The recording's reset is an hour after it was recorded, so it is an hour after this request whatever today is.
    assert.match(error.message, /\(in 60 min\)$/);
    assert.equal(error.kind, badInputCase('ghcr-rate-limited').errorKind);
  });

  it('a wrong token: 401 Bad credentials, at sign-in and at listing', async () => {
    const catalog = new GhcrCatalog({ auth: { username: 'Berth-Tester', password: 'ghp_notAToken' }, apiBase: github.origin });
    for (const work of [() => catalog.verify(), () => catalog.repositories()]) {
      const error = await refusal(work);
      assert.equal(error.kind, badInputCase('ghcr-bad-token').errorKind);
      assert.equal(error.message, expectedMessage('ghcr-bad-token'));
    }
    await catalog.close();
  });

  it('no token: refused before any request', async () => {
    const catalog = new GhcrCatalog({ apiBase: github.origin });
    const before = github.requests.length;
    const error = await refusal(() => catalog.repositories());
    await catalog.close();
    assert.match(error.hint ?? '', /read:packages/);
    assert.equal(github.requests.length, before);
  });
});

describe('Type a Repository…', () => {
  it('takes repository names and refuses anything else with the row\'s message', () => {
    for (const name of ['busybox', 'team/app', 'berth-tester/tools/lint', 'a.b_c__d-e/f']) assert.equal(repositoryNameProblem(name), undefined, name);
    assert.equal(repositoryNameProblem('Busybox:latest'), expectedMessage('typed-repository-invalid'));
    for (const name of ['team/app:1.0', 'Team/App', '/app', 'app/', 'a//b', 'app@sha256:00']) assert.match(repositoryNameProblem(name) ?? '', /is not a repository name/, name);
    assert.match(repositoryNameProblem('') ?? '', /Enter a repository name/);
  });
});

describe('where the hosted APIs are', () => {
  it('the public HTTPS addresses by default; a loopback override is honoured, any other is ignored and said so', () => {
    assert.equal(apiBaseFor('docker.io', {}), DOCKER_HUB_API);
    assert.equal(apiBaseFor('ghcr.io', {}), GITHUB_API);
    assert.equal(apiBaseFor('docker.io', { BERTH_DOCKER_HUB_API: 'http://127.0.0.1:4000/x' }), 'http://127.0.0.1:4000');
    const warnings: string[] = [];
    assert.equal(apiBaseFor('ghcr.io', { BERTH_GITHUB_API: 'http://evil.example:80' }, (line) => warnings.push(line)), GITHUB_API);
    assert.equal(apiBaseFor('ghcr.io', { BERTH_GITHUB_API: 'not a url' }, (line) => warnings.push(line)), GITHUB_API);
    assert.equal(warnings.length, 2);
    assert.match(warnings[0]!, /only a loopback http:\/\/ address may stand in for https:\/\/api\.github\.com/);
  });

  it('only docker.io and ghcr.io have a hosted catalog', () => {
    assert.ok(hostedCatalogFor('docker.io', { env: {} }) instanceof DockerHubCatalog);
    assert.ok(hostedCatalogFor('ghcr.io', { env: {} }) instanceof GhcrCatalog);
    assert.equal(hostedCatalogFor('registry.example.com', { env: {} }), undefined);
    assert.throws(() => new GhcrCatalog({ apiBase: 'http://example.com' }), /only HTTPS, or a loopback address/);
  });

  it('retryWhen reads Retry-After, else a reset time', () => {
    assert.equal(retryWhen({ headers: { 'retry-after': '30' } }), 'in 30 s');
    assert.equal(retryWhen({ headers: { 'x-ratelimit-reset': '1800000000' } }, 1800000000_000 - 120_000), 'at 08:00 UTC (in 2 min)');
    assert.equal(retryWhen({ headers: {} }), undefined);
  });
});
