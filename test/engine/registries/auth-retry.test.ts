// withRegistryAuthRetry and the push progress sums against the real dockerd and the real loopback registry:
// the engine's own refusal ("no basic auth credentials") triggers the sign-in offer, and the retry succeeds.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EngineClient } from '../../../src/engine/api';
import type { RegistryCredential } from '../../../src/engine/connection';
import { isRegistryAuthFailure, withRegistryAuthRetry } from '../../../src/registries/authRetry';
import { CredentialChain, type CredentialSource } from '../../../src/registries/credentialChain';
import { LayerProgress } from '../../../src/common/layerProgress';
import { loadTestEngines, type TestEngines } from '../../support/engines';

const REPOSITORY = 'berth/auth-retry-test';

/** Stands in for Berth's sign-ins: what `offerSignIn` stores, the next lookup finds. */
function signInsSource(): CredentialSource & { entries: Map<string, RegistryCredential> } {
  const entries = new Map<string, RegistryCredential>();
  return { name: 'berth', entries, lookup: (key) => Promise.resolve(entries.get(key)) };
}

void describe('pull and push with sign-in retry (real engine, real registry)', () => {
  let engines: TestEngines;
  let engine: EngineClient;
  let reference: string;

  before(async () => {
    engines = loadTestEngines();
    engine = EngineClient.fromEnvironment({ host: engines.dockerHost });
    reference = `${engines.registry.address}/${REPOSITORY}:latest`;
    await engine.images.tag(engines.image, { repo: `${engines.registry.address}/${REPOSITORY}`, tag: 'latest' });
  });

  after(async () => {
    await engine.images.remove(reference).catch(() => undefined);
    await engine.close();
  });

  void it('push: refused without credentials, offered a sign-in, pushed on the retry with summed layer bytes', async () => {
    const signIns = signInsSource();
    const offers: { registry: string; message: string }[] = [];
    const attempts: (string | undefined)[] = [];
    const result = await withRegistryAuthRetry(
      reference,
      async ({ credential, source }) => {
        attempts.push(source);
        const progress = new LayerProgress();
        for await (const line of engine.images.push(reference, credential ? { auth: credential } : {})) progress.update(line);
        return { totals: progress.totals, digest: progress.digest };
      },
      {
        chain: new CredentialChain([signIns]),
        offerSignIn: (registry, message) => {
          offers.push({ registry, message });
          signIns.entries.set(registry, { username: engines.registry.username, password: engines.registry.password, serveraddress: registry });
          return Promise.resolve(true);
        },
      },
    );
    assert.deepEqual(attempts, [undefined, 'berth']);
    assert.equal(offers.length, 1);
    assert.equal(offers[0]?.registry, engines.registry.address);
    assert.match(offers[0]?.message ?? '', /no basic auth credentials|unauthorized|authentication required/i);
    assert.ok(!offers[0]?.message.includes(engines.registry.password));
    assert.match(result.digest ?? '', /^sha256:[0-9a-f]{64}$/);
    assert.ok(result.totals.layers >= 1, 'at least one layer reported');
    assert.equal(result.totals.doneLayers, result.totals.layers, 'every layer pushed or already there');
  });

  void it('pull: refused anonymously, the user declines the sign-in, the engine refusal is rethrown', async () => {
    await engine.images.remove(reference).catch(() => undefined);
    let offered = 0;
    await assert.rejects(
      withRegistryAuthRetry(
        reference,
        async ({ credential }) => {
          for await (const _line of engine.images.pull(reference, credential ? { auth: credential } : {})) {
            // Drain: the pull ends with the stream.
          }
        },
        { chain: new CredentialChain([signInsSource()]), offerSignIn: () => Promise.resolve(++offered < 0) },
      ),
      (error: unknown) => isRegistryAuthFailure(error),
    );
    assert.equal(offered, 1);
  });

  void it('pull: a wrong stored password is refused, the sign-in replaces it, the retry pulls', async () => {
    const signIns = signInsSource();
    signIns.entries.set(engines.registry.address, { username: engines.registry.username, password: 'stale-password', serveraddress: engines.registry.address });
    let attempts = 0;
    await withRegistryAuthRetry(
      reference,
      async ({ credential }) => {
        attempts++;
        for await (const _line of engine.images.pull(reference, credential ? { auth: credential } : {})) {
          // Drain.
        }
      },
      {
        chain: new CredentialChain([signIns]),
        offerSignIn: (registry) => {
          signIns.entries.set(registry, { username: engines.registry.username, password: engines.registry.password, serveraddress: registry });
          return Promise.resolve(true);
        },
      },
    );
    assert.equal(attempts, 2);
    assert.ok((await engine.images.inspect(reference)).Id);
  });

  void it('a failure that is not about credentials is not retried', async () => {
    let offered = 0;
    await assert.rejects(
      withRegistryAuthRetry(
        `${engines.registry.address}/${REPOSITORY}:no-such-tag`,
        async ({ credential }) => {
          for await (const _line of engine.images.pull(`${engines.registry.address}/${REPOSITORY}:no-such-tag`, credential ? { auth: credential } : {})) {
            // Drain.
          }
        },
        {
          chain: new CredentialChain([
            { name: 'docker-config', lookup: (key) => Promise.resolve({ username: engines.registry.username, password: engines.registry.password, serveraddress: key }) },
          ]),
          offerSignIn: () => Promise.resolve(++offered > 0),
        },
      ),
      (error: unknown) => !isRegistryAuthFailure(error) && /not found|unknown/i.test((error as Error).message),
    );
    assert.equal(offered, 0);
  });
});
