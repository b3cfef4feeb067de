// Port forwarding through the engine API (issue 37), on the real private dockerd and Podman: containers on
// `--network none` reached through an `nc` exec (piped through dd) over a hijacked connection, or through a helper container in their
// namespace when they have no `nc`. Byte-exact 50 MB both ways, 50 connections at once, half-closes, the container
// stopped mid-transfer, and the refusals of the bad-input table.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { ForwardRelay, parsePortForwardSpec, PortForward, forwardPorts, type EngineClient, type ForwardSession } from '../../../../src/engine';
import { execCapture } from '../../../../src/engine/files';
import { importScratchImage, SCRATCH_SLEEP } from '../../../support/scratchImage';
import { engineTargets, loadTestEngines, uniqueName } from '../../../support/engines';
import { useEngineSuite } from '../../../support/engineSuite';
import { eventually } from '../../cli/support';
import { assertCase } from '../bad-input-support';
import { expectedMessage } from '../bad-input-cases';

const engines = loadTestEngines();
const MB = 1024 * 1024;
const BIG = 50 * MB;
/**
 * Podman 4.3's exec attach once ended a 50 MB answer after 10 MB on a loaded machine, when `nc` exited before the
 * engine had passed all of its output on (not a forward's fault: Berth ends a connection only at the engine's end of
 * stream). On Podman the round trip is 8 MiB.
 */
const PODMAN_BIG = 8 * MB;

/** Serves /www on 127.0.0.1:8080 (httpd), echoes on 9000 (cat), counts what it got until EOF on 9001 (wc -c), and streams zeros on 9002. */
const SERVERS = [
  'mkdir -p /www',
  'head -c 52428800 /dev/urandom > /www/big',
  'head -c 8388608 /dev/urandom > /www/medium',
  'echo hello > /www/small',
  'nc -ll -p 9000 -e cat &',
  'nc -ll -p 9001 -e wc -c &',
  'nc -ll -p 9002 -e cat /dev/zero &',
  'touch /tmp/ready',
  'exec httpd -f -p 127.0.0.1:8080 -h /www',
].join('\n');

/** Opens a connection to the forward; resolves once connected. */
function dial(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes `request` (then half-closes when asked) and collects everything until the far side closes. */
async function exchange(port: number, request: Buffer | string, halfClose: boolean): Promise<Buffer> {
  const socket = await dial(port);
  const parts: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    socket.on('data', (data: Buffer) => parts.push(data));
    socket.on('end', () => resolve());
    socket.on('error', reject);
  });
  if (halfClose) socket.end(request);
  else socket.write(request);
  await done;
  socket.destroy();
  return Buffer.concat(parts);
}

