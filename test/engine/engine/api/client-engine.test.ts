// EngineClient engine-level behaviour against the real private dockerd: ping and version negotiation, a fixed
// version, no daemon at all, the events stream, exec over the hijacked TTY connection, and request logging.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { describe, it } from 'node:test';
import { EngineClient, EngineError, encodeRegistryAuth, parseHost, sshConnector, type EngineEvent } from '../../../../src/engine';
import { useEngineSuite } from '../../../support/engineSuite';
import { engineTargets, unixSocketPath, uniqueName } from '../../../support/engines';
import { failureOf } from '../../../support/assertions';

const suite = useEngineSuite({ name: 'client-engine' });
const { client, engines } = suite;
/** Containers of the exec round trip, on whichever engine ran it. */
const containers: string[] = [];

/** Reads from a duplex until the text seen so far matches, then resolves all of it. */
function readUntil(stream: Duplex, pattern: RegExp, seen: { text: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (pattern.test(seen.text)) {
        stream.off('data', onData);
        stream.off('end', onEnd);
        resolve(seen.text);
      }
    };
    const onData = (chunk: Buffer): void => {
      seen.text += chunk.toString('utf8');
      check();
    };
    const onEnd = (): void => reject(new Error(`stream ended before ${pattern}; got ${JSON.stringify(seen.text)}`));
    stream.on('data', onData);
    stream.on('end', onEnd);
    check();
  });
}

/** Starts `sh` with a TTY in a running container, types into it, resizes it, and checks what comes back. */
async function execTtyRoundTrip(engine: EngineClient): Promise<void> {
  const { Id } = await engine.containers.create(suite.spec(['sleep', '300']));
  containers.push(Id);
  await engine.containers.start(Id);
  const exec = await engine.exec.create(Id, { cmd: ['sh'], tty: true, attachStdin: true, env: ['PS1=$ '] });
  const terminal = await engine.exec.startAttached(exec.Id, { tty: true });
  const seen = { text: '' };
  try {
    terminal.write('echo hi\n');
    // The TTY echoes what was typed, then the command prints on its own line.
    await readUntil(terminal, /\r\nhi\r\n/, seen);
    await engine.exec.resize(exec.Id, { rows: 33, cols: 101 });
    terminal.write('stty size\n');
    await readUntil(terminal, /\r\n33 101\r\n/, seen);
    const ended = new Promise<void>((resolve) => terminal.once('close', resolve));
    terminal.write('exit 7\n');
    terminal.resume();
    await ended;
  } finally {
    terminal.destroy();
  }
  const inspected = await engine.exec.inspect(exec.Id);
  assert.equal(inspected.Running, false);
  assert.equal(inspected.ExitCode, 7);
}

