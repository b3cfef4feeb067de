// EngineClient image endpoints against the real private dockerd and the loopback registry that demands auth:
// tag, push, pull with and without credentials, failures before and inside the 200 stream, import, commit, remove.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EngineError, type PullProgress, type RegistryCredential } from '../../../../src/engine';
import { useEngineSuite } from '../../../support/engineSuite';
import { uniqueName } from '../../../support/engines';
import { failureOf } from '../../../support/assertions';
import { drain } from '../../../support/wait';

const suite = useEngineSuite({ name: 'client-images' });
const { client, engines } = suite;
const registry = engines.registry;
const auth: RegistryCredential = { username: registry.username, password: registry.password, serveraddress: registry.address };
const unique = uniqueName('img').toLowerCase();
const repo = `${registry.address}/berth-client-test/${unique}`;
const images: string[] = [];

async function removeImageIfPresent(name: string): Promise<void> {
  try {
    await client.images.remove(name, { force: true });
  } catch (error) {
    if (!(error instanceof EngineError && error.kind === 'not-found')) throw error;
  }
}

/** Runs a container from IMAGE with CMD to completion and returns its stdout. */
async function runAndRead(image: string, cmd: string[]): Promise<string> {
  const Id = await suite.createContainer(cmd, { Image: image });
  const wait = await client.containers.wait(Id, { condition: 'next-exit' });
  await client.containers.start(Id);
  assert.equal((await wait.result).StatusCode, 0);
  let out = '';
  for await (const chunk of client.containers.logs(Id, { tty: false })) if (chunk.stream === 'stdout') out += chunk.data.toString();
  return out;
}

/** Creates a container of the test image running CMD, runs it to its exit and returns its id. */
async function runToExit(cmd: string[]): Promise<string> {
  const Id = await suite.createContainer(cmd);
  const wait = await client.containers.wait(Id, { condition: 'next-exit' });
  await client.containers.start(Id);
  await wait.result;
  return Id;
}

/** The Registry HTTP API v2 with basic auth, for setting up a broken image. */
async function registryCall(method: string, path: string, accept?: string): Promise<Response> {
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${registry.username}:${registry.password}`).toString('base64')}`,
  };
  if (accept) headers.accept = accept;
  return fetch(`http://${registry.address}${path}`, { method, headers });
}

suite.cleanup(async () => {
  for (const image of images) await removeImageIfPresent(image);
});