function httpBody(response: Buffer): Buffer {
  const split = response.indexOf('\r\n\r\n');
  assert.ok(split > 0, `an HTTP answer, got ${JSON.stringify(response.subarray(0, 200).toString('latin1'))}`);
  return response.subarray(split + 4);
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

async function serversContainer(suite: ReturnType<typeof useEngineSuite>): Promise<string> {
  const id = await suite.createContainer(['sh', '-c', SERVERS]);
  await suite.client.containers.start(id);
  await eventually('the servers in the container to start', async () => (await execCapture(suite.client, id, ['test', '-e', '/tmp/ready'])).exitCode === 0, 300);
  return id;
}

async function containerName(client: EngineClient, id: string): Promise<string> {
  return (await client.containers.inspect(id)).Name.replace(/^\//, '');
}

for (const target of engineTargets(engines)) {
  void describe(`port forwarding on ${target.name}`, { skip: target.skip }, () => {
    const suite = useEngineSuite({ host: target.host, name: `forward-${target.name}`, skip: target.skip });
    const { client } = suite;
    const sessions: ForwardSession[] = [];
    const open = async (id: string, ports: string[], helperImage?: string, plainNc?: boolean): Promise<ForwardSession> => {
      const session = await forwardPorts(client, id, ports.map(parsePortForwardSpec), { helperImage, plainNc });
      sessions.push(session);
      return session;
    };
    suite.cleanup(async () => {
      for (const session of sessions) await session.close();
    });

    void it('carries 50 MB (8 MiB on Podman) byte-exact both ways to a --network none container, and passes a half-close on', async () => {
      const id = await serversContainer(suite);
      const session = await open(id, [':8080', ':9000', '0:9001']);
      assert.equal(session.relay.throughHelper, false, 'busybox has nc: no helper');
      assert.equal(session.relay.program, 'piped', 'busybox has sh and dd: the output of nc goes through dd');
      const [http, echo, counter] = session.forwards.map((forward) => forward.localPort) as [number, number, number];
      const [file, size] = target.name === 'podman' ? ['medium', PODMAN_BIG] : ['big', BIG];
      const served = await execCapture(client, id, ['sha256sum', `/www/${file}`]);
      const download = httpBody(await exchange(http, `GET /${file} HTTP/1.0\r\n\r\n`, false));
      assert.equal(download.length, size);
      assert.equal(sha256(download), served.stdout.toString('utf8').split(' ')[0]);
      const upload = randomBytes(size);
      const echoed = await exchange(echo, upload, true);
      assert.equal(echoed.length, size, 'everything sent came back');
      assert.ok(echoed.equals(upload), 'the echo is byte-exact');
      // wc -c answers only after EOF: the answer proves the client's FIN reached the port through the relay.
      assert.equal((await exchange(counter, 'abcdef', true)).toString('utf8').trim(), '6');
    });

    void it('passes each small answer on at once, without waiting for a block to fill or for the end', async () => {
      const id = await serversContainer(suite);
      const session = await open(id, [':9000']);
      const socket = await dial((session.forwards[0] as PortForward).localPort);
      try {
        let received = '';
        socket.on('data', (data: Buffer) => (received += data.toString('utf8')));
        for (const word of ['first\n', 'second\n', 'third\n']) {
          const expected = received + word;
          socket.write(word);
          // The connection stays open: an answer held back until dd filled 64 KiB or saw EOF would never come.
          await eventually(`the echo of ${word.trim()} while the connection is open`, () => Promise.resolve(received === expected));
        }
      } finally {
        socket.destroy();
      }
    });

    void it('carries bytes and a half-close with nc alone, the relay of a container without dd', async () => {
      const id = await serversContainer(suite);
      const session = await open(id, [':9000', ':9001'], undefined, true);
      assert.equal(session.relay.program, 'nc');
      const [echo, counter] = session.forwards.map((forward) => forward.localPort) as [number, number];
      const upload = randomBytes(PODMAN_BIG);
      const echoed = await exchange(echo, upload, true);
      assert.equal(echoed.length, upload.length, 'everything sent came back');
      assert.ok(echoed.equals(upload), 'the echo is byte-exact');
      assert.equal((await exchange(counter, 'abcdef', true)).toString('utf8').trim(), '6');
    });

    void it('handles 50 connections at once, each with its own answer', async () => {
      const id = await serversContainer(suite);
      const session = await open(id, [':8080']);
      const forward = session.forwards[0] as PortForward;
      const bodies = await Promise.all(Array.from({ length: 50 }, () => exchange(forward.localPort, 'GET /small HTTP/1.0\r\n\r\n', false)));
      for (const body of bodies) assert.equal(httpBody(body).toString('utf8'), 'hello\n');
      assert.equal(forward.accepted, 50);
      await eventually('every connection to close', () => Promise.resolve(forward.activeConnections === 0));
    });

    void it('ends the forward and says so when the container stops mid-transfer', async () => {
      const id = await serversContainer(suite);
      const session = await open(id, [':9002']);
      const forward = session.forwards[0] as PortForward;
      const socket = await dial(forward.localPort);
      let received = 0;
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('data', (data: Buffer) => (received += data.length));
      socket.on('error', () => undefined);
      await eventually('bytes to flow', () => Promise.resolve(received > MB), 300);
      await client.containers.stop(id, { timeoutSeconds: 0 });
      const end = await forward.ended;
      assert.equal(end.reason, 'container-stopped');
      assert.equal(end.message, `Container ${await containerName(client, id)} stopped`);
      await closed;
      await assert.rejects(dial(forward.localPort), (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED');
    });

    void it('forwards to a container without nc through a helper in its namespace, and removes the helper', async () => {
      const source = await suite.createContainer(['sleep', '600']);
      await client.containers.start(source);
      const repo = uniqueName(`forward-scratch-${suite.marker}`).toLowerCase();
      const image = await importScratchImage(client, source, repo);
      suite.cleanup(() => client.images.remove(image, { force: true }));
      const id = await suite.createContainer(['/tool/busybox', 'httpd', '-f', '-p', '127.0.0.1:8080', '-h', '/app'], { Image: image });
      await client.containers.start(id);
      const session = await open(id, [':8080'], engines.image);
      assert.equal(session.relay.throughHelper, true);
      const helper = session.relay.helperId as string;
      const inspect = await client.containers.inspect(helper);
      assert.equal(inspect.HostConfig.NetworkMode, `container:${id}`);
      const port = (session.forwards[0] as PortForward).localPort;
      await eventually('httpd in the scratch container to answer', async () => (await exchange(port, 'GET /config.txt HTTP/1.0\r\n\r\n', false)).includes('setting=1'), 100);
      await session.close();
      await eventually('the helper to be gone', async () => (await client.containers.list({ all: true, filters: { id: [helper] } })).length === 0);
    });

    void it('reports a port nothing listens on in the engine-side words, and keeps forwarding', async () => {
      const id = await serversContainer(suite);
      const errors: Error[] = [];
      const session = await forwardPorts(client, id, [parsePortForwardSpec(':9999')], { onConnectionError: (error) => errors.push(error) });
      sessions.push(session);
      const forward = session.forwards[0] as PortForward;
      const answer = await exchange(forward.localPort, 'hello', false).catch(() => Buffer.alloc(0));
      assert.equal(answer.length, 0);
      await eventually('the refusal to be reported', () => Promise.resolve(errors.length === 1));
      const expected = expectedMessage('forward-nothing-listens', { port: '9999', name: await containerName(client, id) });
      if (target.name === 'docker') assert.equal(errors[0]?.message, expected);
      else {
        // Podman's attach sometimes loses what nc printed as it exits and sends its own words ("connection reset by
        // peer"): the refusal is the same row, with the engine's words in the middle.
        const [head, tail] = expected.split("nc: can't connect to remote host (127.0.0.1): Connection refused") as [string, string];
        assert.ok(errors[0]?.message.startsWith(head) && errors[0].message.endsWith(tail), errors[0]?.message);
      }
      assert.equal(forward.endedWith, undefined, 'one refused connection does not end the forward');
    });

    void it('refuses a container that is not running, a port in use, and a missing helper image', async () => {
      const created = await suite.createContainer(['sleep', '600']);
      await assertCase('forward-not-running', () => ForwardRelay.open(client, created), { name: await containerName(client, created) });

      const blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen({ host: '127.0.0.1', port: 0 }, resolve));
      const taken = (blocker.address() as { port: number }).port;
      try {
        const id = await serversContainer(suite);
        await assertCase('forward-local-in-use', () => open(id, [`${taken}:8080`]), { port: String(taken) });
      } finally {
        blocker.close();
      }

      const source = await suite.createContainer(['sleep', '600']);
      await client.containers.start(source);
      const repo = uniqueName(`forward-nonc-${suite.marker}`).toLowerCase();
      const image = await importScratchImage(client, source, repo);
      suite.cleanup(() => client.images.remove(image, { force: true }));
      const bare = await suite.createContainer(SCRATCH_SLEEP, { Image: image });
      await client.containers.start(bare);
      const absent = `berth-test/absent-${suite.marker.toLowerCase()}:none`;
      await assertCase('forward-no-helper-image', () => open(bare, [':80'], absent), { name: await containerName(client, bare), image: absent });
    });
  });
}

void describe('port forward arguments', () => {
  void it('reads [LOCAL:]PORT as kubectl does', () => {
    assert.deepEqual(parsePortForwardSpec('8080'), { localPort: 8080, containerPort: 8080 });
    assert.deepEqual(parsePortForwardSpec('9000:80'), { localPort: 9000, containerPort: 80 });
    assert.deepEqual(parsePortForwardSpec(':80'), { localPort: 0, containerPort: 80 });
    assert.deepEqual(parsePortForwardSpec('0:80'), { localPort: 0, containerPort: 80 });
  });

  void it('refuses a port outside 1–65535 and a word', async () => {
    await assertCase('forward-port-range', () => Promise.resolve().then(() => parsePortForwardSpec('70000')));
    await assertCase('forward-port-zero', () => Promise.resolve().then(() => parsePortForwardSpec('8080:0')));
    await assertCase('forward-port-word', () => Promise.resolve().then(() => parsePortForwardSpec('http')));
  });
});
