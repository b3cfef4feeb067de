/**
 * `berth history` next to `docker history` on the same engine (the private dockerd, and Podman through its compat
 * socket), byte for byte, for an image built here in three steps: the default table, --no-trunc, -q, -H=false and
 * --format json. The CREATED column counts time, so docker runs before and after berth, and berth must print what one
 * of the two printed; ages in seconds (the image is new) are the one thing read as "N seconds ago", with the
 * alignment they move.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { engineTargets, loadTestEngines, uniqueName } from '../../support/engines';
import { buildThreeSteps } from '../../support/layeredImage';
import { scratchFolder } from '../build/support';
import { createCliHarness, type CliHarness } from './support';

const engines = loadTestEngines();

for (const target of engineTargets(engines)) {
  void describe(`berth history next to docker history on ${target.name}`, { skip: target.skip }, () => {
    let harness: CliHarness;
    const folder = scratchFolder('history');
    const tag = `localhost/${uniqueName('berth-history').toLowerCase()}:1`;
    before(async () => {
      harness = await createCliHarness('history');
      await buildThreeSteps(harness.clientFor(target.host), folder.path, tag);
    });
    after(async () => {
      await harness.clientFor(target.host).images.remove(tag, { force: true }).catch(() => undefined);
      folder.dispose();
      await harness.dispose();
    });

    const docker = (args: readonly string[]): string => {
      const result = spawnSync('docker', ['-H', target.host, 'history', ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } });
      assert.equal(result.status, 0, result.stderr);
      return result.stdout;
    };

    /** Ages under a minute tick between the runs: the figure and the padding after it are left out of the comparison. */
    const steady = (text: string): string => text.replace(/\d+ seconds ago( +|")/g, (_all, after: string) => `N seconds ago${after.startsWith(' ') ? ' ' : after}`);

    for (const args of [[], ['--no-trunc'], ['-q'], ['-q', '--no-trunc'], ['-H=false'], ['--human=false', '--no-trunc'], ['--format', 'json']]) {
      void it(`history ${args.join(' ')} prints what docker prints`.replace('  ', ' '), async () => {
        const before = steady(docker([...args, tag]));
        const berth = await harness.berth(['history', ...args, tag], { host: target.host });
        const afterwards = steady(docker([...args, tag]));
        assert.equal(berth.code, 0, berth.stderr);
        assert.ok(before.split('\n').length >= 6, `docker printed the five steps: ${before}`);
        if (steady(berth.stdout) !== afterwards) assert.equal(steady(berth.stdout), before);
      });
    }

    void it('history of an image that is not there fails with the engine\'s words, as docker does', async () => {
      const berth = await harness.berth(['history', `${tag}-gone`], { host: target.host });
      assert.equal(berth.code, 1);
      assert.match(berth.stderr, /^berth: .*No such image|^berth: .*image not known/im);
    });
  });
}
