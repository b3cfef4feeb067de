// Registry credentials: the X-Registry-Auth encoding, config.json parsing, and real credential helper programs
// (shell scripts in a temporary directory on PATH) for credsStore and credHelpers.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  DOCKER_HUB_AUTH_KEY,
  DockerConfigCredentials,
  EngineError,
  assertSafeToSendCredentials,
  encodeRegistryAuth,
  registryKeyFor,
} from '../../../../src/engine';
import { writeDockerConfig } from '../../../support/dockerHome';

const root = mkdtempSync(join(tmpdir(), 'berth-auth-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Decodes like Go's base64.URLEncoding: URL-safe alphabet, padding required, nothing else allowed. */
function goUrlDecode(text: string): Buffer {
  assert.equal(text.length % 4, 0, 'URLEncoding is padded to a multiple of 4');
  assert.match(text, /^[A-Za-z0-9_-]*={0,2}$/, 'only the URL-safe alphabet and trailing padding');
  return Buffer.from(text, 'base64url');
}

let counter = 0;
function configDir(config: unknown): string {
  return writeDockerConfig(join(root, `config-${counter++}`), config);
}

/** Writes docker-credential-<name> into a bin directory: it logs its stdin and answers per server. */
function helperDir(name: string, answers: Record<string, { Username: string; Secret: string } | 'not-found' | 'crash'>): string {
  const bin = join(root, `bin-${counter++}`);
  mkdirSync(bin, { recursive: true });
  const cases = Object.entries(answers)
    .map(([server, answer]) => {
      if (answer === 'not-found') return `  '${server}') echo 'credentials not found in native keychain'; exit 1 ;;`;
      if (answer === 'crash') return `  '${server}') echo 'keychain is locked' >&2; exit 2 ;;`;
      return `  '${server}') printf '%s' '${JSON.stringify({ ServerURL: server, ...answer })}' ;;`;
    })
    .join('\n');
  const script = `#!/bin/sh\n[ "$1" = get ] || exit 3\nread -r server\nprintf '%s\\n' "$server" >> "${bin}/asked"\ncase "$server" in\n${cases}\n  *) echo 'credentials not found in native keychain'; exit 1 ;;\nesac\n`;
  const path = join(bin, `docker-credential-${name}`);
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  return bin;
}

function envWith(dir: string, bin?: string): NodeJS.ProcessEnv {
  return { DOCKER_CONFIG: dir, PATH: bin ? `${bin}:${process.env.PATH ?? ''}` : (process.env.PATH ?? '') };
}

void describe('encodeRegistryAuth', () => {
  void it('is URL-safe base64 with padding that Go URLEncoding decodes back to the JSON', () => {
    // These characters produce "+" and "/" in standard base64, which URLEncoding must not contain.
    const credential = { username: 'berth', password: 'p>?~??>>', serveraddress: '127.0.0.1:5055' };
    const encoded = encodeRegistryAuth(credential);
    assert.doesNotMatch(encoded, /[+/]/);
    assert.notEqual(Buffer.from(JSON.stringify(credential)).toString('base64'), encoded, 'standard base64 differs here');
    assert.deepEqual(JSON.parse(goUrlDecode(encoded).toString('utf8')), credential);
  });

  void it('encodes an identity token, and an empty credential as {}', () => {
    const encoded = encodeRegistryAuth({ identitytoken: 'tok-123' });
    assert.deepEqual(JSON.parse(goUrlDecode(encoded).toString()), { identitytoken: 'tok-123' });
    assert.deepEqual(JSON.parse(goUrlDecode(encodeRegistryAuth(undefined)).toString()), {});
  });
});

void describe('registryKeyFor', () => {
  void it('uses Docker Hub’s key for Hub images and the host with port otherwise', () => {
    assert.equal(registryKeyFor('busybox'), DOCKER_HUB_AUTH_KEY);
    assert.equal(registryKeyFor('docker.io/library/busybox:1.36'), DOCKER_HUB_AUTH_KEY);
    assert.equal(registryKeyFor('127.0.0.1:5055/berth/busybox:1.0'), '127.0.0.1:5055');
    assert.equal(registryKeyFor('ghcr.io/org/app@sha256:' + 'a'.repeat(64)), 'ghcr.io');
  });
});

void describe('DockerConfigCredentials', () => {
  void it('decodes auths[host].auth (standard base64) splitting at the first colon', async () => {
    const auth = Buffer.from('berth:pa:ss/wo+rd').toString('base64');
    const dir = configDir({ auths: { '127.0.0.1:5055': { auth }, 'https://index.docker.io/v1/': { auth: Buffer.from('hub:hubpw').toString('base64') } } });
    const credentials = new DockerConfigCredentials({ env: envWith(dir) });
    assert.deepEqual(await credentials.get('127.0.0.1:5055'), { username: 'berth', password: 'pa:ss/wo+rd', serveraddress: '127.0.0.1:5055' });
    assert.deepEqual(await credentials.lookup(DOCKER_HUB_AUTH_KEY), { username: 'hub', password: 'hubpw', serveraddress: DOCKER_HUB_AUTH_KEY });
    assert.equal(await credentials.get('other.example.com'), undefined);
  });

  void it('matches auths keys written with a scheme, and returns identity tokens', async () => {
    const dir = configDir({ auths: { 'https://registry.example.com/v2/': { identitytoken: 'refresh-token' } } });
    const credentials = new DockerConfigCredentials({ env: envWith(dir) });
    assert.deepEqual(await credentials.get('registry.example.com'), { identitytoken: 'refresh-token', serveraddress: 'registry.example.com' });
  });

  void it('asks credsStore through its helper program, passing the server on stdin', async () => {
    const bin = helperDir('teststore', { '127.0.0.1:5055': { Username: 'alice', Secret: 'from-store' } });
    const dir = configDir({ credsStore: 'teststore', auths: { '127.0.0.1:5055': {} } });
    const credentials = new DockerConfigCredentials({ env: envWith(dir, bin) });
    assert.deepEqual(await credentials.get('127.0.0.1:5055'), { username: 'alice', password: 'from-store', serveraddress: '127.0.0.1:5055' });
    assert.equal(readFileSync(join(bin, 'asked'), 'utf8'), '127.0.0.1:5055\n');
  });

  void it('credHelpers[host] wins over credsStore', async () => {
    const bin = helperDir('special', { 'registry.example.com': { Username: 'bob', Secret: 'from-helper' } });
    const store = helperDir('store2', { 'registry.example.com': { Username: 'wrong', Secret: 'wrong' } });
    const dir = configDir({ credsStore: 'store2', credHelpers: { 'registry.example.com': 'special' } });
    const credentials = new DockerConfigCredentials({ env: { DOCKER_CONFIG: dir, PATH: `${bin}:${store}:${process.env.PATH ?? ''}` } });
    assert.deepEqual(await credentials.get('registry.example.com'), { username: 'bob', password: 'from-helper', serveraddress: 'registry.example.com' });
  });

  void it('a <token> username means the secret is an identity token', async () => {
    const bin = helperDir('tokens', { 'registry.example.com': { Username: '<token>', Secret: 'id-token-xyz' } });
    const dir = configDir({ credHelpers: { 'registry.example.com': 'tokens' } });
    const credentials = new DockerConfigCredentials({ env: envWith(dir, bin) });
    assert.deepEqual(await credentials.get('registry.example.com'), { identitytoken: 'id-token-xyz', serveraddress: 'registry.example.com' });
  });

  void it('"credentials not found" from a helper means anonymous', async () => {
    const bin = helperDir('empty', { 'registry.example.com': 'not-found' });
    const dir = configDir({ credHelpers: { 'registry.example.com': 'empty' } });
    const credentials = new DockerConfigCredentials({ env: envWith(dir, bin) });
    assert.equal(await credentials.get('registry.example.com'), undefined);
  });

  void it('a failing or missing helper is an error that names it and says what to do', async () => {
    const bin = helperDir('locked', { 'registry.example.com': 'crash' });
    const crashing = new DockerConfigCredentials({ env: envWith(configDir({ credHelpers: { 'registry.example.com': 'locked' } }), bin) });
    await assert.rejects(crashing.get('registry.example.com'), (error: unknown) =>
      error instanceof EngineError &&
      error.message === `The credential helper docker-credential-locked could not be used: keychain is locked. Install docker-credential-locked on PATH, or change credsStore/credHelpers in ${join(root, `config-${counter - 1}`, 'config.json')}`,
    );
    const missing = new DockerConfigCredentials({ env: envWith(configDir({ credHelpers: { 'registry.example.com': 'absent-helper' } })) });
    await assert.rejects(missing.get('registry.example.com'), /docker-credential-absent-helper could not be used: it is not installed/);
  });

  void it('a credsStore helper that is not installed falls back to auths, as docker does, noting it at debug level', async () => {
    const notes: string[] = [];
    const auth = Buffer.from('fallback-user:fallback-secret').toString('base64');
    const dir = configDir({ credsStore: 'desktop-absent', auths: { 'registry.example.com': { auth } } });
    const credentials = new DockerConfigCredentials({ env: envWith(dir), debug: (note) => notes.push(note) });
    assert.deepEqual(await credentials.get('registry.example.com'), {
      username: 'fallback-user',
      password: 'fallback-secret',
      serveraddress: 'registry.example.com',
    });
    assert.equal(notes.length, 1);
    assert.match(notes[0] ?? '', /docker-credential-desktop-absent is not installed; using the auths entries/);
    assert.ok(!(notes[0] ?? '').includes('fallback-secret'));
    assert.equal(await credentials.get('other.example.com'), undefined);
  });

  void it('refuses a helper name that could leave the docker-credential- namespace', async () => {
    const credentials = new DockerConfigCredentials({ env: envWith(configDir({ credsStore: '../../bin/sh' })) });
    await assert.rejects(credentials.get('x.example.com'), /The credential helper name "\.\.\/\.\.\/bin\/sh" .* is not valid/);
  });

  void it('reports a config.json that is not JSON with its path', async () => {
    const dir = configDir('{ "auths": ');
    const credentials = new DockerConfigCredentials({ env: envWith(dir) });
    await assert.rejects(credentials.get('x.example.com'), new RegExp(`${join(dir, 'config.json').replace(/[.]/g, '\\.')} is not valid JSON`));
  });

  void it('no config file means anonymous', async () => {
    const credentials = new DockerConfigCredentials({ env: { DOCKER_CONFIG: join(root, 'does-not-exist') } });
    assert.equal(await credentials.get('127.0.0.1:5055'), undefined);
  });
});

void describe('assertSafeToSendCredentials', () => {
  void it('allows HTTPS registries and loopback ones', () => {
    assert.doesNotThrow(() => assertSafeToSendCredentials('registry.example.com'));
    assert.doesNotThrow(() => assertSafeToSendCredentials('https://registry.example.com'));
    assert.doesNotThrow(() => assertSafeToSendCredentials('127.0.0.1:5055', { secure: false }));
    assert.doesNotThrow(() => assertSafeToSendCredentials('http://localhost:5000'));
    assert.doesNotThrow(() => assertSafeToSendCredentials('[::1]:5000', { secure: false }));
  });

  void it('refuses plain HTTP to any other host and says why', () => {
    const expected =
      'Refusing to send credentials to 10.1.2.3:5000: it is reached over plain HTTP, so the password would cross the network as clear text. ' +
      "Serve the registry over HTTPS (remove it from the engine's insecure-registries), or use it anonymously";
    assert.throws(() => assertSafeToSendCredentials('http://10.1.2.3:5000'), (error: unknown) => error instanceof EngineError && error.message === expected);
    assert.throws(() => assertSafeToSendCredentials('10.1.2.3:5000', { secure: false }), (error: unknown) => error instanceof Error && error.message === expected);
  });
});
