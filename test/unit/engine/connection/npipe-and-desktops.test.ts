// Windows named pipes (parsing everywhere, connecting on Windows, a clear refusal elsewhere) and the default sockets
// of macOS engines (Docker Desktop, OrbStack, Colima, Rancher Desktop, podman machine) in resolution and discovery.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngineClient, EngineError, knownSockets, parseHost, resolveEndpoint, type EndpointFs } from '../../../../src/engine';
import { connectorFor } from '../../../../src/engine/connection';
import { discoverEngines } from '../../../../src/model/engineList';
import { startFakeEngine } from '../../../support/fakeEngine';

const probeWith = (paths: readonly string[]): EndpointFs & { list: () => string[] } => ({
  exists: (path) => paths.includes(path),
  readText: () => undefined,
  list: () => [],
});

void describe('npipe:// hosts', () => {
  void it("parses the docker CLI's form and its backslash spelling into the pipe path Windows opens", () => {
    for (const host of ['npipe:////./pipe/docker_engine', 'npipe://\\\\.\\pipe\\docker_engine', 'NPIPE:////./pipe/docker_engine']) {
      const endpoint = parseHost(host, {});
      assert.equal(endpoint.kind, 'npipe', host);
      assert.equal(endpoint.socketPath, '\\\\.\\pipe\\docker_engine', host);
      assert.equal(endpoint.display, 'npipe:////./pipe/docker_engine', host);
      assert.equal(endpoint.origin, 'http://localhost');
    }
    assert.equal(parseHost('npipe:////./pipe/dockerDesktopLinuxEngine', {}).socketPath, '\\\\.\\pipe\\dockerDesktopLinuxEngine');
    assert.equal(parseHost('npipe:////build-box/pipe/docker_engine', {}).socketPath, '\\\\build-box\\pipe\\docker_engine', 'a pipe on another server');
  });

  void it('refuses a pipe address that names no pipe, and says how one is written', () => {
    for (const host of ['npipe://', 'npipe:////./docker_engine', 'npipe:////./pipe/', 'npipe:////./pipe/a/b']) {
      assert.throws(
        () => parseHost(host, {}),
        (error: unknown) => error instanceof EngineError && error.kind === 'bad-request' && /a named pipe is written npipe:\/\/\/\/\.\/pipe\/<name>/.test(error.message),
        host,
      );
    }
  });

  void it('on Linux (and macOS) a pipe gets a message that says pipes are Windows-only, before anything connects', () => {
    const endpoint = parseHost('npipe:////./pipe/docker_engine', {});
    for (const platform of ['linux', 'darwin'] as const) {
      assert.throws(
        () => connectorFor(endpoint, platform),
        (error: unknown) =>
          error instanceof EngineError &&
          error.kind === 'bad-request' &&
          error.message.startsWith(`Cannot reach the engine at npipe:////./pipe/docker_engine: it is a Windows named pipe, and this machine runs ${platform}`) &&
          /unix:\/\/\/var\/run\/docker\.sock/.test(error.message),
      );
    }
    if (process.platform !== 'win32') {
      assert.throws(() => EngineClient.fromEnvironment({ host: 'npipe:////./pipe/docker_engine', env: {} }), /it is a Windows named pipe/);
    }
  });

  void it('on Windows it connects through the pipe path as undici socketPath (a Unix socket stands in for the pipe here)', async () => {
    const fake = await startFakeEngine([]);
    try {
      // Node opens `\\.\pipe\…` and a Unix socket through the same net.connect({ path }): only the path differs.
      const endpoint = { ...parseHost('npipe:////./pipe/docker_engine', {}), socketPath: fake.socketPath };
      const client = new EngineClient({ endpoint, transport: { connector: connectorFor(endpoint, 'win32') } });
      try {
        await client.system.ping();
        assert.ok(fake.seen.some((line) => line.includes('/_ping')), `the fake saw: ${fake.seen.join(', ')}`);
      } finally {
        await client.close();
      }
    } finally {
      await fake.close();
    }
  });
});

void describe('default sockets of desktop engines', () => {
  const home = '/Users/someone';

  void it('falls back to Docker Desktop, OrbStack, Colima, Rancher Desktop and podman machine, in that order', () => {
    const order = [
      '/Users/someone/.docker/run/docker.sock',
      '/Users/someone/.orbstack/run/docker.sock',
      '/Users/someone/.colima/default/docker.sock',
      '/Users/someone/.rd/docker.sock',
      '/Users/someone/.local/share/containers/podman/machine/podman.sock',
      '/Users/someone/.local/share/containers/podman/machine/qemu/podman.sock',
    ];
    for (let index = 0; index < order.length; index++) {
      const present = order.slice(index);
      const endpoint = resolveEndpoint({ env: {}, homeDir: home, fs: probeWith(present), platform: 'darwin' });
      assert.equal(endpoint.socketPath, order[index], `with ${present.join(', ')}`);
      assert.equal(endpoint.source, 'default');
    }
    assert.equal(resolveEndpoint({ env: { COLIMA_HOME: '/opt/colima' }, homeDir: home, fs: probeWith(['/opt/colima/default/docker.sock']), platform: 'darwin' }).socketPath, '/opt/colima/default/docker.sock');
  });

  void it('on Windows the defaults are named pipes', () => {
    assert.deepEqual(knownSockets({}, 'C:\\Users\\someone', 'win32').map((socket) => socket.path), ['\\\\.\\pipe\\docker_engine', '\\\\.\\pipe\\dockerDesktopLinuxEngine', '\\\\.\\pipe\\podman-machine-default']);
    const endpoint = resolveEndpoint({ env: {}, homeDir: 'C:\\Users\\someone', fs: probeWith([]), platform: 'win32' });
    assert.equal(endpoint.kind, 'npipe');
    assert.equal(endpoint.host, 'npipe:////./pipe/docker_engine');
  });

  void it('discovery shows each desktop engine that is there as its own engine, named after its product', () => {
    const present = ['/home/someone/.orbstack/run/docker.sock', '/home/someone/.colima/default/docker.sock', '/home/someone/.rd/docker.sock'];
    const engines = discoverEngines({ hostSetting: 'unix:///tmp/private.sock', configured: [], env: {}, homeDir: '/home/someone', fs: probeWith(present) });
    assert.deepEqual(
      engines.map((engine) => [engine.id, engine.name, engine.display]),
      [
        ['local', 'default', 'unix:///tmp/private.sock'],
        ['socket:/home/someone/.orbstack/run/docker.sock', 'OrbStack', 'unix:///home/someone/.orbstack/run/docker.sock'],
        ['socket:/home/someone/.colima/default/docker.sock', 'Colima', 'unix:///home/someone/.colima/default/docker.sock'],
        ['socket:/home/someone/.rd/docker.sock', 'Rancher Desktop', 'unix:///home/someone/.rd/docker.sock'],
      ],
    );
    const none = discoverEngines({ hostSetting: 'unix:///tmp/private.sock', configured: [], env: {}, homeDir: '/home/someone', fs: probeWith(['/var/run/docker.sock']) });
    assert.deepEqual(none.map((engine) => engine.id), ['local'], "plain Docker's socket is only the local engine's fallback, never an extra engine");
  });
});