void describe('engine on dockerd', () => {
  void it('pings: Api-Version, OS type and server', async () => {
    const info = await client.system.ping();
    assert.equal(info.apiVersion, '1.41');
    assert.equal(info.osType, 'linux');
    assert.match(info.server ?? '', /^Docker\/20\.10/);
    assert.equal(info.libpodApiVersion, undefined);
  });

  void it('negotiates min(client max, daemon max) = 1.41 lazily, and reports the version', async () => {
    const lines: string[] = [];
    const fresh = new EngineClient({ endpoint: parseHost(engines.dockerHost, {}), log: (line) => lines.push(line) });
    const version = await fresh.system.version();
    assert.equal(version.ApiVersion, '1.41');
    assert.equal(await fresh.negotiatedVersion(), '1.41');
    assert.match(lines[0] ?? '', /^HEAD \/_ping → 200/);
    assert.ok(lines.some((line) => /^GET \/v1\.41\/version → 200/.test(line)), lines.join('\n'));
    await fresh.close();
  });

  void it('a fixed version above the daemon’s maximum fails with kind version and the engine’s message', async () => {
    const pinned = new EngineClient({ endpoint: parseHost(engines.dockerHost, {}), apiVersion: '1.51' });
    assert.equal(await pinned.negotiatedVersion(), '1.51');
    const error = await failureOf(pinned.containers.list());
    assert.equal(error.kind, 'version');
    assert.equal(error.status, 400);
    assert.equal(
      error.message,
      'client version 1.51 is too new. Maximum supported API version is 1.41. Leave the API version unset so Berth negotiates one, or set a version the engine supports',
    );
    await pinned.close();
  });

  void it('a fixed version the daemon supports is used as is, without a ping', async () => {
    const lines: string[] = [];
    const pinned = new EngineClient({ endpoint: parseHost(engines.dockerHost, {}), apiVersion: '1.40', log: (line) => lines.push(line) });
    assert.ok(Array.isArray(await pinned.containers.list()));
    assert.match(lines[0] ?? '', /^GET \/v1\.40\/containers\/json → 200/);
    await pinned.close();
  });

  void it('no daemon at all: the message names the endpoint and says what to do, and the next call retries', async () => {
    const missing = `/tmp/berth-state/${uniqueName('absent')}.sock`;
    const absent = EngineClient.fromEnvironment({ env: { DOCKER_HOST: `unix://${missing}` } });
    assert.equal(absent.endpoint.source, 'DOCKER_HOST');
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await failureOf(absent.containers.list());
      assert.equal(error.kind, 'unreachable');
      assert.equal(
        error.message,
        `Cannot reach the engine at unix://${missing}: there is no socket at that path. Start the engine (Docker or Podman), or point DOCKER_HOST (or --host, or the berth.engine.host setting) at a running one`,
      );
    }
    await absent.close();
  });

  void it('the events stream sees create, start and die of a container', async () => {
    const marker = uniqueName('events');
    const controller = new AbortController();
    const since = Math.floor(Date.now() / 1000) - 1;
    const seen: EngineEvent[] = [];
    const stream = client.system.events({ since, filters: { type: ['container'], label: [`berth.test.marker=${marker}`] }, signal: controller.signal });
    const consumed = (async () => {
      for await (const event of stream) {
        seen.push(event);
        if (event.Action === 'die') return;
      }
    })();
    const Id = await suite.createContainer(['true'], { Labels: { 'berth.test.marker': marker } });
    await client.containers.start(Id);
    await consumed;
    controller.abort();
    const actions = seen.filter((event) => event.Actor.ID === Id).map((event) => event.Action);
    assert.deepEqual(actions.filter((action) => ['create', 'start', 'die'].includes(action)), ['create', 'start', 'die']);
    assert.equal(seen.find((event) => event.Action === 'die')?.Actor.Attributes?.['exitCode'], '0');
    assert.ok(seen.every((event) => typeof event.timeNano === 'number' && event.Type === 'container'));
  });

  void it('an aborted events stream ends with kind cancelled', async () => {
    const controller = new AbortController();
    const stream = client.system.events({ signal: controller.signal });
    const pending = (async () => {
      for await (const event of stream) void event;
    })();
    setTimeout(() => controller.abort(), 200);
    const error = await failureOf(pending);
    assert.equal(error.kind, 'cancelled');
  });

  void it('exec with a TTY over the hijacked connection: type `echo hi`, read it back, resize', async () => {
    await execTtyRoundTrip(client);
  });

  void it('starting an unknown exec shows the engine’s message', async () => {
    const error = await failureOf(client.exec.startAttached('0123456789abcdef', { tty: true }));
    assert.equal(error.kind, 'not-found');
    assert.equal(error.message, 'No such exec instance: 0123456789abcdef. The exec session is gone; start a new one');
  });

  void it('request logging shows method, path and status but never X-Registry-Auth', async () => {
    const lines: string[] = [];
    const logged = new EngineClient({ endpoint: parseHost(engines.dockerHost, {}), log: (line) => lines.push(line) });
    const registry = engines.registry;
    const auth = { username: registry.username, password: registry.password, serveraddress: registry.address };
    try {
      for await (const progress of logged.images.pull(`${registry.address}/berth/busybox:no-such-tag`, { auth })) void progress;
    } catch (error) {
      assert.ok(error instanceof EngineError);
      assert.ok(!error.message.includes(registry.password));
    }
    const text = lines.join('\n');
    const fromImage = encodeURIComponent(`${registry.address}/berth/busybox`);
    assert.ok(text.includes(`POST /v1.41/images/create?fromImage=${fromImage}&tag=no-such-tag → 404`), text);
    assert.ok(!text.includes(registry.password));
    assert.ok(!text.includes(encodeRegistryAuth(auth)));
    assert.ok(!/x-registry-auth/i.test(text));
    await logged.close();
  });

  void it('speaks HTTP over an ssh-style stdio tunnel (the ssh:// connector)', async () => {
    // A stand-in for `ssh … -- host docker system dial-stdio`: records its arguments, then relays stdio to dockerd.
    const dir = mkdtempSync(join(tmpdir(), 'berth-ssh-'));
    const argsFile = join(dir, 'args.json');
    const fakeSsh = join(dir, 'ssh');
    writeFileSync(
      fakeSsh,
      `#!${process.execPath}\n` +
        `require('fs').writeFileSync(${JSON.stringify(argsFile)}, JSON.stringify(process.argv.slice(2)));\n` +
        `const socket = require('net').connect(${JSON.stringify(unixSocketPath(engines.dockerHost))});\n` +
        `process.stdin.pipe(socket); socket.pipe(process.stdout); socket.on('close', () => process.exit(0));\n`,
    );
    chmodSync(fakeSsh, 0o755);
    const endpoint = parseHost('ssh://deploy@build.example.com:2222', {});
    const tunnelled = new EngineClient({ endpoint, transport: { connector: sshConnector(endpoint, fakeSsh) } });
    try {
      assert.equal(tunnelled.endpoint.display, 'ssh://deploy@build.example.com:2222');
      assert.equal((await tunnelled.system.ping()).apiVersion, '1.41');
      assert.ok(Array.isArray(await tunnelled.containers.list({ all: true })));
      assert.deepEqual(JSON.parse(readFileSync(argsFile, 'utf8')), [
        '-l', 'deploy', '-p', '2222', '-o', 'BatchMode=yes', '--', 'build.example.com', 'docker', 'system', 'dial-stdio',
      ]);
    } finally {
      await tunnelled.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

void describe('exec on Podman', () => {
  const podmanTarget = engineTargets(engines)[1];
  void it('exec with a TTY over the hijacked connection on Podman too', { skip: podmanTarget?.skip }, async () => {
    const podman = EngineClient.fromEnvironment({ host: podmanTarget?.host });
    try {
      await execTtyRoundTrip(podman);
    } finally {
      for (const container of await podman.containers.list({ all: true, filters: { id: containers } })) {
        await podman.containers.remove(container.Id, { force: true });
      }
      await podman.close();
    }
  });
});
