// Endpoint resolution, the docker CLI's order: explicit host → DOCKER_HOST → DOCKER_CONTEXT → currentContext →
// default sockets. The context store and sockets are real files in a temporary directory.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  DEFAULT_DOCKER_SOCKET,
  EngineError,
  contextDirectoryName,
  parseHost,
  resolveEndpoint,
  type EndpointFs,
} from '../../../../src/engine';

const root = mkdtempSync(join(tmpdir(), 'berth-endpoint-'));
after(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
function freshHome(): string {
  const home = join(root, `home-${counter++}`);
  mkdirSync(join(home, '.docker'), { recursive: true });
  return home;
}

function writeContext(configDir: string, name: string, meta: unknown, tlsFiles: string[] = []): string {
  const hash = createHash('sha256').update(name).digest('hex');
  const metaDir = join(configDir, 'contexts', 'meta', hash);
  mkdirSync(metaDir, { recursive: true });
  writeFileSync(join(metaDir, 'meta.json'), JSON.stringify(meta));
  if (tlsFiles.length > 0) {
    const tlsDir = join(configDir, 'contexts', 'tls', hash, 'docker');
    mkdirSync(tlsDir, { recursive: true });
    for (const file of tlsFiles) writeFileSync(join(tlsDir, file), 'pem');
  }
  return hash;
}

/** A file-system probe that sees none of the default sockets (so tests never depend on this machine's engines). */
function probeWith(existing: string[]): EndpointFs {
  return {
    exists: (path) => existing.includes(path),
    readText: () => undefined,
  };
}

void describe('parseHost', () => {
  void it('parses unix sockets', () => {
    const endpoint = parseHost('unix:///tmp/x/docker.sock', {});
    assert.equal(endpoint.kind, 'unix');
    assert.equal(endpoint.socketPath, '/tmp/x/docker.sock');
    assert.equal(endpoint.display, 'unix:///tmp/x/docker.sock');
    assert.equal(endpoint.origin, 'http://localhost');
  });

  void it('parses tcp with the default ports (2375 plain, 2376 TLS)', () => {
    const plain = parseHost('tcp://10.0.0.5', {});
    assert.equal(plain.origin, 'http://10.0.0.5:2375');
    assert.equal(plain.tls, undefined);
    const home = freshHome();
    const certs = join(home, 'certs');
    mkdirSync(certs);
    for (const file of ['ca.pem', 'cert.pem', 'key.pem']) writeFileSync(join(certs, file), 'pem');
    const secure = parseHost('tcp://docker.example.com', { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: certs }, { homeDir: home });
    assert.equal(secure.origin, 'https://docker.example.com:2376');
    assert.deepEqual(secure.tls, {
      verify: true,
      caFile: join(certs, 'ca.pem'),
      certFile: join(certs, 'cert.pem'),
      keyFile: join(certs, 'key.pem'),
    });
  });

  void it('takes TLS certificates from ~/.docker when DOCKER_CERT_PATH is unset', () => {
    const home = freshHome();
    writeFileSync(join(home, '.docker', 'ca.pem'), 'pem');
    const endpoint = parseHost('tcp://h:1234', { DOCKER_TLS_VERIFY: '1' }, { homeDir: home });
    assert.equal(endpoint.origin, 'https://h:1234');
    assert.equal(endpoint.tls?.caFile, join(home, '.docker', 'ca.pem'));
    assert.equal(endpoint.tls?.certFile, undefined);
  });

  void it('DOCKER_TLS_VERIFY without a ca.pem is refused, as the docker CLI does, not verified against the system CAs', () => {
    const home = freshHome();
    const certs = join(home, 'certs-without-ca');
    mkdirSync(certs);
    for (const file of ['cert.pem', 'key.pem']) writeFileSync(join(certs, file), 'pem');
    assert.throws(
      () => parseHost('tcp://h:2376', { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: certs }, { homeDir: home }),
      (error: unknown) =>
        error instanceof EngineError &&
        error.kind === 'bad-request' &&
        error.message ===
          `DOCKER_TLS_VERIFY is set, but there is no ca.pem in ${certs} (DOCKER_CERT_PATH) to verify the engine at tcp://h:2376 with. Put the CA certificate that signed the engine's certificate there as ca.pem (with cert.pem and key.pem), or point DOCKER_CERT_PATH at the directory that holds them`,
    );
    // DOCKER_TLS alone (no verification asked) and hosts that are not tcp are unaffected.
    assert.equal(parseHost('tcp://h:2376', { DOCKER_TLS: '1', DOCKER_CERT_PATH: certs }, { homeDir: home }).tls?.caFile, undefined);
    assert.equal(parseHost('unix:///run/x.sock', { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: certs }, { homeDir: home }).tls, undefined);
  });

  void it('parses ssh hosts and keeps passwords out of display', () => {
    const endpoint = parseHost('ssh://deploy@build.example.com:2222', {});
    assert.equal(endpoint.kind, 'ssh');
    assert.deepEqual(endpoint.ssh, { user: 'deploy', host: 'build.example.com', port: 2222 });
    assert.equal(endpoint.display, 'ssh://deploy@build.example.com:2222');
    const withPassword = parseHost('tcp://user:s3cret@h:1', {});
    assert.doesNotMatch(withPassword.display, /s3cret/);
  });

  void it('rejects bad hosts with a specific message', () => {
    const cases: Array<[string, RegExp]> = [
      ['docker.example.com:2375', /Invalid engine host "docker\.example\.com:2375": it has no scheme/],
      ['unix://relative/path', /the socket path must be absolute/],
      ['npipe:////./docker_engine', /a named pipe is written npipe:\/\/\/\/\.\/pipe\/<name>/],
      ['fd://3', /the scheme "fd" is not supported/],
      ['tcp://', /not a valid address|the host name is missing/],
    ];
    for (const [host, message] of cases) {
      assert.throws(
        () => parseHost(host, {}),
        (error: unknown) => error instanceof EngineError && error.kind === 'bad-request' && message.test(error.message),
        host,
      );
    }
  });

  void it('never shows a password in an error message', () => {
    assert.throws(
      () => parseHost('gopher://user:hunter2@h', {}),
      (error: unknown) => error instanceof Error && !error.message.includes('hunter2') && /\*\*\*/.test(error.message),
    );
  });
});

void describe('resolveEndpoint', () => {
  void it('an explicit host wins over DOCKER_HOST and contexts', () => {
    const endpoint = resolveEndpoint({ host: 'unix:///explicit.sock', env: { DOCKER_HOST: 'unix:///env.sock', DOCKER_CONTEXT: 'x' }, homeDir: freshHome() });
    assert.equal(endpoint.socketPath, '/explicit.sock');
    assert.equal(endpoint.source, 'explicit');
  });

  void it('DOCKER_HOST wins over DOCKER_CONTEXT', () => {
    const endpoint = resolveEndpoint({ env: { DOCKER_HOST: 'tcp://1.2.3.4:5', DOCKER_CONTEXT: 'missing' }, homeDir: freshHome() });
    assert.equal(endpoint.origin, 'http://1.2.3.4:5');
    assert.equal(endpoint.source, 'DOCKER_HOST');
  });

  void it('DOCKER_CONTEXT reads the context store with case-insensitive keys and its TLS directory', () => {
    const home = freshHome();
    const configDir = join(home, '.docker');
    const hash = writeContext(
      configDir,
      'remote',
      { name: 'remote', endpoints: { DOCKER: { host: 'tcp://remote.example:2376', skipTLSVerify: false } } },
      ['ca.pem', 'cert.pem', 'key.pem'],
    );
    assert.equal(hash, contextDirectoryName('remote'));
    const endpoint = resolveEndpoint({ env: { DOCKER_CONTEXT: 'remote' }, homeDir: home });
    assert.equal(endpoint.source, 'DOCKER_CONTEXT');
    assert.equal(endpoint.context, 'remote');
    assert.equal(endpoint.origin, 'https://remote.example:2376');
    assert.equal(endpoint.tls?.verify, true);
    assert.equal(endpoint.tls?.caFile, join(configDir, 'contexts', 'tls', hash, 'docker', 'ca.pem'));
  });

  void it('config.json currentContext is used when DOCKER_CONTEXT is unset, under DOCKER_CONFIG', () => {
    const home = freshHome();
    const configDir = join(root, `config-${counter++}`);
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ currentContext: 'podman' }));
    writeContext(configDir, 'podman', { Name: 'podman', Endpoints: { docker: { Host: 'unix:///run/user/1000/podman/podman.sock' } } });
    const endpoint = resolveEndpoint({ env: { DOCKER_CONFIG: configDir }, homeDir: home });
    assert.equal(endpoint.source, 'config-context');
    assert.equal(endpoint.socketPath, '/run/user/1000/podman/podman.sock');
    assert.equal(endpoint.tls, undefined);
  });

  void it('the context named "default" means no context', () => {
    const home = freshHome();
    writeFileSync(join(home, '.docker', 'config.json'), JSON.stringify({ currentContext: 'default' }));
    const endpoint = resolveEndpoint({ env: {}, homeDir: home, fs: probeWith([]) });
    assert.equal(endpoint.source, 'default');
    const viaEnv = resolveEndpoint({ env: { DOCKER_CONTEXT: 'default' }, homeDir: home, fs: probeWith([]) });
    assert.equal(viaEnv.source, 'default');
  });

  void it('a missing context is a clear error naming where it came from', () => {
    assert.throws(
      () => resolveEndpoint({ env: { DOCKER_CONTEXT: 'nowhere' }, homeDir: freshHome() }),
      /Docker context "nowhere" \(from DOCKER_CONTEXT\) does not exist\. Create it with docker context create/,
    );
  });

  void it('falls back to the first default socket that exists', () => {
    const home = '/home/someone';
    const env = { XDG_RUNTIME_DIR: '/run/user/1000' };
    const desktop = '/home/someone/.docker/run/docker.sock';
    const rootless = '/run/user/1000/podman/podman.sock';
    const rootful = '/run/podman/podman.sock';
    assert.equal(resolveEndpoint({ env, homeDir: home, fs: probeWith([rootful, rootless]) }).socketPath, rootless);
    assert.equal(resolveEndpoint({ env, homeDir: home, fs: probeWith([rootful, desktop]) }).socketPath, desktop);
    assert.equal(resolveEndpoint({ env, homeDir: home, fs: probeWith([rootful]) }).socketPath, rootful);
    assert.equal(resolveEndpoint({ env, homeDir: home, fs: probeWith([DEFAULT_DOCKER_SOCKET, rootful]) }).socketPath, DEFAULT_DOCKER_SOCKET);
    assert.equal(resolveEndpoint({ env, homeDir: home, fs: probeWith([]) }).socketPath, DEFAULT_DOCKER_SOCKET);
  });

  void it('ignores a config.json that does not parse, like the docker CLI', () => {
    const home = freshHome();
    writeFileSync(join(home, '.docker', 'config.json'), '{ not json');
    assert.equal(resolveEndpoint({ env: {}, homeDir: home, fs: { ...probeWith([]), readText: () => '{ not json' } }).source, 'default');
  });
});
