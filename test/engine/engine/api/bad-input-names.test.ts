// Bad-input rows about what the user names: image references, container names, unknown and ambiguous ids, empty
// commands. Against the real private dockerd and registry; every message is asserted word for word.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runContainer } from '../../../../src/engine';
import { useEngineSuite } from '../../../support/engineSuite';
import { uniqueName } from '../../../support/engines';
import { assertCase } from '../bad-input-support';
import { drain } from '../../../support/wait';

// The suite's own marker label keeps its checks from seeing other suites' containers, and finds what a failing run
// left behind.
const suite = useEngineSuite({ name: 'bad-input-names' });
const { client, engines } = suite;
const suiteLabel = suite.labels;
const suiteFilter = suite.filters;
const auth = { username: engines.registry.username, password: engines.registry.password, serveraddress: engines.registry.address };

async function createTestContainer(name?: string, cmd: string[] = ['true']): Promise<string> {
  return suite.createContainer(cmd, {}, name);
}

/** Runs like `berth run --rm`: whether it fails or not, nothing is left behind. */
function run(options: { name?: string; image?: string; cmd?: string[] }): Promise<unknown> {
  return runContainer(client, { image: engines.image, labels: suiteLabel, networkMode: 'none', autoRemove: true, ...options });
}

void describe('bad image references', () => {
  const rows: Array<[string, string]> = [
    ['image-empty-tag', 'busybox:'],
    ['image-whitespace', 'busy box'],
    ['image-empty', ''],
    ['image-bad-digest', 'busybox@sha256:abc'],
    ['image-two-tags', '127.0.0.1:5055/berth/busybox:1.0:extra'],
  ];
  for (const [id, reference] of rows) {
    void it(`${id}: pull ${JSON.stringify(reference)}`, () => assertCase(id, () => drain(client.images.pull(reference))));
  }

  void it('image-uppercase: pull and run', async () => {
    await assertCase('image-uppercase', () => drain(client.images.pull('Busybox:latest')));
    await assertCase('image-uppercase', () => run({ image: 'Busybox:latest' }));
  });

  void it('image-too-long: pull a 300-character name', async () => {
    const reference = 'a'.repeat(300);
    await assertCase('image-too-long', () => drain(client.images.pull(reference)), { reference });
  });

  void it('image-missing: pull, signed in, an image the registry on 127.0.0.1 does not have', () =>
    assertCase('image-missing', () => drain(client.images.pull(`${engines.registry.address}/berth/missing:1.0`, { auth })), {
      registry: engines.registry.address,
    }));
});

void describe('bad container names', () => {
  const rows: Array<[string, string]> = [
    ['name-space', 'my container'],
    ['name-leading-dash', '-web'],
    ['name-too-short', 'a'],
    ['name-slash', 'team/web'],
    ['name-non-ascii', 'web-ü'],
    ['name-non-ascii-start', 'über'],
  ];
  for (const [id, name] of rows) {
    void it(`${id}: run --name ${JSON.stringify(name)}, refused before anything is created`, async () => {
      const before = await client.containers.list({ all: true, filters: suiteFilter });
      await assertCase(id, () => runContainer(client, { image: engines.image, name, labels: suiteLabel, networkMode: 'none' }));
      const afterwards = await client.containers.list({ all: true, filters: suiteFilter });
      assert.equal(afterwards.length, before.length, 'a container was created for a refused name');
    });
  }

  void it('name-non-ascii, name-non-ascii-start: create refuses them itself, with the same words as run', async () => {
    const before = await client.containers.list({ all: true, filters: suiteFilter });
    await assertCase('name-non-ascii', () => createTestContainer('web-ü'));
    await assertCase('name-non-ascii-start', () => createTestContainer('über'));
    const afterwards = await client.containers.list({ all: true, filters: suiteFilter });
    assert.equal(afterwards.length, before.length, 'a container was created for a refused name');
  });

  void it('name-in-use: run --name of an existing container', async () => {
    const name = uniqueName('bad-input-taken');
    const id = await createTestContainer(name);
    await assertCase('name-in-use', () => run({ name }), { name, id });
  });
});

void describe('unknown and ambiguous ids', () => {
  void it('unknown-container: inspect, stop and remove', async () => {
    await assertCase('unknown-container', () => client.containers.inspect('0123456789ab'));
    await assertCase('unknown-container', () => client.containers.stop('0123456789ab'));
    await assertCase('unknown-container', () => client.containers.remove('0123456789ab'));
  });

  void it('unknown-container-logs: follow the logs of a container that does not exist', () =>
    assertCase('unknown-container-logs', () => drain(client.containers.logs('no-such-container', { follow: true, stdout: true, tty: false }))));

  void it('unknown-image: remove an image that does not exist', () => assertCase('unknown-image', () => client.images.remove('berth-test/nope:1')));

  void it('unknown-image-inspect: inspect an image that does not exist; dockerd’s doubled message is shown once', () =>
    assertCase('unknown-image-inspect', () => client.images.inspect('berth-test/nope:1')));

  void it('ambiguous-prefix: one character that two containers’ ids start with', async () => {
    const ids: string[] = [];
    let prefix: string | undefined;
    // 17 ids over 16 hex digits must share a first character; stop as soon as two do.
    for (let attempt = 0; attempt < 17 && prefix === undefined; attempt++) {
      const id = await createTestContainer();
      prefix = ids.find((other) => other[0] === id[0])?.[0];
      ids.push(id);
    }
    assert.ok(prefix !== undefined);
    await assertCase('ambiguous-prefix', () => client.containers.inspect(prefix), { prefix });
    await assertCase('ambiguous-prefix', () => client.containers.stop(prefix), { prefix });
  });
});

void describe('empty commands', () => {
  void it("empty-command-list: no command runs the image's CMD", async () => {
    const result = await runContainer(client, { image: engines.image, cmd: [], labels: suiteLabel, networkMode: 'none' });
    assert.equal(result.exitCode, 0);
    const inspected = await client.containers.inspect(result.id);
    assert.deepEqual(inspected.Config.Cmd, ['/bin/sh']);
  });

  for (const [id, cmd] of [
    ['empty-command-string', ['']],
    ['empty-command-blank', ['  ', '']],
  ] as const) {
    void it(`${id}: ${JSON.stringify(cmd)} is refused before anything is created`, async () => {
      const before = await client.containers.list({ all: true, filters: suiteFilter });
      await assertCase(id, () => run({ cmd: [...cmd] }));
      const afterwards = await client.containers.list({ all: true, filters: suiteFilter });
      assert.equal(afterwards.length, before.length, 'a container was created for an empty command');
    });
  }

  void it('empty-exec: exec with no command', async () => {
    const id = await createTestContainer(undefined, ['sleep', '60']);
    await client.containers.start(id);
    await assertCase('empty-exec', () => client.exec.create(id, { cmd: [] }));
  });
});
