// The credential lookup chain: Berth's sign-ins first, then the docker configuration (auths, credHelpers,
// credsStore, DOCKER_CONFIG). The docker side is the real DockerConfigCredentials over a real config.json in a
// temporary DOCKER_CONFIG, and a real docker-credential-* helper executable on a temporary PATH.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CredentialChain, registryKey, toRegistryAuth, type CredentialSource } from '../../../src/registries/credentialChain';
import { dockerConfigRegistries, dockerConfigSource } from '../../../src/registries/dockerConfigRegistries';
import type { RegistryCredential } from '../../../src/engine/connection';

function basic(user: string, password: string): string {
  return Buffer.from(`${user}:${password}`).toString('base64');
}

/** Berth's sign-ins as the chain sees them: a lookup by normalized key. */
function signIns(entries: Record<string, { username: string; password: string }>): CredentialSource {
  return {
    name: 'berth',
    lookup: (key) => Promise.resolve(entries[key] ? { ...entries[key], serveraddress: key } : undefined),
  };
}

function userOf(credential: RegistryCredential | undefined): string | undefined {
  return credential && 'username' in credential ? credential.username : undefined;
}

void describe('credential chain', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-cred-'));
    const bin = join(dir, 'bin');
    const config = join(dir, 'config');
    await Promise.all([mkdir(bin), mkdir(config)]);
    // A real credential helper: answers for helper.example.com, says "credentials not found" otherwise.
    const helper = join(bin, 'docker-credential-berthtest');
    await writeFile(
      helper,
      '#!/bin/sh\nread server\nif [ "$server" = "helper.example.com" ]; then\n' +
        '  printf \'{"ServerURL":"%s","Username":"helper-user","Secret":"helper-secret"}\' "$server"\n' +
        'else\n  echo "credentials not found in native keychain" >&2; exit 1\nfi\n',
    );
    await chmod(helper, 0o755);
    await writeFile(
      join(config, 'config.json'),
      JSON.stringify({
        auths: {
          '127.0.0.1:5055': { auth: basic('docker-user', 'docker-pass') },
          'https://index.docker.io/v1/': { auth: basic('hub-user', 'hub:pass:with:colons') },
          'http://both.example.com': { auth: basic('docker-both', 'x') },
        },
        credHelpers: { 'helper.example.com': 'berthtest' },
      }),
    );
    env = { ...process.env, DOCKER_CONFIG: config, PATH: `${bin}:${process.env.PATH ?? ''}` };
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  void it('asks Berth first, then the docker configuration', async () => {
    const chain = new CredentialChain([signIns({ 'both.example.com': { username: 'berth-both', password: 'y' } }), dockerConfigSource({ env })]);
    const both = await chain.find('both.example.com');
    assert.equal(both?.source, 'berth');
    assert.equal(userOf(both?.credential), 'berth-both');
    const dockerOnly = await chain.find('http://127.0.0.1:5055');
    assert.equal(dockerOnly?.source, 'docker-config');
    assert.deepEqual(dockerOnly?.credential, { username: 'docker-user', password: 'docker-pass', serveraddress: '127.0.0.1:5055' });
  });

  void it('uses a credHelper for its host and treats "credentials not found" as anonymous', async () => {
    const chain = new CredentialChain([signIns({}), dockerConfigSource({ env })]);
    assert.equal(userOf((await chain.find('helper.example.com'))?.credential), 'helper-user');
    assert.equal(await chain.find('nowhere.example.com'), undefined);
  });

  void it('finds Docker Hub under its config key whatever alias is asked, and keeps colons in the password', async () => {
    const chain = new CredentialChain([signIns({}), dockerConfigSource({ env })]);
    for (const alias of ['docker.io', 'index.docker.io', 'https://index.docker.io/v1/']) {
      const found = await chain.find(alias);
      assert.ok(found && 'password' in found.credential, alias);
      assert.equal(found.credential.password, 'hub:pass:with:colons');
    }
  });

  void it('skips a failing source, reporting it, and goes on down the chain', async () => {
    const broken: CredentialSource = { name: 'berth', lookup: () => Promise.reject(new Error('keychain locked')) };
    const failures: string[] = [];
    const chain = new CredentialChain([broken, dockerConfigSource({ env })]);
    const found = await chain.find('127.0.0.1:5055', (source, error) => failures.push(`${source}: ${(error as Error).message}`));
    assert.equal(found?.source, 'docker-config');
    assert.deepEqual(failures, ['berth: keychain locked']);
  });

  void it('asLookup matches the engine client CredentialLookup shape', async () => {
    const lookup = new CredentialChain([signIns({ '127.0.0.1:5055': { username: 'mine', password: 'p' } }), dockerConfigSource({ env })]).asLookup();
    assert.equal(userOf(await lookup('127.0.0.1:5055')), 'mine');
  });

  void it('lists the registries of auths and credHelpers, normalized', async () => {
    assert.deepEqual(await dockerConfigRegistries({ env }), ['127.0.0.1:5055', 'both.example.com', 'docker.io', 'helper.example.com']);
    assert.deepEqual(await dockerConfigRegistries({ env: { DOCKER_CONFIG: join(dir, 'missing') } }), []);
  });
});

void describe('registry keys', () => {
  void it('normalize schemes, paths, case and Docker Hub aliases', () => {
    assert.equal(registryKey('HTTP://127.0.0.1:5055/'), '127.0.0.1:5055');
    assert.equal(registryKey('Registry.Example.com'), 'registry.example.com');
    assert.equal(registryKey('https://index.docker.io/v1/'), 'docker.io');
    assert.equal(registryKey('registry-1.docker.io'), 'docker.io');
  });

  void it('toRegistryAuth keeps only what the registry API needs', () => {
    assert.deepEqual(toRegistryAuth({ username: 'u', password: 'p', serveraddress: 's' }), { username: 'u', password: 'p' });
    assert.deepEqual(toRegistryAuth({ identitytoken: 't' }), { identitytoken: 't' });
  });
});
