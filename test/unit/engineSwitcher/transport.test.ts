// The engine switcher's transport warning, on endpoints parsed as the docker CLI reads DOCKER_HOST and DOCKER_TLS*:
// plain tcp:// warns (naming registry credentials only off loopback), TLS without verification warns, and a Unix
// socket, ssh:// and verified TLS do not.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseHost } from '../../../src/engine';
import { transportWarning } from '../../../src/engineSwitcher/transport';

const certs = mkdtempSync(join(tmpdir(), 'berth-switcher-certs-'));
for (const file of ['ca.pem', 'cert.pem', 'key.pem']) writeFileSync(join(certs, file), 'not read by the parser');
after(() => rmSync(certs, { recursive: true, force: true }));

const warningFor = (host: string, env: NodeJS.ProcessEnv = {}): string | undefined => transportWarning(parseHost(host, env, { homeDir: certs }));

void describe('the engine switcher: transport warnings', () => {
  void it('plain tcp:// off this machine warns, says how to fix it, and says registry credentials are not sent', () => {
    const warning = warningFor('tcp://203.0.113.7:2375');
    assert.ok(warning, 'a warning');
    assert.match(warning, /plain TCP without TLS/);
    assert.match(warning, /does not send registry credentials/);
    assert.match(warning, /DOCKER_TLS_VERIFY=1\) or ssh:\/\//);
  });

  void it('plain tcp:// on loopback warns, without the credentials sentence', () => {
    const warning = warningFor('tcp://127.0.0.1:2375');
    assert.ok(warning, 'a warning');
    assert.doesNotMatch(warning, /registry credentials/);
  });

  void it('TLS that does not verify the engine warns; verified TLS does not', () => {
    const unverified = warningFor('tcp://203.0.113.7:2376', { DOCKER_TLS: '1', DOCKER_CERT_PATH: certs });
    assert.match(unverified ?? '', /without verifying the engine's certificate/);
    assert.equal(warningFor('tcp://203.0.113.7:2376', { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: certs }), undefined);
  });

  void it('a Unix socket, ssh:// and no endpoint at all: no warning', () => {
    assert.equal(warningFor('unix:///run/berth-test.sock'), undefined);
    assert.equal(warningFor('ssh://user@203.0.113.7'), undefined);
    assert.equal(transportWarning(undefined), undefined);
  });
});
