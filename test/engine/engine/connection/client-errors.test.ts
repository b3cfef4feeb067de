// Bad input on both engines (the bad-input table asserts dockerd's words; Podman words some of them differently):
// ambiguous id prefixes, empty commands, names the engine would refuse, unknown images, a wrong registry password.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runContainer } from '../../../../src/engine';
import { useEngineSuite } from '../../../support/engineSuite';
import { engineTargets, loadTestEngines } from '../../../support/engines';
import { failureOf } from '../../../support/assertions';
import { drain } from '../../../support/wait';

const engines = loadTestEngines();
const registry = engines.registry;
const WRONG_CREDENTIALS = 'The registry refused these credentials: check the user name and password, then sign in again';

for (const target of engineTargets(engines)) {
  void describe(`bad input on ${target.name}`, () => {
    const suite = useEngineSuite({ host: target.host, skip: target.skip, name: `client-errors-${target.name}` });
    const { client, labels, marker } = suite;
    const count = async (): Promise<number> => (await client.containers.list({ all: true, filters: suite.filters })).length;

    void it('an id prefix two containers share is bad input that says to give more of the id', { skip: target.skip }, async () => {
      const ids: string[] = [];
      let prefix: string | undefined;
      for (let attempt = 0; attempt < 17 && prefix === undefined; attempt++) {
        const Id = await suite.createContainer(['true']);
        prefix = ids.find((other) => other[0] === Id[0])?.[0];
        ids.push(Id);
      }
      assert.ok(prefix !== undefined);
      const error = await failureOf(client.containers.inspect(prefix));
      assert.equal(error.kind, 'bad-request');
      assert.ok(error.message.endsWith(". Give more characters of the id, or use the container's name"), error.message);
      assert.match(error.engineMessage ?? '', target.name === 'docker' ? /^Multiple IDs found with provided prefix: / : /^more than one result for container ID /);
    });

    void it('an empty or blank command is refused before anything is created', { skip: target.skip }, async () => {
      const before = await count();
      for (const cmd of [[''], [' '], ['', '']]) {
        const error = await failureOf(runContainer(client, { image: engines.image, cmd, labels, networkMode: 'none' }));
        assert.equal(error.kind, 'bad-request');
        assert.equal(error.message, "The command is empty: give a program to run, or leave it out to run the image's default");
      }
      const error = await failureOf(runContainer(client, { image: engines.image, cmd: ['', 'x'], labels, networkMode: 'none' }));
      assert.match(error.message, /^The command's first word, the program to run, is empty/);
      assert.equal(await count(), before);
    });

    void it('an empty argument is fine when the image has an ENTRYPOINT', { skip: target.skip }, async () => {
      const repo = `berth-client-errors/${marker.toLowerCase()}`;
      const containerId = await suite.createContainer(['true']);
      await client.containers.commit(containerId, { repo, tag: 'entry', changes: ['ENTRYPOINT ["echo", "args:"]', 'CMD []'] });
      try {
        const out: Buffer[] = [];
        const result = await runContainer(client, {
          image: `${repo}:entry`,
          cmd: ['', 'x'],
          labels,
          networkMode: 'none',
          autoRemove: true,
          onOutput: (chunk) => out.push(chunk.data),
        });
        assert.equal(result.exitCode, 0);
        assert.equal(Buffer.concat(out).toString('utf8'), 'args:  x\n');
      } finally {
        await client.images.remove(`${repo}:entry`, { force: true }).catch(() => undefined);
      }
    });

    void it('createContainer refuses a name the engine would refuse, before sending it', { skip: target.skip }, async () => {
      const before = await count();
      const error = await failureOf(client.containers.create({ Image: engines.image, Labels: labels }, { name: 'web-ü' }));
      assert.equal(error.kind, 'bad-request');
      assert.equal(error.message, 'Invalid container name "web-ü": "ü" is not ASCII (use ASCII letters, digits, "_", "." and "-")');
      assert.equal(error.status, undefined, 'the engine was asked');
      assert.equal(await count(), before);
    });

    void it('inspecting an unknown image says so once, and says to pull it', { skip: target.skip }, async () => {
      const error = await failureOf(client.images.inspect('berth-test/nope:1'));
      assert.equal(error.kind, 'not-found');
      assert.equal(error.message.match(/no such image/gi)?.length, 1, error.message);
      assert.ok(error.message.endsWith('. Pull it first, or check the image name and tag'), error.message);
    });

    void it('a wrong registry password on pull and on push says the credentials were refused', { skip: target.skip }, async () => {
      const wrong = { username: registry.username, password: 'not-the-password', serveraddress: registry.address };
      const pullError = await failureOf(drain(client.images.pull(engines.registryImages[0] as string, { auth: wrong })));
      assert.equal(pullError.kind, 'unauthorized');
      assert.ok(pullError.message.endsWith(`. ${WRONG_CREDENTIALS}`), pullError.message);
      assert.ok(!pullError.message.includes('not-the-password'));

      const repo = `${registry.address}/berth/${marker.toLowerCase()}`;
      await client.images.tag(engines.image, { repo, tag: '1' });
      try {
        const pushError = await failureOf(drain(client.images.push(`${repo}:1`, { auth: wrong })));
        assert.equal(pushError.kind, 'unauthorized');
        assert.ok(pushError.message.endsWith(`. ${WRONG_CREDENTIALS}`), pushError.message);
      } finally {
        await client.images.remove(`${repo}:1`).catch(() => undefined);
      }
    });
  });
}
