import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import {
  engineTargets,
  loadTestEngines,
  missingPodmanHost,
  parseTestEngines,
  podmanMissingReason,
  uniqueName,
  unixSocketPath,
} from '../../support/engines';

const engineNameRule = /^\/?[a-zA-Z0-9][a-zA-Z0-9_.-]+$/;

function enginesDocument(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    stateDir: '/tmp/berth-state',
    dockerHost: 'unix:///tmp/berth-state/docker.sock',
    podmanHost: 'unix:///tmp/berth-state/podman.sock',
    registry: { address: '127.0.0.1:5055', username: 'berth', password: 'secret' },
    image: 'berth-test/busybox:latest',
    registryImages: ['127.0.0.1:5055/berth/busybox:1.0'],
    ...overrides,
  };
}

function withStateDir(files: Record<string, string>, body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'berth-support-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void describe('parseTestEngines', () => {
  void it('reads every field engines.sh writes', () => {
    const engines = parseTestEngines(JSON.stringify(enginesDocument()), 'engines.json');
    assert.equal(engines.dockerHost, 'unix:///tmp/berth-state/docker.sock');
    assert.equal(engines.podmanHost, 'unix:///tmp/berth-state/podman.sock');
    assert.deepEqual(engines.registry, { address: '127.0.0.1:5055', username: 'berth', password: 'secret' });
    assert.deepEqual(engines.registryImages, ['127.0.0.1:5055/berth/busybox:1.0']);
    assert.deepEqual(
      engineTargets(engines).map((target) => target.name),
      ['docker', 'podman'],
    );
  });

  void it('keeps Podman in the targets, skipped with the reason, when engines.json has no podmanHost', () => {
    const engines = parseTestEngines(JSON.stringify(enginesDocument({ podmanHost: undefined })), 'engines.json');
    assert.equal(engines.podmanHost, undefined);
    assert.deepEqual(engineTargets(engines, {}), [
      { name: 'docker', host: 'unix:///tmp/berth-state/docker.sock' },
      { name: 'podman', host: missingPodmanHost, skip: podmanMissingReason },
    ]);
  });

  void it('does not skip the Podman cases under CI=true: they run against a socket that does not exist, and fail', () => {
    const engines = parseTestEngines(JSON.stringify(enginesDocument({ podmanHost: undefined })), 'engines.json');
    const podman = engineTargets(engines, { CI: 'true' })[1];
    assert.deepEqual(podman, { name: 'podman', host: missingPodmanHost });
  });

  void it('names the file, the bad field and the command to run', () => {
    const broken = enginesDocument({ registry: { address: '127.0.0.1:5055', username: 'berth' } });
    assert.throws(() => parseTestEngines(JSON.stringify(broken), '/x/engines.json'), {
      message: '/x/engines.json: "registry.password" must be a non-empty string. Run: bash scripts/engines.sh start',
    });
    assert.throws(() => parseTestEngines('{"dockerHost":', '/x/engines.json'), /^Error: \/x\/engines.json is not valid JSON/);
    assert.throws(
      () => parseTestEngines(JSON.stringify(enginesDocument({ dockerHost: 'tcp://127.0.0.1:2375' })), 'f'),
      { message: 'f: "dockerHost" must be a unix:// URL, got tcp://127.0.0.1:2375. Run: bash scripts/engines.sh start' },
    );
  });
});

void describe('loadTestEngines', () => {
  void it('honours BERTH_STATE_DIR and says how to start the engines when engines.json is missing', () => {
    withStateDir({}, (dir) => {
      assert.throws(() => loadTestEngines({ BERTH_STATE_DIR: dir }), {
        message: `No test engines: ${join(dir, 'engines.json')} does not exist. Run: bash scripts/engines.sh start`,
      });
    });
  });

  void it('reports stopped engines when the docker socket is gone', () => {
    withStateDir({}, (dir) => {
      const document = enginesDocument({ stateDir: dir, dockerHost: `unix://${dir}/docker.sock` });
      writeFileSync(join(dir, 'engines.json'), JSON.stringify(document));
      assert.throws(() => loadTestEngines({ BERTH_STATE_DIR: dir }), {
        message: `Test engines are stopped: ${dir}/docker.sock is missing. Run: bash scripts/engines.sh start`,
      });
      // With a file at the socket path the same state loads.
      writeFileSync(join(dir, 'docker.sock'), '');
      assert.equal(loadTestEngines({ BERTH_STATE_DIR: dir }).stateDir, dir);
    });
  });
});

void describe('uniqueName', () => {
  void it('makes names the engine accepts, even from a prefix it would reject', () => {
    for (const prefix of ['run', 'stop twice', '-leading', 'ünïcode/slash', '']) {
      const name = uniqueName(prefix);
      assert.match(name, engineNameRule, `${JSON.stringify(prefix)} gave ${name}`);
    }
    assert.ok(uniqueName('stop twice').startsWith('stop-twice-'));
  });

  void it('never repeats', () => {
    const names = new Set(Array.from({ length: 200 }, () => uniqueName('x')));
    assert.equal(names.size, 200);
  });
});

void describe('unixSocketPath', () => {
  void it('strips the scheme and refuses other schemes', () => {
    assert.equal(unixSocketPath('unix:///tmp/berth-state/podman.sock'), '/tmp/berth-state/podman.sock');
    assert.throws(() => unixSocketPath('tcp://127.0.0.1:2375'), /Not a unix:\/\/ engine address/);
  });
});
