// Which engines Berth shows: the default one, the docker contexts, Podman's sockets and `berth.engines`, one per
// endpoint. The context store and the sockets are real files in a temporary directory; paths outside it (the
// machine's own /var/run/docker.sock, /run/podman) are reported absent, so nothing depends on this machine.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { nodeContextStoreFs, type ContextStoreFs } from '../../../src/engine/connection';
import {
  dedupeEngines,
  discoverEngines,
  engineHostProblem,
  engineNameProblem,
  parseConfiguredEngines,
  type EngineDescriptor,
} from '../../../src/model/engineList';

const root = mkdtempSync(join(tmpdir(), 'berth-engine-list-'));
after(() => rmSync(root, { recursive: true, force: true }));

const fs: ContextStoreFs = { ...nodeContextStoreFs, exists: (path) => path.startsWith(root) && existsSync(path) };

let counter = 0;
function freshHome(): { home: string; configDir: string; runtimeDir: string } {
  const home = join(root, `home-${counter++}`);
  const configDir = join(home, '.docker');
  const runtimeDir = join(home, 'run');
  mkdirSync(configDir, { recursive: true });
  mkdirSync(runtimeDir, { recursive: true });
  return { home, configDir, runtimeDir };
}

function writeContext(configDir: string, name: string, host: string): void {
  const dir = join(configDir, 'contexts', 'meta', createHash('sha256').update(name).digest('hex'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ Name: name, Metadata: {}, Endpoints: { docker: { Host: host } } }));
}

function podmanSocket(runtimeDir: string): string {
  mkdirSync(join(runtimeDir, 'podman'), { recursive: true });
  const path = join(runtimeDir, 'podman', 'podman.sock');
  writeFileSync(path, '');
  return path;
}

function summary(engines: readonly EngineDescriptor[]): string[] {
  return engines.map((engine) => `${engine.id} ${engine.name} ${engine.display}${engine.aliases.length > 0 ? ` +${engine.aliases.join(',')}` : ''}`);
}

void describe('discoverEngines', () => {
  void it('shows the default engine alone when nothing else exists (the single-engine layout)', () => {
    const { home, runtimeDir } = freshHome();
    const engines = discoverEngines({ hostSetting: '', configured: [], env: { XDG_RUNTIME_DIR: runtimeDir }, homeDir: home, fs });
    assert.deepEqual(summary(engines), ['local default unix:///var/run/docker.sock']);
    assert.equal(engines[0]?.origin, 'local');
  });

  void it('gathers the default engine, contexts, the Podman socket and berth.engines in that order', () => {
    const { home, configDir, runtimeDir } = freshHome();
    writeContext(configDir, 'remote', 'tcp://10.0.0.5:2375');
    writeContext(configDir, 'builder', 'ssh://ci@build.example');
    const socket = podmanSocket(runtimeDir);
    const engines = discoverEngines({
      hostSetting: 'unix:///tmp/berth-state/docker.sock',
      configured: [{ name: 'lab', host: 'tcp://lab.example:2375' }],
      env: { XDG_RUNTIME_DIR: runtimeDir },
      homeDir: home,
      fs,
    });
    assert.deepEqual(summary(engines), [
      'local default unix:///tmp/berth-state/docker.sock',
      'context:builder builder ssh://ci@build.example',
      'context:remote remote tcp://10.0.0.5:2375',
      `podman:${socket} Podman unix://${socket}`,
      'settings:lab lab tcp://lab.example:2375',
    ]);
    assert.equal(engines[0]?.sourceText, 'berth.engine.host setting');
    assert.equal(engines.find((engine) => engine.origin === 'podman')?.sourceText, 'Podman default socket');
  });

  void it('deduplicates by endpoint: the first source keeps its name, the others become aliases', () => {
    const { home, configDir, runtimeDir } = freshHome();
    const socket = podmanSocket(runtimeDir);
    writeContext(configDir, 'podman-ctx', `unix://${socket}`);
    writeContext(configDir, 'remote', 'tcp://10.0.0.5:2375');
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ currentContext: 'remote' }));
    const engines = discoverEngines({
      hostSetting: '',
      // The same endpoint written differently (default port) is still the same engine.
      configured: [{ name: 'same-remote', host: 'tcp://10.0.0.5' }, { name: 'same-podman', host: `unix://${socket}` }],
      env: { XDG_RUNTIME_DIR: runtimeDir },
      homeDir: home,
      fs,
    });
    assert.deepEqual(summary(engines), [
      'local remote tcp://10.0.0.5:2375 +context:remote,settings:same-remote',
      `context:podman-ctx podman-ctx unix://${socket} +podman:${socket},settings:same-podman`,
    ]);
  });

  void it('names the default engine after Podman when the default resolution lands on Podman\'s socket', () => {
    const { home, runtimeDir } = freshHome();
    const socket = podmanSocket(runtimeDir);
    const engines = discoverEngines({ hostSetting: '', configured: [], env: { XDG_RUNTIME_DIR: runtimeDir }, homeDir: home, fs });
    assert.deepEqual(summary(engines), [`local Podman unix://${socket} +podman:${socket}`]);
    assert.equal(engines[0]?.sourceText, 'Podman default socket');
  });

  void it('drops the absent default socket when other engines exist, keeps an explicitly configured one', () => {
    const { home, configDir, runtimeDir } = freshHome();
    writeContext(configDir, 'remote', 'tcp://10.0.0.5:2375');
    const env = { XDG_RUNTIME_DIR: runtimeDir };
    const withoutDocker = discoverEngines({ hostSetting: '', configured: [], env, homeDir: home, fs });
    assert.deepEqual(summary(withoutDocker), ['context:remote remote tcp://10.0.0.5:2375']);
    const configured = discoverEngines({ hostSetting: 'unix:///nowhere/docker.sock', configured: [], env, homeDir: home, fs });
    assert.deepEqual(summary(configured), ['local default unix:///nowhere/docker.sock', 'context:remote remote tcp://10.0.0.5:2375']);
  });

  void it('keeps an engine with an invalid configuration, with the reason and without its password', () => {
    const { home, runtimeDir } = freshHome();
    const engines = discoverEngines({
      hostSetting: 'ftp://x',
      configured: [{ name: 'leaky', host: 'tcp://admin:hunter2@10.0.0.9:2375' }, { name: 'also-bad', host: 'tcp://' }, { name: 'also-bad-2', host: 'tcp://' }],
      env: { XDG_RUNTIME_DIR: runtimeDir },
      homeDir: home,
      fs,
    });
    assert.deepEqual(engines.map((engine) => engine.id), ['local', 'settings:leaky', 'settings:also-bad', 'settings:also-bad-2']);
    assert.match(engines[0]?.configError?.message ?? '', /scheme "ftp" is not supported/);
    const leaky = engines[1];
    assert.equal(leaky?.endpoint, undefined);
    assert.match(leaky?.configError?.message ?? '', /must not carry a user name and password/);
    assert.equal(leaky?.display, 'tcp://admin:***@10.0.0.9:2375');
    assert.ok(!JSON.stringify(engines.map((engine) => [engine.display, engine.configError?.message])).includes('hunter2'));
  });
});

