// The Bearer token flow against a real registry (Debian's docker-registry) configured for token auth: it answers
// 401 `WWW-Authenticate: Bearer realm=…,service=…,scope=…` and verifies RS256 JWTs whose x5c certificate chains to
// its root bundle. The token issuer is a small server in this process (the registry has none of its own), speaking
// the token wire format: GET realm?service=&scope= with Basic credentials → {"token", "expires_in"}.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createSign, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RegistryClient, RegistryError } from '../../../../src/engine/registry';
import { sleep } from '../../../support/wait';

const SERVICE = 'berth-token-test';
const ISSUER = 'berth-test-issuer';
const USER = 'token-user';
const PASSWORD = 'token-Pa55-secret';

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

interface TokenRequest {
  readonly service: string | null;
  readonly scopes: string[];
  readonly user: string | undefined;
}

/** Issues RS256 JWTs the registry accepts; refuses wrong or missing Basic credentials like an auth server does. */
function startTokenServer(keyPem: string, certDer: Buffer, requests: TokenRequest[]): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const authorization = request.headers.authorization ?? '';
    const decoded = authorization.startsWith('Basic ') ? Buffer.from(authorization.slice(6), 'base64').toString('utf8') : '';
    const user = decoded ? decoded.slice(0, decoded.indexOf(':')) : undefined;
    requests.push({ service: url.searchParams.get('service'), scopes: url.searchParams.getAll('scope'), user });
    if (decoded !== `${USER}:${PASSWORD}`) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'invalid username or password' }] }));
      return;
    }
    const now = Math.floor(Date.now() / 1000);
    const access = url.searchParams.getAll('scope').map((scope) => {
      const [type, ...rest] = scope.split(':');
      const actions = rest.pop() ?? '';
      return { type, name: rest.join(':'), actions: actions.split(',') };
    });
    const header = { typ: 'JWT', alg: 'RS256', x5c: [certDer.toString('base64')] };
    const claims = { iss: ISSUER, sub: USER, aud: SERVICE, exp: now + 300, nbf: now - 10, iat: now, jti: randomUUID(), access };
    const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
    const signature = createSign('RSA-SHA256').update(signingInput).sign(keyPem);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ token: `${signingInput}.${base64url(signature)}`, expires_in: 300 }));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })));
}

async function waitForRegistry(address: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://${address}/v2/`);
      await response.body?.cancel();
      if (response.status === 401) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`docker-registry on ${address} did not come up`);
}

void describe('registry v2 client: Bearer token flow against a token-auth registry', () => {
  let dir: string;
  let tokenServer: Server;
  let registry: ChildProcess;
  let address: string;
  let registryLog = '';
  const tokenRequests: TokenRequest[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-token-'));
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    await promisify(execFile)('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=berth-token-test']);
    const certDer = Buffer.from((await readFile(certFile, 'utf8')).replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
    const issuer = await startTokenServer(await readFile(keyFile, 'utf8'), certDer, tokenRequests);
    tokenServer = issuer.server;
    address = `127.0.0.1:${await freePort()}`;
    const config = [
      'version: 0.1',
      'log: { level: warn, accesslog: { disabled: true } }',
      `storage: { filesystem: { rootdirectory: ${join(dir, 'data')} } }`,
      `http: { addr: "${address}", secret: ${randomUUID()} }`,
      'auth:',
      '  token:',
      `    realm: http://127.0.0.1:${issuer.port}/token`,
      `    service: ${SERVICE}`,
      `    issuer: ${ISSUER}`,
      `    rootcertbundle: ${certFile}`,
    ].join('\n');
    await writeFile(join(dir, 'config.yml'), config);
    registry = spawn('docker-registry', ['serve', join(dir, 'config.yml')], { stdio: ['ignore', 'ignore', 'pipe'] });
    registry.stderr?.on('data', (chunk: Buffer) => (registryLog += chunk.toString()));
    await waitForRegistry(address, registry).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\n${registryLog}`);
    });
  });

  after(async () => {
    registry?.kill('SIGTERM');
    await new Promise<void>((resolve) => tokenServer?.close(() => resolve()) ?? resolve());
    await rm(dir, { recursive: true, force: true });
  });

  void it('gets a token with Basic credentials for the challenged scope, then retries with it', async () => {
    tokenRequests.length = 0;
    const lines: string[] = [];
    const client = new RegistryClient({ address, auth: { username: USER, password: PASSWORD }, log: (line) => lines.push(line) });
    try {
      assert.deepEqual(await client.catalog(), []);
      assert.deepEqual(tokenRequests, [{ service: SERVICE, scopes: ['registry:catalog:*'], user: USER }]);
      assert.deepEqual(
        lines.map((line) => line.replace(/127\.0\.0\.1:\d+/, 'HOST')),
        ['registry GET HOST/v2/_catalog → 401', 'registry GET HOST/token → 200', 'registry GET HOST/v2/_catalog → 200'],
      );
      // The token is reused for the same scope: no second trip to the issuer.
      await client.catalog();
      assert.equal(tokenRequests.length, 1);
      // A repository scope gets its own token; the registry then answers for the repository itself.
      await assert.rejects(client.tags('team/app'), (error: unknown) => error instanceof RegistryError && error.kind === 'not-found' && error.codes.includes('NAME_UNKNOWN'));
      assert.deepEqual(tokenRequests[1]?.scopes, ['repository:team/app:pull']);
    } finally {
      await client.close();
    }
  });

  void it('ping works with the token flow', async () => {
    const client = new RegistryClient({ address, auth: { username: USER, password: PASSWORD } });
    try {
      assert.equal((await client.ping()).apiVersion, 'registry/2.0');
    } finally {
      await client.close();
    }
  });

  void it("a wrong password fails at the token endpoint with the issuer's message, never echoing the password", async () => {
    const client = new RegistryClient({ address, auth: { username: USER, password: 'not-the-Pa55' } });
    try {
      await assert.rejects(client.catalog(), (error: unknown) => {
        assert.ok(error instanceof RegistryError);
        assert.equal(error.kind, 'unauthorized');
        assert.equal(error.registryMessage, 'invalid username or password');
        assert.ok(!error.message.includes('not-the-Pa55'));
        return true;
      });
    } finally {
      await client.close();
    }
  });

  void it('without credentials the issuer refuses and the error says to sign in', async () => {
    const client = new RegistryClient({ address });
    try {
      await assert.rejects(client.catalog(), (error: unknown) => error instanceof RegistryError && error.kind === 'unauthorized' && /Sign in/.test(error.message));
    } finally {
      await client.close();
    }
  });
});
