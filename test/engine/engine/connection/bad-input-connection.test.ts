// Bad-input rows about reaching the engine and registries: no engine, a stale socket, a refused port, a malformed
// host, a socket the user may not open, failed registry sign-in, credentials for a plain-HTTP registry, and the
// TLS/ssh failures of remote engines. All traffic stays on loopback: the plain-HTTP registry is an input string only.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { EngineClient, parseHost, sshConnector } from '../../../../src/engine';
import { loadTestEngines, unixSocketPath } from '../../../support/engines';
import { sendJson, startFakeEngine } from '../../../support/fakeEngine';
import { loadRemoteEngines } from '../../../support/remote';
import { expectedMessage } from '../bad-input-cases';
import { assertCase } from '../bad-input-support';
import { drain } from '../../../support/wait';

const engines = loadTestEngines();
const remote = loadRemoteEngines();
const scratch = mkdtempSync(join(tmpdir(), 'berth-bad-input-'));
const clients: EngineClient[] = [];

function clientFor(host: string, env: NodeJS.ProcessEnv = {}): EngineClient {
  const client = EngineClient.fromEnvironment({ host, env });
  clients.push(client);
  return client;
}

after(async () => {
  for (const client of clients) await client.close();
  rmSync(scratch, { recursive: true, force: true });
});

const portOf = (host: string): string => new URL(host.replace(/^tcp:/, 'http:')).port;

void describe('the engine gone', () => {
  void it('engine-no-socket: nothing at the socket path', () =>
    assertCase('engine-no-socket', () => clientFor(`unix://${scratch}/nothing.sock`).system.ping(), { dir: scratch.slice(1) }));

  void it('engine-stale-socket: a socket file left by an engine that died', async () => {
    const path = join(scratch, 'stale.sock');
    // A process that binds the socket and exits without unlinking it, like a crashed engine.
    const bound = spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => process.exit(0))`]);
    assert.equal(bound.status, 0);
    await assertCase('engine-stale-socket', () => clientFor(`unix://${path}`).containers.list(), { dir: scratch.slice(1) });
  });

  void it('engine-tcp-refused: nothing listens on the port', () => assertCase('engine-tcp-refused', () => clientFor('tcp://127.0.0.1:1').system.ping()));

  void it('bad-host: a host without "://"', () => assertCase('bad-host', () => Promise.resolve(clientFor('tcp//127.0.0.1:2375'))));

  void it('npipe-on-linux: a Windows named pipe on this machine', { skip: process.platform !== 'linux' && 'the row is worded for Linux' }, () =>
    assertCase('npipe-on-linux', () => Promise.resolve(clientFor('npipe:////./pipe/docker_engine'))));
});

