// tcp:// with TLS, configured the docker CLI way (DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH with ca.pem,
// cert.pem and key.pem). The private dockerd listens only on a Unix socket, so a mutual-TLS terminator on 127.0.0.1
// relays bytes to it: the HTTP on the wire is the real daemon's. Certificates are made with openssl for this run.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { EngineClient, runContainer, type OutputChunk } from '../../../../src/engine';
import { cleanupLabel, loadTestEngines, unixSocketPath } from '../../../support/engines';
import { failureOf } from '../../../support/assertions';

const engines = loadTestEngines();
const dir = mkdtempSync(join(tmpdir(), 'berth-tls-'));
let server: Server;
let port = 0;

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** Makes a CA, a server certificate for 127.0.0.1 and a client certificate, all signed by that CA. */
function makeCertificates(): void {
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca-key.pem', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=berth-test-ca');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  writeFileSync(join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, ext, subject] of [
    ['server', 'server.ext', '/CN=127.0.0.1'],
    ['client', 'client.ext', '/CN=berth-client'],
  ] as const) {
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}-key.pem`, '-out', `${name}.csr`, '-subj', subject);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-CAcreateserial', '-out', `${name}-cert.pem`, '-days', '1', '-extfile', ext);
  }
  // DOCKER_CERT_PATH layouts: complete, without a client certificate, and trusting another CA.
  for (const [sub, files] of [
    ['full', { 'ca.pem': 'ca.pem', 'cert.pem': 'client-cert.pem', 'key.pem': 'client-key.pem' }],
    ['no-client-cert', { 'ca.pem': 'ca.pem' }],
  ] as const) {
    mkdirSync(join(dir, sub));
    for (const [target, source] of Object.entries(files)) copyFileSync(join(dir, source), join(dir, sub, target));
  }
  mkdirSync(join(dir, 'other-ca'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'other-key.pem', '-out', join('other-ca', 'ca.pem'), '-days', '1', '-subj', '/CN=other-ca'], { cwd: dir, stdio: 'pipe' });
  copyFileSync(join(dir, 'client-cert.pem'), join(dir, 'other-ca', 'cert.pem'));
  copyFileSync(join(dir, 'client-key.pem'), join(dir, 'other-ca', 'key.pem'));
}

function clientWith(certDir: string): EngineClient {
  return EngineClient.fromEnvironment({
    env: { DOCKER_HOST: `tcp://127.0.0.1:${port}`, DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: join(dir, certDir) },
  });
}

before(async () => {
  makeCertificates();
  const read = (name: string): Buffer => readFileSync(join(dir, name));
  server = createServer(
    { key: read('server-key.pem'), cert: read('server-cert.pem'), ca: read('ca.pem'), requestCert: true, rejectUnauthorized: true },
    (secure) => {
      const upstream = connect(unixSocketPath(engines.dockerHost));
      secure.pipe(upstream).pipe(secure);
      const close = (): void => {
        secure.destroy();
        upstream.destroy();
      };
      secure.on('error', close);
      upstream.on('error', close);
    },
  );
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  port = address.port;
});

after(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

void describe('tcp with TLS', () => {
  void it('connects with DOCKER_TLS_VERIFY and DOCKER_CERT_PATH, and streams over the TLS connection', async () => {
    const client = clientWith('full');
    try {
      assert.equal(client.endpoint.display, `tcp://127.0.0.1:${port}`);
      assert.equal(client.endpoint.origin, `https://127.0.0.1:${port}`);
      assert.equal((await client.system.ping()).apiVersion, '1.41');
      assert.equal(await client.negotiatedVersion(), '1.41');
      const chunks: OutputChunk[] = [];
      const result = await runContainer(client, {
        image: engines.image,
        cmd: ['sh', '-c', 'echo over-tls; echo err-over-tls >&2'],
        labels: { ...cleanupLabel },
        networkMode: 'none',
        autoRemove: true,
        onOutput: (chunk) => chunks.push(chunk),
      });
      assert.equal(result.exitCode, 0);
      const text = (stream: string): string => Buffer.concat(chunks.filter((c) => c.stream === stream).map((c) => c.data)).toString();
      assert.equal(text('stdout'), 'over-tls\n');
      assert.equal(text('stderr'), 'err-over-tls\n');
    } finally {
      await client.close();
    }
  });

  void it('a server certificate from another CA fails verification with a TLS message', async () => {
    const client = clientWith('other-ca');
    const error = await failureOf(client.system.ping());
    assert.equal(error.kind, 'unreachable');
    assert.equal(
      error.message,
      `Cannot reach the engine at tcp://127.0.0.1:${port}: TLS failed (self-signed certificate in certificate chain). The engine's certificate is not signed by the CA in ${join(dir, 'other-ca', 'ca.pem')}: put the CA that signed it there (DOCKER_CERT_PATH), or check that you are connecting to the right engine`,
    );
    await client.close();
  });

  void it('without a client certificate the engine refuses the connection', async () => {
    const client = clientWith('no-client-cert');
    const error = await failureOf(client.system.ping());
    assert.equal(error.kind, 'unreachable');
    assert.equal(
      error.message,
      `Cannot reach the engine at tcp://127.0.0.1:${port}: it closed the TLS connection. It may require a client certificate: put cert.pem and key.pem beside ca.pem in DOCKER_CERT_PATH (or the context's TLS directory)`,
    );
    await client.close();
  });
});
