// Error mapping: HTTP error bodies to kinds, messages and hints, and real connection failures (a missing socket, a
// refused tcp port, a socket without permission, a socket with no listener) to messages naming the endpoint.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  EngineClient,
  engineErrorFromResponse,
  isEngineError,
  isRunningRemoveRefusal,
  kindForStatus,
  parseHost,
  progressLineError,
  withoutRepetition,
  type EngineErrorKind,
  type ErrorSubject,
} from '../../../../src/engine';
import { failureOf } from '../../../support/assertions';

const root = mkdtempSync(join(tmpdir(), 'berth-errors-'));
chmodSync(root, 0o755);
after(() => rmSync(root, { recursive: true, force: true }));

function clientFor(host: string): EngineClient {
  return new EngineClient({ endpoint: parseHost(host, {}) });
}

function listen(server: Server, path: string | number): Promise<void> {
  return new Promise((resolve) => server.listen(path, resolve));
}

void describe('engineErrorFromResponse', () => {
  const endpoint = 'unix:///tmp/x.sock';

  void it('keeps the engine message and adds what to do next, per status and subject', () => {
    const cases: Array<[number, string, ErrorSubject, EngineErrorKind, string]> = [
      [404, '{"message":"No such container: web"}', 'container', 'not-found', 'No such container: web. Check the container id or name; the container may have been removed'],
      [404, '{"message":"No such image: nope:latest"}', 'container', 'not-found', 'No such image: nope:latest. Pull it first, or check the image name and tag'],
      [
        409,
        '{"message":"Conflict. The container name \\"/web\\" is already in use by container \\"abc\\". You have to remove (or rename) that container to be able to reuse that name."}',
        'container',
        'conflict',
        'Conflict. The container name "/web" is already in use by container "abc". You have to remove (or rename) that container to be able to reuse that name. Choose another name or remove the existing container',
      ],
      [
        500,
        '{"cause":"that name is already in use","message":"container create: creating container storage: the container name \\"web\\" is already in use by c29. You have to remove that container to be able to reuse that name: that name is already in use","response":500}',
        'container',
        'conflict',
        'container create: creating container storage: the container name "web" is already in use by c29. You have to remove that container to be able to reuse that name: that name is already in use. Choose another name or remove the existing container',
      ],
      [409, '{"message":"Container abc is not running"}', 'container', 'conflict', 'Container abc is not running. Start the container first'],
      // Podman 4.3, inspecting a container removed a moment before (seen as a lost batch of the explorer's events).
      [
        500,
        '{"cause":"no such container","message":"container 68580ee6 does not exist in database: no such container","response":500}',
        'container',
        'not-found',
        'container 68580ee6 does not exist in database: no such container. Check the container id or name; the container may have been removed',
      ],
      [400, '{"message":"client version 1.99 is too new. Maximum supported API version is 1.41"}', 'engine', 'version', 'client version 1.99 is too new. Maximum supported API version is 1.41. Leave the API version unset so Berth negotiates one, or set a version the engine supports'],
      [500, '{"message":"Get \\"http://10.0.0.1:5000/v2/\\": no basic auth credentials"}', 'pull', 'unauthorized', 'Get "http://10.0.0.1:5000/v2/": no basic auth credentials. Sign in to the registry (Berth: Sign In to Registry, or docker login) and try again'],
      [500, 'plain text failure\n', 'engine', 'server', "plain text failure. This is the engine's own failure; check its log, then try again"],
      [503, '', 'engine', 'server', "The engine answered HTTP 503 with no message. This is the engine's own failure; check its log, then try again"],
    ];
    for (const [status, body, subject, kind, message] of cases) {
      const error = engineErrorFromResponse(status, Buffer.from(body), { subject, endpoint });
      assert.equal(error.kind, kind, body);
      assert.equal(error.status, status);
      assert.equal(error.message, message);
      assert.equal(error.endpoint, endpoint);
      assert.ok(isEngineError(error, kind));
    }
  });

  void it('names what to fix whichever call met the failure: a container in network connect, a folder in cp, a volume driver', () => {
    const cases: Array<[number, string, ErrorSubject, string]> = [
      [404, '{"message":"No such container: web"}', 'network', 'No such container: web. Check the container id or name; the container may have been removed'],
      [404, '{"message":"Could not find the file /nodir in container web"}', 'container', 'Could not find the file /nodir in container web. A folder on that path does not exist in the container: create it first, or copy to an existing folder'],
      [500, '{"message":"lstat /var/lib/docker/overlay2/x/merged/etc/hostname/x: not a directory"}', 'container', 'lstat /var/lib/docker/overlay2/x/merged/etc/hostname/x: not a directory. A part of that path is a file in the container, not a folder: check the path'],
      [
        500,
        '{"message":"create v1: error looking up volume plugin nosuch: plugin \\"nosuch\\" not found"}',
        'volume',
        'create v1: error looking up volume plugin nosuch: plugin "nosuch" not found. No volume plugin of that name is installed in the engine: check the driver name, or leave --driver out for the engine\'s local driver',
      ],
    ];
    for (const [status, body, subject, message] of cases) assert.equal(engineErrorFromResponse(status, Buffer.from(body), { subject, endpoint }).message, message, body);
  });

  void it('an ambiguous id prefix (dockerd 500, Podman 404) is bad input: give more of the id or the name', () => {
    const hint = "Give more characters of the id, or use the container's name";
    const docker = engineErrorFromResponse(500, '{"message":"Multiple IDs found with provided prefix: e"}', { subject: 'container', endpoint });
    assert.equal(docker.kind, 'bad-request');
    assert.equal(docker.message, `Multiple IDs found with provided prefix: e. ${hint}`);
    const podman = engineErrorFromResponse(
      404,
      '{"cause":"container already exists","message":"more than one result for container ID 6: container already exists","response":404}',
      { subject: 'container', endpoint },
    );
    assert.equal(podman.kind, 'bad-request');
    assert.equal(podman.message, `more than one result for container ID 6: container already exists. ${hint}`);
  });

  void it('plain HTTP to a TLS port says the engine speaks TLS and how to turn TLS on', () => {
    const error = engineErrorFromResponse(400, 'Client sent an HTTP request to an HTTPS server.\n', { subject: 'engine', endpoint: 'tcp://127.0.0.1:2376' });
    assert.equal(error.kind, 'unreachable');
    assert.equal(error.status, 400);
    assert.equal(error.engineMessage, 'Client sent an HTTP request to an HTTPS server.');
    assert.equal(
      error.message,
      'Cannot reach the engine at tcp://127.0.0.1:2376: it speaks TLS, and this client sent plain HTTP (the engine said "Client sent an HTTP request to an HTTPS server"). Set DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH to the directory holding ca.pem, cert.pem and key.pem (or use a docker context with TLS)',
    );
  });

  void it('a message that repeats itself ("no such image: x: No such image: x") is shown once', () => {
    const error = engineErrorFromResponse(404, '{"message":"no such image: nope:1: No such image: nope:1"}', { subject: 'image' });
    assert.equal(error.message, 'No such image: nope:1. Pull it first, or check the image name and tag');
    assert.equal(error.engineMessage, 'no such image: nope:1: No such image: nope:1');
    assert.equal(withoutRepetition('a: b: c'), 'a: b: c');
    assert.equal(withoutRepetition('Error: error.'), 'error.');
  });

  void it('a registry refusal when credentials were sent says the credentials are wrong', () => {
    const hint = 'The registry refused these credentials: check the user name and password, then sign in again';
    for (const message of ['unauthorized: authentication required', 'Get "https://registry-1.docker.io/v2/": unauthorized: incorrect username or password']) {
      const sent = engineErrorFromResponse(500, JSON.stringify({ message }), { subject: 'pull', credentialsSent: true });
      assert.equal(sent.kind, 'unauthorized', message);
      assert.equal(sent.message, `${message}. ${hint}`);
      const anonymous = engineErrorFromResponse(500, JSON.stringify({ message }), { subject: 'pull' });
      assert.match(anonymous.message, /Sign in to the registry/);
    }
    const inBand = progressLineError({ errorDetail: { message: 'unauthorized: incorrect username or password' } }, 'push', true);
    assert.equal(inBand?.kind, 'unauthorized');
    assert.equal(inBand?.message, `unauthorized: incorrect username or password. ${hint}`);
    assert.match(progressLineError({ error: 'unauthorized: authentication required' }, 'push')?.message ?? '', /allowed to push it/);
  });

  void it('keeps Podman messages (which add cause and response)', () => {
    const error = engineErrorFromResponse(404, '{"cause":"no such container","message":"no container with name or ID \\"x\\" found: no such container","response":404}', { subject: 'container' });
    assert.equal(error.engineMessage, 'no container with name or ID "x" found: no such container');
  });

  void it('maps statuses to kinds', () => {
    assert.deepEqual([400, 401, 403, 404, 409, 500].map(kindForStatus), ['bad-request', 'unauthorized', 'unauthorized', 'not-found', 'conflict', 'server']);
  });
});

