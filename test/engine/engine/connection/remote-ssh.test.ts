// ssh:// against Debian's sshd on 127.0.0.1 (scripts/lib/remote.sh): the transport runs the real ssh client
// (`ssh … -- 127.0.0.1 docker system dial-stdio`, with a private config instead of ~/.ssh) and speaks HTTP over its
// stdio; on the far side dial-stdio reaches the remote dockerd.
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { after, describe, it } from 'node:test';
import { EngineClient, EngineError, parseHost, sshConnector } from '../../../../src/engine';
import { loadRemoteEngines } from '../../../support/remote';
import { exerciseEngine } from './remote-support';

const remote = loadRemoteEngines();
const clients: EngineClient[] = [];

function sshClient(host: string): EngineClient {
  const endpoint = parseHost(host, {});
  const client = new EngineClient({ endpoint, transport: { connector: sshConnector(endpoint, remote.ssh.command) } });
  clients.push(client);
  return client;
}

after(async () => {
  for (const client of clients) await client.close();
});

void describe('ssh:// remote engine', () => {
  void it('ping, run, list, logs and a cancelled followed log over ssh … docker system dial-stdio', async () => {
    const client = sshClient(remote.ssh.host);
    assert.equal(client.endpoint.kind, 'ssh');
    assert.equal(client.endpoint.display, remote.ssh.host);
    await exerciseEngine(client, remote.image, 'ssh');
  });

  void it('DOCKER_HOST=ssh://… resolves to the `ssh` on PATH, as the docker CLI does', async () => {
    // The wrapper named `ssh` first on PATH is how a user's own ssh setup would be found; spawn reads PATH per call.
    const savedPath = process.env.PATH;
    process.env.PATH = `${dirname(remote.ssh.command)}:${savedPath ?? ''}`;
    try {
      const client = EngineClient.fromEnvironment({ env: { DOCKER_HOST: remote.ssh.host } });
      clients.push(client);
      assert.equal(client.endpoint.source, 'DOCKER_HOST');
      const images = await client.images.list();
      assert.ok(images.some((image) => image.RepoTags?.includes(remote.image)));
    } finally {
      process.env.PATH = savedPath;
    }
  });

  void it('many calls in parallel open several ssh connections and all succeed', async () => {
    const client = sshClient(remote.ssh.host);
    const results = await Promise.all(Array.from({ length: 12 }, () => client.images.list()));
    assert.equal(results.length, 12);
    for (const images of results) assert.ok(images.some((image) => image.RepoTags?.includes(remote.image)));
  });

  void it('a user the server refuses: unreachable, naming the ssh endpoint', async () => {
    const client = sshClient(remote.ssh.host.replace('root@', 'nobody@'));
    let failure: unknown;
    try {
      await client.system.ping();
    } catch (error) {
      failure = error;
    }
    assert.ok(failure instanceof EngineError, String(failure));
    assert.equal(failure.kind, 'unreachable');
    assert.match(failure.message, /^Cannot reach the engine at ssh:\/\/nobody@127\.0\.0\.1:\d+: ssh exited with status 255: /);
    // ssh's own words, not a generic "connection closed".
    assert.match(failure.message, /Permission denied \(publickey\)/);
  });
});