void describe('dedupeEngines', () => {
  void it('ignores a repeated id and never merges engines without an endpoint', () => {
    const broken = (id: string): EngineDescriptor => ({ id, name: id, origin: 'settings', aliases: [], endpoint: undefined, configError: new Error('bad'), display: id, sourceText: 's' });
    assert.deepEqual(dedupeEngines([broken('a'), broken('b'), broken('a')]).map((engine) => engine.id), ['a', 'b']);
  });
});

void describe('engineHostProblem', () => {
  const cases: Array<[string, RegExp | undefined]> = [
    ['unix:///run/podman/podman.sock', undefined],
    ['tcp://build-host:2376', undefined],
    ['ssh://me@build-host', undefined],
    ['ssh://build-host:2222', undefined],
    ['', /Enter a host/],
    ['build-host:2375', /must start with unix:\/\/, tcp:\/\/ or ssh:\/\//],
    ['https://build-host', /must start with/],
    ['tcp://user:secret@build-host:2375', /must not carry a user name and password/],
    ['tcp://user@build-host:2375', /takes no user name/],
    ['ssh://me:secret@build-host', /must not carry a password/],
    ['unix://relative.sock', /must be absolute/],
    ['ssh://build-host/some/path', /takes no path/],
  ];
  for (const [host, expected] of cases) {
    void it(`${host || '(empty)'} → ${expected ? expected.source : 'valid'}`, () => {
      const problem = engineHostProblem(host);
      if (expected === undefined) assert.equal(problem, undefined);
      else assert.match(problem ?? '', expected);
      assert.ok(!(problem ?? '').includes('secret'), 'the message never repeats a password');
    });
  }
});

void describe('engine names and the berth.engines setting', () => {
  void it('validates names: present, short, unique ignoring case', () => {
    assert.equal(engineNameProblem('lab', ['other']), undefined);
    assert.match(engineNameProblem('  ', []) ?? '', /Enter a name/);
    assert.match(engineNameProblem('LAB', ['lab']) ?? '', /already configured/);
    assert.match(engineNameProblem('x'.repeat(65), []) ?? '', /under 64/);
    assert.match(engineNameProblem('a\u0007b', []) ?? '', /control characters/);
  });

  void it('reads well-formed entries and reports the others', () => {
    const { engines, problems } = parseConfiguredEngines([
      { name: ' lab ', host: ' tcp://lab:2375 ' },
      { name: 'no-host' },
      'just a string',
      { name: 'LAB', host: 'tcp://other:2375' },
    ]);
    assert.deepEqual(engines, [{ name: 'lab', host: 'tcp://lab:2375' }]);
    assert.equal(problems.length, 3);
    assert.match(problems[2] ?? '', /used twice/);
    assert.deepEqual(parseConfiguredEngines({ name: 'x' }).problems, ['berth.engines must be an array of { "name", "host" } objects']);
    assert.deepEqual(parseConfiguredEngines(undefined), { engines: [], problems: [] });
  });
});

void describe('TLS of configured tcp engines', () => {
  void it('follows DOCKER_TLS_VERIFY and DOCKER_CERT_PATH like DOCKER_HOST does', () => {
    const { home, runtimeDir } = freshHome();
    const certs = join(home, 'certs');
    mkdirSync(certs, { recursive: true });
    for (const file of ['ca.pem', 'cert.pem', 'key.pem']) writeFileSync(join(certs, file), 'pem');
    const configured = [{ name: 'tls-host', host: 'tcp://build.example' }];
    const plain = discoverEngines({ hostSetting: '', configured, env: { XDG_RUNTIME_DIR: runtimeDir }, homeDir: home, fs });
    assert.equal(plain.find((engine) => engine.id === 'settings:tls-host')?.endpoint?.origin, 'http://build.example:2375');
    const secured = discoverEngines({ hostSetting: '', configured, env: { XDG_RUNTIME_DIR: runtimeDir, DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: certs }, homeDir: home, fs });
    const endpoint = secured.find((engine) => engine.id === 'settings:tls-host')?.endpoint;
    assert.equal(endpoint?.origin, 'https://build.example:2376');
    assert.equal(endpoint?.tls?.caFile, join(certs, 'ca.pem'));
    assert.equal(endpoint?.tls?.verify, true);
  });
});