void describe('connection failures (real sockets)', () => {
  void it('a socket path that does not exist', async () => {
    const path = join(root, 'missing.sock');
    const error = await failureOf(clientFor(`unix://${path}`).system.ping());
    assert.equal(error.kind, 'unreachable');
    assert.equal(error.endpoint, `unix://${path}`);
    assert.equal(
      error.message,
      `Cannot reach the engine at unix://${path}: there is no socket at that path. Start the engine (Docker or Podman), or point DOCKER_HOST (or --host, or the berth.engine.host setting) at a running one`,
    );
  });

  void it('a refused tcp port', async () => {
    const server = createServer();
    await listen(server, 0);
    const address = server.address();
    assert.ok(address && typeof address === 'object');
    await new Promise((resolve) => server.close(resolve));
    const error = await failureOf(clientFor(`tcp://127.0.0.1:${address.port}`).containers.list());
    assert.equal(error.kind, 'unreachable');
    assert.equal(
      error.message,
      `Cannot reach the engine at tcp://127.0.0.1:${address.port}: the connection was refused (is the engine running?). Start the engine, or point DOCKER_HOST (or --host, or the berth.engine.host setting) at a running one`,
    );
  });

  void it('a socket file with nobody listening', async () => {
    const path = join(root, 'stale.sock');
    // A process killed while listening leaves its socket file behind, as a crashed daemon does.
    const child = spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    assert.equal(child.signal, 'SIGKILL');
    assert.ok(existsSync(path));
    const error = await failureOf(clientFor(`unix://${path}`).system.ping());
    assert.equal(error.kind, 'unreachable');
    assert.match(error.message, new RegExp(`^Cannot reach the engine at unix://${path}: the connection was refused \\(is the engine running\\?\\)\\. Start the engine`));
  });

  void it('a socket without permission (connecting as an unprivileged user)', async (t) => {
    if (process.getuid?.() !== 0) {
      t.skip('needs root to run the client as another user');
      return;
    }
    const path = join(root, 'private.sock');
    const server = createServer((socket) => socket.end());
    await listen(server, path);
    chmodSync(path, 0o600);
    const script = join(root, 'connect.ts');
    writeFileSync(
      script,
      `import { EngineClient, parseHost } from ${JSON.stringify(join(process.cwd(), 'src/engine/index.ts'))};\n` +
        `new EngineClient({ endpoint: parseHost(${JSON.stringify(`unix://${path}`)}, {}) }).system.ping()` +
        `.then(() => console.log('{}'), (e) => console.log(JSON.stringify({ kind: e.kind, message: e.message })));\n`,
    );
    chmodSync(script, 0o644);
    try {
      const child = spawnSync(process.execPath, ['--import', 'tsx', script], {
        cwd: process.cwd(),
        uid: 65534,
        gid: 65534,
        env: { PATH: process.env.PATH ?? '', HOME: root },
        encoding: 'utf8',
      });
      assert.equal(child.status, 0, child.stderr);
      const outcome = JSON.parse(child.stdout.trim()) as { kind: string; message: string };
      assert.equal(outcome.kind, 'unreachable');
      assert.equal(
        outcome.message,
        `Cannot reach the engine at unix://${path}: permission denied on the socket. Add your user to the docker group (sudo usermod -aG docker $USER, then log in again) or fix the socket's permissions`,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  void it('an aborted call is kind cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failureOf(clientFor(`unix://${join(root, 'whatever.sock')}`).containers.list({ signal: controller.signal }));
    assert.equal(error.kind, 'cancelled');
    assert.equal(error.message, 'Cancelled');
  });

  void it('a bad fixed API version is refused before any call', () => {
    assert.throws(
      () => new EngineClient({ endpoint: parseHost('unix:///x.sock', {}), apiVersion: 'latest' }),
      /Invalid API version "latest"\. Write it as major\.minor, e\.g\. 1\.41, or leave it unset to negotiate/,
    );
  });
});

void it('a refused remove of a running container: a conflict on both engines, with the force hint', () => {
  const docker = engineErrorFromResponse(
    409,
    JSON.stringify({ message: `You cannot remove a running container ${'4'.repeat(64)}. Stop the container before attempting removal or force remove` }),
    { subject: 'container' },
  );
  // Podman 4.3's words and status, as its compat API answered DELETE /containers/<id> in this repository's engines.
  const podman = engineErrorFromResponse(
    500,
    JSON.stringify({ cause: 'container state improper', message: `cannot remove container ${'3'.repeat(64)} as it is running - running or paused containers cannot be removed without force: container state improper`, response: 500 }),
    { subject: 'container' },
  );
  for (const error of [docker, podman]) {
    assert.equal(error.kind, 'conflict');
    assert.equal(error.hint, 'Stop it first, or remove it with force');
    assert.equal(isRunningRemoveRefusal(error), true);
  }
  const inUse = engineErrorFromResponse(409, JSON.stringify({ message: 'conflict: unable to delete 1234 (cannot be forced) - image is being used by running container 5678' }), { subject: 'image' });
  assert.equal(isRunningRemoveRefusal(inUse), false, 'an image in use is another refusal');
  assert.equal(isRunningRemoveRefusal(new Error('cannot remove a running container')), false, 'only an engine error');
});
