// Smaller hardening fixes (issue 17): ssh users and hosts that ssh could read as options, a malformed docker config
// reported without quoting it, `*.localhost` no longer loopback, and "."/".." segments in image names.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DockerConfigCredentials, EngineError, isLoopbackHost, parseHost } from '../../../../src/engine';
import { clientThatMustNotConnect } from '../../../support/refusingClient';

const refusal = (pattern: RegExp) => (error: unknown): boolean => error instanceof EngineError && error.kind === 'bad-request' && pattern.test(error.message);

void describe('ssh hosts and users', () => {
  for (const host of ['ssh://-oProxyCommand=touch%20x@host', 'ssh://user@-oProxyCommand=x', 'ssh://us%20er@host', 'ssh://us%3Ber@host', 'ssh://us%0Aer@host']) {
    void it(`refuses ${host}`, () => {
      assert.throws(() => parseHost(host, {}), refusal(/the ssh (user|host) may hold only/));
    });
  }

  void it('accepts ordinary users and hosts, and hands ssh an IPv6 host without its brackets', () => {
    assert.deepEqual(parseHost('ssh://deploy.user_1@build-host.example.com:2222', {}).ssh, { user: 'deploy.user_1', host: 'build-host.example.com', port: 2222 });
    const ipv6 = parseHost('ssh://root@[::1]:22', {});
    assert.equal(ipv6.ssh?.host, '::1');
    assert.equal(ipv6.display, 'ssh://root@[::1]:22');
  });
});

void describe('a malformed ~/.docker/config.json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-bad-config-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('is reported by line and column, without quoting any of it', async () => {
    const secret = Buffer.from('berth:Sup3r-secret-pw').toString('base64');
    writeFileSync(join(dir, 'config.json'), `{\n  "auths": {\n    "127.0.0.1:5000": { "auth": "${secret}" } oops\n  }\n}\n`);
    const credentials = new DockerConfigCredentials({ env: { DOCKER_CONFIG: dir } });
    await assert.rejects(credentials.get('127.0.0.1:5000'), (error: unknown) => {
      assert.ok(error instanceof EngineError, String(error));
      assert.match(error.message, /config\.json is not valid JSON \(syntax error at line 3, column \d+\)/);
      for (const piece of [secret.slice(0, 8), secret.slice(-8), 'oops']) assert.ok(!error.message.includes(piece), error.message);
      return true;
    });
  });
});

void describe('loopback', () => {
  void it('is localhost, 127.0.0.0/8 and ::1, not a name under .localhost', () => {
    assert.deepEqual(
      ['localhost', '127.0.0.1:5000', '[::1]:5000', 'registry.localhost', 'registry.localhost:5000'].map(isLoopbackHost),
      [true, true, true, false, false],
    );
  });
});

void describe('image names with "." or ".." segments', () => {
  for (const name of ['../containers/json', 'app/../../containers/x', './app', 'a/./b']) {
    void it(`refuses ${name} before any request`, async () => {
      const { client, attempts } = clientThatMustNotConnect('unix:///nonexistent/berth.sock');
      try {
        await assert.rejects(async () => client.images.inspect(name), refusal(/"\." and "\.\." are not parts of an image name/));
        await assert.rejects(async () => client.images.remove(name), refusal(/"\." and "\.\." are not parts of an image name/));
        assert.deepEqual(attempts, []);
      } finally {
        await client.close();
      }
    });
  }
});
