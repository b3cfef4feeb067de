// The Registry HTTP API v2 client against the real loopback registry (htpasswd auth) of `scripts/engines.sh`,
// with repositories and tags pushed here through the real dockerd (tag + push with X-Registry-Auth).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from 'undici';
import { EngineClient } from '../../../../src/engine/api';
import { isEngineError, type RegistryCredential } from '../../../../src/engine/connection';
import { RegistryClient, RegistryError } from '../../../../src/engine/registry';
import { loadTestEngines, type TestEngines } from '../../../support/engines';
import { drain } from '../../../support/wait';

/** Fixed names (not unique per run): pushing them again is idempotent, so the registry does not grow per run. */
const PUSHED_REPOSITORY = 'berth/registry-api-test';
const PUSHED_TAGS = ['one', 'two', 'three'];

void describe('registry v2 client against the real registry', () => {
  let engines: TestEngines;
  let engine: EngineClient;
  let credential: RegistryCredential;
  const localTags: string[] = [];

  before(async () => {
    engines = loadTestEngines();
    engine = EngineClient.fromEnvironment({ host: engines.dockerHost });
    credential = { username: engines.registry.username, password: engines.registry.password, serveraddress: engines.registry.address };
    // Tag the test image three times and push each tag: several tags in a repository of our own.
    for (const tag of PUSHED_TAGS) {
      const reference = `${engines.registry.address}/${PUSHED_REPOSITORY}:${tag}`;
      await engine.images.tag(engines.image, { repo: `${engines.registry.address}/${PUSHED_REPOSITORY}`, tag });
      localTags.push(reference);
      const lines = await drain(engine.images.push(reference, { auth: credential }));
      assert.ok(lines.some((line) => /digest: sha256:/.test(line.status ?? '')), `push of ${reference} reported a digest`);
    }
  });

  after(async () => {
    for (const reference of localTags) await engine.images.remove(reference).catch(() => undefined);
    await engine.close();
  });

  function client(options: { password?: string; anonymous?: boolean; log?: (line: string) => void } = {}): RegistryClient {
    return new RegistryClient({
      address: engines.registry.address,
      auth: options.anonymous ? undefined : { username: engines.registry.username, password: options.password ?? engines.registry.password },
      log: options.log,
    });
  }

  void it('pings /v2/ with Basic credentials after the 401 challenge', async () => {
    const lines: string[] = [];
    const registry = client({ log: (line) => lines.push(line) });
    try {
      assert.deepEqual(await registry.ping(), { apiVersion: 'registry/2.0' });
      assert.deepEqual(lines, [`registry GET ${engines.registry.address}/v2/ → 401`, `registry GET ${engines.registry.address}/v2/ → 200`]);
    } finally {
      await registry.close();
    }
  });

  void it('lists several repositories, one per page with n=1, following Link headers', async () => {
    const registry = client();
    try {
      const pages: string[][] = [];
      for await (const page of registry.catalogPages({ pageSize: 1 })) pages.push(page);
      const repositories = pages.flat();
      for (const expected of ['berth/busybox', 'berth/tools', PUSHED_REPOSITORY]) assert.ok(repositories.includes(expected), `${expected} in ${repositories.join(', ')}`);
      assert.ok(pages.length >= 3, `paged: ${JSON.stringify(pages)}`);
      assert.ok(pages.every((page) => page.length <= 1), 'n=1 pages hold one entry at most');
      assert.equal(new Set(repositories).size, repositories.length, 'no repository twice');
      // The same set unpaged (the registry orders by path components, so compare sorted copies).
      assert.deepEqual((await registry.catalog()).sort(), [...repositories].sort());
    } finally {
      await registry.close();
    }
  });

  void it('lists the tags of a repository, the ones pushed through the engine included', async () => {
    const registry = client();
    try {
      assert.deepEqual((await registry.tags(PUSHED_REPOSITORY, { pageSize: 1 })).sort(), [...PUSHED_TAGS].sort());
      const busybox = await registry.tags('berth/busybox');
      for (const tag of ['1.0', '2.0', 'latest']) assert.ok(busybox.includes(tag), `berth/busybox:${tag}`);
    } finally {
      await registry.close();
    }
  });

  void it('stops after `limit` entries', async () => {
    const registry = client();
    try {
      assert.equal((await registry.catalog({ pageSize: 1, limit: 2 })).length, 2);
    } finally {
      await registry.close();
    }
  });

  void it('an unknown repository is not-found with the registry message', async () => {
    const registry = client();
    try {
      await assert.rejects(registry.tags('berth/does-not-exist'), (error: unknown) => {
        assert.ok(error instanceof RegistryError);
        assert.equal(error.kind, 'not-found');
        assert.equal(error.registryMessage, 'repository name not known to registry');
        assert.deepEqual(error.codes, ['NAME_UNKNOWN']);
        return true;
      });
    } finally {
      await registry.close();
    }
  });

  void it('a wrong password is refused with the registry message, and the password is in no message', async () => {
    const wrong = 'wrong-Pa55word-xyz';
    const logLines: string[] = [];
    const registry = client({ password: wrong, log: (line) => logLines.push(line) });
    try {
      for (const call of [() => registry.ping(), () => registry.catalog()]) {
        await assert.rejects(call(), (error: unknown) => {
          assert.ok(error instanceof RegistryError);
          assert.equal(error.kind, 'unauthorized');
          assert.equal(error.status, 401);
          assert.equal(error.registryMessage, 'authentication required');
          assert.match(error.message, /Check the user name and password/);
          assert.ok(!`${error.message} ${error.stack ?? ''}`.includes(wrong));
          return true;
        });
      }
      assert.ok(logLines.length > 0 && logLines.every((line) => !line.includes(wrong) && !line.includes(engines.registry.username + ':')));
    } finally {
      await registry.close();
    }
  });

  void it('anonymous access is unauthorized and says to sign in', async () => {
    const registry = client({ anonymous: true });
    try {
      await assert.rejects(registry.catalog(), (error: unknown) => {
        assert.ok(error instanceof RegistryError);
        assert.equal(error.kind, 'unauthorized');
        assert.equal(error.registryMessage, 'authentication required');
        assert.match(error.message, /Sign in to this registry/);
        return true;
      });
    } finally {
      await registry.close();
    }
  });

  void it('pulling a registry image without credentials fails as unauthorized, with credentials it succeeds', async () => {
    const reference = `${engines.registry.address}/${PUSHED_REPOSITORY}:two`;
    await engine.images.remove(reference).catch(() => undefined);
    await assert.rejects(drain(engine.images.pull(reference)), (error: unknown) => {
      assert.ok(isEngineError(error));
      assert.match(error.message, /no basic auth credentials|unauthorized|authentication required/i);
      return true;
    });
    const lines = await drain(engine.images.pull(reference, { auth: credential }));
    assert.ok(lines.some((line) => /Downloaded newer image|Image is up to date/.test(line.status ?? '')), JSON.stringify(lines.at(-1)));
  });

  void it('refuses credentials for a plain-HTTP registry off loopback before any traffic', () => {
    let dispatched = 0;
    // A dispatcher that counts: the refusal must come before the client could use it.
    const counting = new (class extends Agent {
      override dispatch(...args: Parameters<Agent['dispatch']>): boolean {
        dispatched++;
        return super.dispatch(...args);
      }
    })();
    try {
      assert.throws(
        () => new RegistryClient({ address: 'http://203.0.113.1:5000', auth: { username: 'u', password: 'p4ss-word' }, dispatcher: counting }),
        (error: unknown) => {
          assert.ok(error instanceof RegistryError);
          assert.equal(error.kind, 'insecure');
          assert.match(error.message, /Refusing to send credentials to 203\.0\.113\.1:5000 over plain HTTP/);
          assert.ok(!error.message.includes('p4ss-word'));
          return true;
        },
      );
      assert.equal(dispatched, 0);
    } finally {
      void counting.close();
    }
  });
});