void describe('a socket without permission', () => {
  // As root every socket opens, so the client runs as `nobody` (not in the docker group) against the real dockerd's
  // socket, srw-rw---- root:docker: the kernel answers EACCES exactly as it does for a user outside the group.
  void it('socket-permission: the client as a user outside the docker group', { skip: process.getuid?.() !== 0 && 'needs root to switch to nobody' }, async () => {
    const socket = unixSocketPath(engines.dockerHost);
    const engineModule = resolve(__dirname, '..', '..', '..', '..', 'src', 'engine');
    const script = `require(${JSON.stringify(engineModule)}).EngineClient.fromEnvironment({ host: ${JSON.stringify(engines.dockerHost)} })
      .system.ping().then(() => console.log(JSON.stringify({ ok: true })), (e) => console.log(JSON.stringify({ kind: e.kind, message: e.message })));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
      uid: 65534,
      gid: 65534,
      cwd: resolve(__dirname, '..', '..', '..', '..'),
      env: { PATH: process.env.PATH, HOME: scratch },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    assert.equal(code, 0, stderr);
    const outcome = JSON.parse(stdout.trim()) as { kind?: string; message?: string };
    assert.equal(outcome.kind, 'unreachable');
    assert.equal(outcome.message, expectedMessage('socket-permission', { socket }));
  });
});

void describe('registries', () => {
  const client = clientFor(engines.dockerHost);
  const reference = engines.registryImages[0] as string;

  void it('registry-wrong-password: the registry on 127.0.0.1 refuses the credentials', () =>
    assertCase('registry-wrong-password', () =>
      drain(client.images.pull(reference, { auth: { username: engines.registry.username, password: 'not-the-password', serveraddress: engines.registry.address } })),
    ));

  void it('registry-wrong-password-push: the registry on 127.0.0.1 refuses a push with a wrong password', async () => {
    const name = `wrong-password-${process.pid}`;
    const target = `${engines.registry.address}/berth/${name}:1`;
    await client.images.tag(engines.image, { repo: `${engines.registry.address}/berth/${name}`, tag: '1' });
    try {
      await assertCase(
        'registry-wrong-password-push',
        () => drain(client.images.push(target, { auth: { username: engines.registry.username, password: 'not-the-password', serveraddress: engines.registry.address } })),
        { registry: engines.registry.address, name },
      );
    } finally {
      await client.images.remove(target).catch(() => undefined);
    }
  });

  void it('registry-no-credentials: not signed in', () =>
    assertCase('registry-no-credentials', () => drain(client.images.pull(reference)), { registry: engines.registry.address }));

  void it('registry-plain-http: credentials for a registry the engine reaches over plain HTTP are refused before any pull', async () => {
    // The engine's own view of registries (RegistryConfig from /info of the remote dockerd, whose insecure-registries
    // lists 192.0.2.10:5000) served by an in-process engine that cannot reach any registry, so a client that failed
    // to refuse could not send anything off this machine; it records the pull instead.
    const registryConfig = await new Promise<unknown>((done, fail) => {
      request({ socketPath: unixSocketPath(remote.dockerHost), path: '/v1.41/info' }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => done((JSON.parse(body) as { RegistryConfig: unknown }).RegistryConfig));
      })
        .on('error', fail)
        .end();
    });
    const fake = await startFakeEngine([
      (request, response) => {
        if (request.path !== '/info') return false;
        sendJson(response, 200, { ID: 'fake', OperatingSystem: 'Berth test engine', RegistryConfig: registryConfig });
        return true;
      },
    ]);
    try {
      const fakeClient = new EngineClient({ endpoint: parseHost(fake.host, {}) });
      clients.push(fakeClient);
      await assertCase('registry-plain-http', () =>
        drain(fakeClient.images.pull('192.0.2.10:5000/team/app:1', { auth: { username: 'me', password: 'secret', serveraddress: '192.0.2.10:5000' } })),
      );
      assert.ok(!fake.seen.some((line) => line.startsWith('POST /images/create')), fake.seen.join(', '));
      assert.ok(fake.seen.includes('GET /info'), 'the client decided without asking the engine which registries are insecure');
    } finally {
      await fake.close();
    }
  });
});

void describe('TLS and ssh remote engines', () => {
  const port = portOf(remote.tls.host);
  const tlsEnv = (certPath: string): NodeJS.ProcessEnv => ({ DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: certPath });

  void it('tls-name-mismatch: the certificate names 127.0.0.1, the client dialled 127.0.0.2', () =>
    assertCase('tls-name-mismatch', () => clientFor(remote.tls.mismatchedHost, tlsEnv(remote.tls.certPath)).system.ping(), { port }));

  void it('tls-untrusted-ca: ca.pem of a CA that did not sign the server', () =>
    assertCase('tls-untrusted-ca', () => clientFor(remote.tls.host, tlsEnv(remote.tls.untrustedCertPath)).system.ping(), {
      port,
      certpath: remote.tls.untrustedCertPath,
    }));

  void it('tls-no-ca: DOCKER_TLS_VERIFY with no ca.pem in DOCKER_CERT_PATH is refused, not verified against the system CAs', () => {
    const certPath = join(scratch, 'client-without-ca');
    mkdirSync(certPath);
    for (const file of ['cert.pem', 'key.pem']) copyFileSync(join(remote.tls.certPath, file), join(certPath, file));
    return assertCase('tls-no-ca', () => Promise.resolve(clientFor(remote.tls.host, tlsEnv(certPath))), { port, certpath: certPath });
  });

  void it('tls-plain-to-tls: plain HTTP to the TLS port', () => assertCase('tls-plain-to-tls', () => clientFor(remote.tls.host).system.ping(), { port }));

  void it('ssh-refused: a user whose key the server does not accept', async () => {
    const host = remote.ssh.host.replace('root@', 'nobody@');
    const endpoint = parseHost(host, {});
    const client = new EngineClient({ endpoint, transport: { connector: sshConnector(endpoint, remote.ssh.command) } });
    clients.push(client);
    await assertCase('ssh-refused', () => client.system.ping(), { port: portOf(host.replace(/^ssh:\/\/[^@]*@/, 'tcp://')) });
  });

  void it('ssh-no-server: nothing listens on the ssh port', async () => {
    const endpoint = parseHost('ssh://root@127.0.0.1:1', {});
    const client = new EngineClient({ endpoint, transport: { connector: sshConnector(endpoint, remote.ssh.command) } });
    clients.push(client);
    await assertCase('ssh-no-server', () => client.system.ping());
    assert.match(expectedMessage('ssh-no-server'), /`ssh -p 1 root@127\.0\.0\.1 docker version`/);
  });
});
