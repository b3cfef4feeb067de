// Listing the docker context store: real files in a temporary DOCKER_CONFIG, resolved with the same rules as
// the current context (TLS directories, host parsing), the current one flagged, broken entries reported or skipped.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { listDockerContexts } from '../../../../src/engine/connection';

const root = mkdtempSync(join(tmpdir(), 'berth-contexts-'));
after(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
function freshConfigDir(): string {
  const dir = join(root, `config-${counter++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function writeContext(configDir: string, name: string, meta: unknown, options: { dirName?: string; tls?: string[] } = {}): void {
  const hash = createHash('sha256').update(name).digest('hex');
  const metaDir = join(configDir, 'contexts', 'meta', options.dirName ?? hash);
  mkdirSync(metaDir, { recursive: true });
  writeFileSync(join(metaDir, 'meta.json'), typeof meta === 'string' ? meta : JSON.stringify(meta));
  if (options.tls) {
    const tlsDir = join(configDir, 'contexts', 'tls', hash, 'docker');
    mkdirSync(tlsDir, { recursive: true });
    for (const file of options.tls) writeFileSync(join(tlsDir, file), 'pem');
  }
}

function dockerMeta(name: string, host: string, extra: Record<string, unknown> = {}): unknown {
  return { Name: name, Metadata: { Description: `${name} engine` }, Endpoints: { docker: { Host: host, SkipTLSVerify: false, ...extra } } };
}

void describe('listDockerContexts', () => {
  void it('lists every stored context with its endpoint, sorted, honouring DOCKER_CONFIG', () => {
    const configDir = freshConfigDir();
    writeContext(configDir, 'remote', dockerMeta('remote', 'tcp://10.0.0.5:2376'), { tls: ['ca.pem', 'cert.pem', 'key.pem'] });
    writeContext(configDir, 'builder', dockerMeta('builder', 'ssh://ci@build.example:2222'));
    writeContext(configDir, 'podman', dockerMeta('podman', 'unix:///run/user/1000/podman/podman.sock'));
    // DOCKER_HOST must not leak into a context's endpoint.
    const contexts = listDockerContexts({ env: { DOCKER_CONFIG: configDir, DOCKER_HOST: 'tcp://elsewhere:1' }, homeDir: join(root, 'no-home') });

    assert.deepEqual(contexts.map((context) => context.name), ['builder', 'podman', 'remote']);
    const [builder, podman, remote] = contexts;
    assert.equal(builder?.endpoint?.kind, 'ssh');
    assert.equal(builder?.endpoint?.host, 'ssh://ci@build.example:2222');
    assert.equal(builder?.description, 'builder engine');
    assert.equal(podman?.endpoint?.socketPath, '/run/user/1000/podman/podman.sock');
    assert.equal(remote?.endpoint?.origin, 'https://10.0.0.5:2376');
    const tlsDir = join(configDir, 'contexts', 'tls', createHash('sha256').update('remote').digest('hex'), 'docker');
    assert.deepEqual(remote?.endpoint?.tls, { verify: true, caFile: join(tlsDir, 'ca.pem'), certFile: join(tlsDir, 'cert.pem'), keyFile: join(tlsDir, 'key.pem') });
    assert.equal(remote?.endpoint?.context, 'remote');
    assert.ok(contexts.every((context) => !context.current && context.error === undefined));
  });

  void it('flags the current context from config.json, and DOCKER_CONTEXT over it', () => {
    const configDir = freshConfigDir();
    writeContext(configDir, 'a', dockerMeta('a', 'unix:///a.sock'));
    writeContext(configDir, 'b', dockerMeta('b', 'unix:///b.sock'));
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ CurrentContext: 'b' }));
    const fromConfig = listDockerContexts({ env: { DOCKER_CONFIG: configDir } });
    assert.deepEqual(fromConfig.map((context) => [context.name, context.current]), [['a', false], ['b', true]]);
    const fromEnv = listDockerContexts({ env: { DOCKER_CONFIG: configDir, DOCKER_CONTEXT: 'a' } });
    assert.deepEqual(fromEnv.map((context) => [context.name, context.current]), [['a', true], ['b', false]]);
  });

  void it('reports a context without a docker endpoint, and skips files the CLI would not read', () => {
    const configDir = freshConfigDir();
    writeContext(configDir, 'k8s-only', { Name: 'k8s-only', Endpoints: { kubernetes: { Host: 'https://k8s' } } });
    writeContext(configDir, 'bad-host', dockerMeta('bad-host', 'ftp://nope'));
    writeContext(configDir, 'not-json', '{ nope');
    writeContext(configDir, 'moved', dockerMeta('moved', 'unix:///m.sock'), { dirName: 'not-the-hash-of-its-name' });
    const contexts = listDockerContexts({ env: { DOCKER_CONFIG: configDir } });
    assert.deepEqual(contexts.map((context) => context.name), ['bad-host', 'k8s-only']);
    assert.equal(contexts[0]?.endpoint, undefined);
    assert.match(contexts[0]?.error ?? '', /scheme "ftp" is not supported/);
    assert.match(contexts[1]?.error ?? '', /has no docker endpoint host/);
  });

  void it('is empty when there is no context store', () => {
    assert.deepEqual(listDockerContexts({ env: { DOCKER_CONFIG: join(root, 'missing') } }), []);
  });
});