void describe('images on dockerd with the loopback registry', () => {
  void it('tags an image and lists and inspects it', async () => {
    await client.images.tag(engines.image, { repo, tag: 'v1' });
    images.push(`${repo}:v1`);
    const inspected = await client.images.inspect(`${repo}:v1`);
    assert.ok(inspected.RepoTags?.includes(`${repo}:v1`));
    const listed = await client.images.list({ filters: { reference: [`${repo}:v1`] } });
    assert.equal(listed.length, 1);
    assert.equal(listed[0]?.Id, inspected.Id);
  });

  void it('a push without credentials fails inside the stream with the registry’s message', async () => {
    const error = await failureOf(drain(client.images.push(`${repo}:v1`)));
    assert.equal(error.kind, 'unauthorized');
    assert.equal(error.status, undefined, 'the failure came in-band, after a 200');
    assert.equal(
      error.message,
      'no basic auth credentials. Sign in to the registry (Berth: Sign In to Registry, or docker login) with an account allowed to push it, then try again',
    );
  });

  void it('pushes with credentials, streaming progress', async () => {
    const lines = await drain(client.images.push(`${repo}:v1`, { auth }));
    assert.match(lines[0]?.status ?? '', new RegExp(`The push refers to repository \\[${repo.replace(/[.]/g, '\\.')}\\]`));
    assert.ok(lines.some((line) => /^v1: digest: sha256:[0-9a-f]{64} size: \d+$/.test(line.status ?? '')), JSON.stringify(lines));
  });

  void it('a pull without credentials fails with the registry’s message', async () => {
    await removeImageIfPresent(`${repo}:v1`);
    const error = await failureOf(drain(client.images.pull(`${repo}:v1`)));
    assert.equal(error.kind, 'unauthorized');
    assert.equal(
      error.message,
      `Head "http://${registry.address}/v2/berth-client-test/${unique}/manifests/v1": no basic auth credentials. Sign in to the registry (Berth: Sign In to Registry, or docker login) and try again`,
    );
  });

  void it('a pull with a wrong password fails with the registry’s message', async () => {
    const error = await failureOf(drain(client.images.pull(`${repo}:v1`, { auth: { ...auth, password: 'wrong-password' } })));
    assert.equal(error.kind, 'unauthorized');
    // Credentials were sent, so the refusal is about them, not about signing in at all.
    assert.equal(error.message, 'unauthorized: authentication required. The registry refused these credentials: check the user name and password, then sign in again');
    assert.ok(!error.message.includes('wrong-password'));
  });

  void it('pulls with credentials (X-Registry-Auth the daemon decodes) and the image runs', async () => {
    const lines = await drain(client.images.pull(`${repo}:v1`, { auth }));
    assert.ok(lines.some((line) => /^Digest: sha256:/.test(line.status ?? '')), JSON.stringify(lines));
    assert.ok(lines.some((line) => line.status === `Status: Downloaded newer image for ${repo}:v1` || line.status === `Status: Image is up to date for ${repo}:v1`));
    assert.equal(await runAndRead(`${repo}:v1`, ['echo', 'pulled']), 'pulled\n');
  });

  void it('a tag missing from the registry is not-found with the registry’s message', async () => {
    const error = await failureOf(drain(client.images.pull(`${repo}:missing`, { auth })));
    assert.equal(error.kind, 'not-found');
    assert.equal(error.message, `manifest for ${repo}:missing not found: manifest unknown: manifest unknown. Check the image name and tag, and sign in if the repository is private`);
  });

  void it('a pull that fails inside its 200 stream (a layer the registry lost) throws the errorDetail message', async () => {
    // An image with a layer of its own: commit a container that wrote a unique file.
    const Id = await runToExit(['sh', '-c', `echo ${unique} > /unique-layer`]);
    const broken = `${registry.address}/berth-client-test/${unique}-broken`;
    await client.containers.commit(Id, { repo: broken, tag: 'v1' });
    images.push(`${broken}:v1`);
    await drain(client.images.push(`${broken}:v1`, { auth }));
    // Make the registry lose the unique layer, through its own API.
    const manifestResponse = await registryCall('GET', `/v2/berth-client-test/${unique}-broken/manifests/v1`, 'application/vnd.docker.distribution.manifest.v2+json');
    const manifest = (await manifestResponse.json()) as { layers: Array<{ digest: string }> };
    const layer = manifest.layers.at(-1)?.digest;
    assert.ok(layer);
    assert.equal((await registryCall('DELETE', `/v2/berth-client-test/${unique}-broken/blobs/${layer}`)).status, 202);
    await removeImageIfPresent(`${broken}:v1`);

    const seen: PullProgress[] = [];
    const error = await failureOf(
      (async () => {
        for await (const line of client.images.pull(`${broken}:v1`, { auth })) seen.push(line);
      })(),
    );
    assert.equal(error.status, undefined, 'the failure came in-band, after a 200');
    assert.ok(seen.some((line) => line.status === 'Pulling fs layer'), JSON.stringify(seen));
    assert.equal(error.kind, 'not-found');
    assert.equal(error.message, 'unknown blob. Check the image name and tag');
  });

  void it('imports a tarball as an image with changes', async () => {
    const tar = readFileSync(join(engines.stateDir, 'image', 'busybox-rootfs.tar'));
    const name = `berth-client-test/imported-${unique}`;
    const { Id } = await client.images.import(tar, { repo: name, tag: 'v1', changes: ['CMD ["/bin/echo", "imported"]', 'LABEL berth.test.import=1'] });
    images.push(`${name}:v1`);
    assert.match(Id ?? '', /^sha256:[0-9a-f]{64}$/);
    const inspected = await client.images.inspect(`${name}:v1`);
    assert.equal(inspected.Id, Id);
    assert.deepEqual(inspected.Config?.Cmd, ['/bin/echo', 'imported']);
    assert.equal(inspected.Config?.Labels?.['berth.test.import'], '1');
  });

  void it('commits a container with repo, tag, comment, author and changes', async () => {
    const Id = await runToExit(['sh', '-c', 'echo committed-content > /committed']);
    const name = `berth-client-test/committed-${unique}`;
    const result = await client.containers.commit(Id, {
      repo: name,
      tag: 'v2',
      comment: 'made by a test ✓',
      author: 'Berth Test <test@example.com>',
      changes: ['CMD ["cat", "/committed"]', 'ENV BERTH_COMMITTED=yes'],
    });
    images.push(`${name}:v2`);
    assert.match(result.Id, /^sha256:[0-9a-f]{64}$/);
    const inspected = await client.images.inspect(`${name}:v2`);
    assert.equal(inspected['Comment'], 'made by a test ✓');
    assert.equal(inspected['Author'], 'Berth Test <test@example.com>');
    assert.deepEqual(inspected.Config?.Cmd, ['cat', '/committed']);
    assert.equal(await runAndRead(`${name}:v2`, ['cat', '/committed']), 'committed-content\n');
  });

  void it('removing an unknown image says to check the name', async () => {
    const error = await failureOf(client.images.remove(`berth-client-test/none-${unique}:v9`));
    assert.equal(error.kind, 'not-found');
    assert.equal(error.message, `No such image: berth-client-test/none-${unique}:v9. Pull it first, or check the image name and tag`);
  });

  void it('refuses credentials for a non-loopback registry the engine reaches over plain HTTP', async () => {
    const info = await client.system.info();
    const cidrs = (info['RegistryConfig'] as { InsecureRegistryCIDRs?: string[] }).InsecureRegistryCIDRs ?? [];
    assert.ok(cidrs.includes('127.0.0.0/8'));
    // An explicit http:// address is plain HTTP whatever the engine says.
    const error = await failureOf(drain(client.images.pull('registry.example.com/app:1', { auth: { ...auth, serveraddress: 'http://registry.example.com' } })));
    assert.equal(error.kind, 'bad-request');
    assert.equal(
      error.message,
      "Refusing to send credentials to registry.example.com: it is reached over plain HTTP, so the password would cross the network as clear text. Serve the registry over HTTPS (remove it from the engine's insecure-registries), or use it anonymously",
    );
    // The loopback registry is insecure but loopback: allowed (proved by the successful pull above).
  });
});
