// Port forwarding over the remote transports (issue 37): the same `nc` exec over a hijacked connection, carried by
// tcp+TLS and by ssh … docker system dial-stdio to the remote dockerd, to a container on network none. An HTTP answer
// and a half-close (wc -c answers only after the client's FIN) through each.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, describe, it } from 'node:test';
import { EngineClient, forwardPorts, parseHost, parsePortForwardSpec, sshConnector } from '../../../../src/engine';
import { execCapture } from '../../../../src/engine/files';
import { containerSpec } from '../../../support/containerSpec';
import { loadRemoteEngines } from '../../../support/remote';
import { eventually } from '../../cli/support';

const remote = loadRemoteEngines();
const SERVERS = 'mkdir -p /www; echo remote-hello > /www/index.html; nc -ll -p 9001 -e wc -c & touch /tmp/ready; exec httpd -f -p 127.0.0.1:8080 -h /www';
const clients: EngineClient[] = [];

after(async () => {
  for (const client of clients) await client.close();
});

/** Writes REQUEST, half-closes, and reads until the far side closes. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect({ host: '127.0.0.1', port }, () => socket.end(request));
    socket.on('data', (data: Buffer) => (answer += data.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

async function forwardThrough(client: EngineClient): Promise<void> {
  clients.push(client);
  const { Id: id } = await client.containers.create(containerSpec(remote.image, ['sh', '-c', SERVERS]));
  try {
    await client.containers.start(id);
    await eventually('the servers to start', async () => (await execCapture(client, id, ['test', '-e', '/tmp/ready'])).exitCode === 0, 300);
    const session = await forwardPorts(client, id, [parsePortForwardSpec(':8080'), parsePortForwardSpec(':9001')]);
    try {
      const [http, counter] = session.forwards.map((forward) => forward.localPort) as [number, number];
      const answer = await exchange(http, 'GET / HTTP/1.0\r\n\r\n');
      assert.ok(answer.startsWith('HTTP/1.') && answer.endsWith('\r\n\r\nremote-hello\n'), answer);
      assert.equal((await exchange(counter, 'abcdef')).trim(), '6');
    } finally {
      await session.close();
    }
  } finally {
    await client.containers.remove(id, { force: true });
  }
}

void describe('port forwarding over remote transports', () => {
  void it('over tcp+TLS', async () => {
    await forwardThrough(EngineClient.fromEnvironment({ env: { DOCKER_HOST: remote.tls.host, DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: remote.tls.certPath } }));
  });

  void it('over ssh … docker system dial-stdio', async () => {
    const endpoint = parseHost(remote.ssh.host, {});
    await forwardThrough(new EngineClient({ endpoint, transport: { connector: sshConnector(endpoint, remote.ssh.command) } }));
  });
});
