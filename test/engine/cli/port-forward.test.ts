// `berth port-forward` next to kubectl port-forward's documented behaviour, on dockerd and Podman: its
// "Forwarding from 127.0.0.1:LOCAL -> PORT" and "Handling connection for LOCAL" lines, status 0 on Ctrl-C and
// SIGTERM, a message and status 1 when the container stops; and next to `docker exec -i … nc` for the bytes.
import assert from 'node:assert/strict';
import { execFile, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { execCapture } from '../../../src/engine/files';
import { enginesDockerConfig } from '../../support/dockerHome';
import { engineTargets, loadTestEngines } from '../../support/engines';
import { expectedMessage } from '../engine/bad-input-cases';
import { collect, createCliHarness, eventually, type CliHarness } from './support';

const execFileAsync = promisify(execFile);
const SERVERS = 'mkdir -p /www && head -c 1048576 /dev/urandom > /www/blob && echo hello > /www/small && touch /tmp/ready && exec httpd -f -p 127.0.0.1:8080 -h /www';

/** Resolves with the local port once berth printed its Forwarding line for CONTAINER_PORT. */
function forwardingPort(child: ChildProcess, containerPort: number): Promise<number> {
  let seen = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = new RegExp(`^Forwarding from 127\\.0\\.0\\.1:(\\d+) -> ${containerPort}$`, 'm').exec(seen);
      if (match) resolve(Number(match[1]));
    });
    child.on('close', () => reject(new Error(`berth ended before forwarding: ${JSON.stringify(seen)}`)));
  });
}

/** An HTTP/1.0 GET through the forward; the whole answer. */
function get(port: number, path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(`GET ${path} HTTP/1.0\r\n\r\n`));
    socket.on('data', (data: Buffer) => parts.push(data));
    socket.on('end', () => resolve(Buffer.concat(parts)));
    socket.on('error', reject);
  });
}

const body = (answer: Buffer): Buffer => answer.subarray(answer.indexOf('\r\n\r\n') + 4);

for (const target of engineTargets(loadTestEngines())) {
  void describe(`berth port-forward (${target.name})`, { skip: target.skip }, () => {
    let harness: CliHarness;
    before(async () => {
      harness = await createCliHarness(`forward-${target.name}`);
    });
    after(async () => {
      await harness.dispose();
    });
    const host = { host: target.host };

    const servers = async (): Promise<string> => {
      const result = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, harness.engines.image, 'sh', '-c', SERVERS], host);
      assert.equal(result.code, 0, result.stderr);
      const id = result.stdout.trim();
      const client = harness.clientFor(target.host);
      await eventually('httpd to be ready', async () => (await execCapture(client, id, ['test', '-e', '/tmp/ready'])).exitCode === 0, 300);
      return id;
    };

    for (const [signal, name] of [
      ['SIGINT', 'Ctrl-C'],
      ['SIGTERM', 'SIGTERM'],
    ] as const) {
      void it(`prints kubectl's lines, carries the bytes docker exec carries, and exits 0 on ${name}`, async () => {
        const id = await servers();
        const child = harness.start(['port-forward', id, ':8080'], host);
        const result = collect(child);
        const port = await forwardingPort(child, 8080);
        const through = body(await get(port, '/blob'));
        assert.equal(through.length, 1048576);
        if (target.name === 'docker') {
          // The same bytes through docker's own exec pipe: the differential for bytes.
          const { stdout } = await execFileAsync('docker', ['exec', '-i', id, 'cat', '/www/blob'], {
            encoding: 'buffer',
            maxBuffer: 4 * 1048576,
            env: { ...process.env, DOCKER_HOST: target.host, DOCKER_CONFIG: enginesDockerConfig(harness.engines.stateDir) },
          });
          assert.ok(through.equals(stdout), 'the forward carries what docker exec carries');
        }
        child.kill(signal);
        const { code, stdout, stderr } = await result;
        assert.deepEqual({ code, stderr }, { code: 0, stderr: '' });
        assert.equal(stdout, `Forwarding from 127.0.0.1:${port} -> 8080\nHandling connection for ${port}\n`);
      });
    }

    void it('says so and exits 1 when the container stops', async () => {
      const id = await servers();
      const child = harness.start(['port-forward', id, '0:8080'], host);
      const result = collect(child);
      const port = await forwardingPort(child, 8080);
      assert.equal(body(await get(port, '/small')).toString('utf8'), 'hello\n');
      await harness.clientFor(target.host).containers.stop(id, { timeoutSeconds: 0 });
      const { code, stderr } = await result;
      const name = (await harness.clientFor(target.host).containers.inspect(id)).Name.replace(/^\//, '');
      assert.deepEqual({ code, stderr }, { code: 1, stderr: `berth: Container ${name} stopped: lost the forward\n` });
    });

    void it('refuses a port outside 1–65535 before opening anything', async () => {
      const id = await servers();
      const { code, stdout, stderr } = await harness.berth(['port-forward', id, '8080', '70000'], host);
      assert.deepEqual({ code, stdout, stderr }, { code: 1, stdout: '', stderr: `berth: ${expectedMessage('forward-port-range')}\n` });
    });
  });
}
