/** `berth images`, `pull` (from the loopback registry that demands auth), `run` pulling a missing image, `version`. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ImageSummary } from '../../../src/engine';
import { createCliHarness, type CliHarness } from './support';

void describe('berth image commands', () => {
  let harness: CliHarness;
  let pulled: string;
  let credentialsConfig: string;
  before(async () => {
    harness = await createCliHarness('images');
    const { registry, registryImages } = harness.engines;
    pulled = registryImages.find((reference) => reference.endsWith('/berth/busybox:2.0')) ?? (registryImages[0] as string);
    credentialsConfig = harness.dockerConfig({
      auths: { [registry.address]: { auth: Buffer.from(`${registry.username}:${registry.password}`).toString('base64') } },
    });
    await removeImageQuietly(pulled);
  });
  after(async () => {
    await removeImageQuietly(pulled);
    await harness.dispose();
  });

  async function removeImageQuietly(reference: string): Promise<void> {
    try {
      await harness.client.images.remove(reference, { force: true });
    } catch {
      // Absent already: what we want.
    }
  }

  void it('images lists the test image as a table and as the engine\'s JSON', async () => {
    const table = await harness.berth(['images']);
    assert.equal(table.code, 0);
    assert.match(table.stdout, /^REPOSITORY +TAG +IMAGE ID +CREATED +SIZE\n/);
    const [repository, tag] = harness.engines.image.split(':') as [string, string];
    assert.match(table.stdout, new RegExp(`^${repository} +${tag} +[0-9a-f]{12} +.+ ago +[\\d.]+[kMG]?B$`, 'm'));
    const json = JSON.parse((await harness.berth(['images', '--json'])).stdout) as ImageSummary[];
    assert.ok(json.some((image) => image.RepoTags?.includes(harness.engines.image)));
  });

  void it('pull without credentials fails with the registry\'s own message on one line', async () => {
    const result = await harness.berth(['pull', pulled]);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    const manifest = pulled.replace(/^([^/]+)\/(.+):([^:]+)$/, 'http://$1/v2/$2/manifests/$3');
    assert.equal(result.stderr, `berth: Head "${manifest}": no basic auth credentials. Sign in to the registry (Berth: Sign In to Registry, or docker login) and try again\n`);
  });

  void it('pull with credentials from DOCKER_CONFIG succeeds: progress on stderr, the reference on stdout', async () => {
    const result = await harness.berth(['pull', pulled], { env: { DOCKER_CONFIG: credentialsConfig } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `${pulled}\n`);
    assert.match(result.stderr, /^2\.0: Pulling from berth\/busybox$/m);
    assert.match(result.stderr, new RegExp(`^Status: Downloaded newer image for ${pulled.replace(/[.]/g, '\\.')}$`, 'm'));
    const image = await harness.client.images.inspect(pulled);
    assert.ok(image.RepoTags?.includes(pulled));
  });

  void it('run pulls a missing image with the configured credentials, progress on stderr', async () => {
    await removeImageQuietly(pulled);
    const result = await harness.berth(['run', '--rm', '--network', 'none', ...harness.labelArgs, pulled, 'echo', 'ran'], {
      env: { DOCKER_CONFIG: credentialsConfig },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'ran\n');
    assert.match(result.stderr, new RegExp(`^Unable to find image '${pulled.replace(/[.]/g, '\\.')}' locally\n`));
    assert.match(result.stderr, /Status: Downloaded newer image for/);
  });

  void it('version names the engine, its API version and the negotiated one', async () => {
    const result = await harness.berth(['version']);
    assert.equal(result.code, 0, result.stderr);
    const info = await harness.client.system.version();
    assert.match(result.stdout, new RegExp(`^Engine: +Docker Engine$`, 'm'));
    assert.match(result.stdout, new RegExp(`^Version: +${info.Version.replace(/[.+]/g, '\\$&')}$`, 'm'));
    assert.match(result.stdout, new RegExp(`^API version: +${info.ApiVersion.replace('.', '\\.')} \\(minimum version [\\d.]+\\)$`, 'm'));
    assert.match(result.stdout, new RegExp(`^Negotiated API version: +${(await harness.client.negotiatedVersion()).replace('.', '\\.')}$`, 'm'));
    assert.match(result.stdout, new RegExp(`^Endpoint: +${harness.engines.dockerHost}$`, 'm'));
  });
});
