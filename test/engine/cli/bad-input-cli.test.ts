// The CLI rows of the bad-input table (bad-input-cli-cases.ts), each given to the built CLI against the private
// dockerd: the words berth prints and the exit status the row states. cli-parity and cli-pressure check the engine
// afterwards and docker's behaviour on the same input.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectedMessage } from '../engine/bad-input-cases';
import { createCliHarness, type CliHarness } from './support';

/** An outcome row's words before its "(exit N …)" note, and N. */
function wordsAndStatus(id: string): { words: string; status: number } {
  const match = /^(.*?) \(exit (\d+)/.exec(expectedMessage(id));
  assert.ok(match, `${id}: the row states no exit status`);
  return { words: match[1] as string, status: Number(match[2]) };
}

void describe('bad input around a CLI run', () => {
  let harness: CliHarness;
  before(async () => {
    harness = await createCliHarness('bad-input');
  });
  after(async () => {
    await harness.dispose();
  });

  const runArgs = (): string => ['run', '--rm', '--network', 'none', ...harness.labelArgs, harness.engines.image, 'sh', '-c', "'trap \"exit 0\" TERM; while true; do echo line; done'"].join(' ');

  void it('cli-network-missing: run --network bogusnet', async () => {
    const result = await harness.berth(['run', '--rm', '--network', 'bogusnet', ...harness.labelArgs, harness.engines.image, 'true']);
    assert.deepEqual([result.code, result.stderr], [125, `berth: ${expectedMessage('cli-network-missing')}\n`]);
  });

  void it('cli-broken-pipe: berth run … | head -1', async () => {
    const { words, status } = wordsAndStatus('cli-broken-pipe');
    const result = await harness.shell(`berth ${runArgs()} | head -1`);
    assert.deepEqual([result.code, result.stderr], [status, `berth: ${words}\n`]);
  });

  void it('cli-full-disk: berth run … > /dev/full', async () => {
    const { words, status } = wordsAndStatus('cli-full-disk');
    const result = await harness.shell(`berth ${runArgs()} > /dev/full`);
    assert.deepEqual([result.code, result.stderr], [status, `berth: ${words}\n`]);
  });

  void it('cli-tail-not-a-number: logs --tail abc, -1, 1.5 print every line, exit 0', async () => {
    const started = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, harness.engines.image, 'sh', '-c', 'echo one; echo two']);
    const id = started.stdout.trim();
    await harness.berth(['wait', id]);
    for (const tail of ['abc', '-1', '1.5']) {
      const result = await harness.berth(['logs', '--tail', tail, id]);
      assert.deepEqual([result.code, result.stdout, result.stderr], [0, 'one\ntwo\n', ''], tail);
    }
  });

  void it('cli-commit-bad-reference: commit CONTAINER Repo:1', async () => {
    const { words, status } = wordsAndStatus('cli-commit-bad-reference');
    const result = await harness.berth(['commit', 'any-container', 'Repo:1']);
    assert.deepEqual([result.code, result.stdout, result.stderr], [status, '', `berth: ${words}\n`]);
  });

  void it('cli-creds-store-missing: pull with "credsStore": "desktop" and an auths entry', async () => {
    const { registry, registryImages } = harness.engines;
    const reference = registryImages.find((image) => image.endsWith(':1.0')) ?? registryImages[0] ?? assert.fail('the test engines have no registry image');
    const config = harness.dockerConfig({
      credsStore: 'desktop',
      auths: { [registry.address]: { auth: Buffer.from(`${registry.username}:${registry.password}`).toString('base64') } },
    });
    await harness.client.images.remove(reference, { force: true }).catch(() => undefined);
    const result = await harness.berth(['pull', reference], { env: { DOCKER_CONFIG: config } });
    assert.deepEqual([result.code, result.stdout], [0, `${reference}\n`], result.stderr);
    assert.ok(!result.stderr.includes('berth:'), result.stderr);
  });
});
