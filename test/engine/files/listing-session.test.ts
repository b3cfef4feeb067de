// The listing helper that stays in a container while its folders are opened (src/engine/files/listingSession.ts) and the
// provider's keeper of them (src/files/listingSessions.ts), against the private dockerd and Podman: it lists what the
// one-shot exec lists, request after request and several at once, keeps its answers in order after a failure,
// refuses paths it cannot pass as data, and leaves no process behind once closed or idle.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { execCapture, listByExec, ListingSession } from '../../../src/engine/files';
import { ListingSessions } from '../../../src/files/listingSessions';
import { useEngineSuite } from '../../support/engineSuite';
import { engineTargets, loadTestEngines, uniqueName } from '../../support/engines';
import { importScratchImage, SCRATCH_SLEEP } from '../../support/scratchImage';
import { sleep } from '../../support/wait';

const engines = loadTestEngines();
// Names that break naive parsers: spaces, unicode, a leading dash, a newline, a trailing backslash.
const SETUP = [
  'mkdir -p "/srv/a dir" /srv/empty /srv/many',
  'touch "/srv/a file ✓" /srv/-dash "/srv/new\nline" "/srv/back\\\\"',
  'ln -s "/srv/a dir" /srv/link',
  'cd /srv/many && i=0 && while [ $i -lt 300 ]; do : > f$i; i=$((i+1)); done',
].join(' && ');

const byName = <T extends { name: string }>(entries: T[]): T[] => [...entries].sort((a, b) => a.name.localeCompare(b.name));

/** The helpers' `sh` processes in the container, as `top` shows them (the script's first words name them). */
async function helperProcesses(client: ReturnType<typeof useEngineSuite>['client'], id: string): Promise<number> {
  const top = await client.containers.top(id);
  return (top.Processes ?? []).filter((row) => row.join(' ').includes('while IFS= read')).length;
}

async function waitForNoHelper(client: ReturnType<typeof useEngineSuite>['client'], id: string): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    if ((await helperProcesses(client, id)) === 0) return;
    await sleep(100);
  }
  assert.fail('the listing helper is still running in the container 10 s after it was closed');
}

for (const { name: kind, host, skip } of engineTargets(engines)) {
  void describe(`listing helper on ${kind}`, () => {
    const suite = useEngineSuite({ host, skip, name: `listing-${kind}` });
    const { client } = suite;

    void it('lists what the one-shot exec lists, one request after another and several at once', { skip }, async () => {
      const id = await suite.createContainer(['sleep', '600']);
      await client.containers.start(id);
      assert.equal((await execCapture(client, id, ['sh', '-c', SETUP])).exitCode, 0);
      const session = await ListingSession.open(client, id);
      try {
        for (const dir of ['/srv', '/srv/many', '/srv/empty', '/srv/a dir']) {
          assert.deepEqual(byName(await session.list(dir)), byName(await listByExec(client, id, dir)), dir);
        }
        const srv = byName(await session.list('/srv'));
        assert.deepEqual(srv.filter((entry) => entry.name !== 'many' && entry.name !== 'empty'), byName([
          { name: '-dash', kind: 'file' },
          { name: 'a dir', kind: 'directory' },
          { name: 'a file ✓', kind: 'file' },
          { name: 'back\\', kind: 'file' },
          { name: 'link', kind: 'symlink' },
          { name: 'new\nline', kind: 'file' },
        ]));
        const [many, empty, root] = await Promise.all([session.list('/srv/many'), session.list('/srv/empty'), session.list('/')]);
        assert.equal(many.length, 300);
        assert.deepEqual(empty, []);
        assert.ok(root.some((entry) => entry.name === 'srv' && entry.kind === 'directory'));
        assert.equal(await helperProcesses(client, id), 1, 'one helper serves every listing');
      } finally {
        session.close();
      }
      await waitForNoHelper(client, id);
    });

    void it('a missing directory fails that listing only; paths it cannot pass as data are refused before the container', { skip }, async () => {
      const id = await suite.createContainer(['sleep', '600']);
      await client.containers.start(id);
      const session = await ListingSession.open(client, id);
      try {
        const [missing, after] = await Promise.allSettled([session.list('/no/such/dir'), session.list('/etc')]);
        assert.equal(missing.status, 'rejected');
        assert.match(String(missing.reason), /find in the container failed \(exit 3\) for \/no\/such\/dir/);
        assert.equal(after.status, 'fulfilled');
        assert.ok((after as PromiseFulfilledResult<Array<{ name: string }>>).value.some((entry) => entry.name === 'passwd'));
        await assert.rejects(session.list('relative/path'), { kind: 'bad-request' });
        await assert.rejects(session.list('/a\nb'), { kind: 'bad-request' });
        assert.equal(session.closed, false, 'a refused path does not end the helper');
        assert.ok((await session.list('/')).length > 0);
      } finally {
        session.close();
      }
      await assert.rejects(session.list('/'), /The listing helper has ended/);
    });

    void it('a container without a shell: the helper ends with a clear error, nothing hangs', { skip }, async () => {
      const source = await suite.createContainer(['sleep', '600']);
      await client.containers.start(source);
      const image = await importScratchImage(client, source, uniqueName(`berth-listing-scratch-${kind}`));
      suite.cleanup(() => client.images.remove(image, { force: true }).catch(() => undefined));
      const id = await suite.createContainer(SCRATCH_SLEEP, { Image: image });
      await client.containers.start(id);
      const opened = await ListingSession.open(client, id).then(
        (session) => session.list('/').then(() => 'listed', (error: unknown) => `failed: ${String(error)}`),
        (error: unknown) => `refused: ${String(error)}`,
      );
      assert.match(opened, /^(failed: .*listing helper in the container ended|refused: )/);
    });

    void it('the keeper reuses one helper per container and ends it when idle; a stopped container gets none', { skip }, async () => {
      const id = await suite.createContainer(['sleep', '600']);
      await client.containers.start(id);
      const keeper = new ListingSessions(300);
      try {
        await keeper.list(client, id, '/');
        await keeper.list(client, id, '/etc');
        assert.equal(keeper.count, 1);
        assert.equal(await helperProcesses(client, id), 1);
        await waitForNoHelper(client, id);
        assert.equal(keeper.count, 0, 'the idle helper was dropped');
        const stopped = await suite.createContainer(['true']);
        await assert.rejects(keeper.list(client, stopped, '/'), (error: Error & { kind?: string }) => error.kind !== undefined);
        assert.equal(keeper.count, 0, 'a helper that never started is not kept');
      } finally {
        keeper.dispose();
      }
    });
  });
}
