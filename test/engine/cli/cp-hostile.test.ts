// `berth cp CONTAINER:SRC DEST` against a hostile engine: an in-process fake on a Unix socket speaking the archive
// endpoint's wire format serves the security review's three archives (issue 32), and berth must refuse each, naming
// the entry (rows of the bad-input table), with every sentinel beside the destination unchanged; so must it refuse `..`,
// absolute names and a directory replaced by a file. Then trees a real engine sends (links to `..`,
// link chains, absolute links, a hard link, modes) still come out of dockerd and Podman as `docker cp` writes them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { execCapture } from '../../../src/engine/files';
import { containerSpec } from '../../support/containerSpec';
import { engineTargets, loadTestEngines } from '../../support/engines';
import { startFakeEngine, type FakeEngine } from '../../support/fakeEngine';
import { expectedMessage } from '../engine/bad-input-cases';
import { archiveRoute, nameArchives, reviewArchives, sentinelTree, snapshotOutside, tarOf, type ServedArchive } from '../../support/hostileArchive';
import { createCliHarness, type CliHarness } from './support';

void describe('berth cp from a hostile engine', () => {
  let harness: CliHarness;
  let fake: FakeEngine;
  let served: ServedArchive | undefined;
  let scratch: string;
  before(async () => {
    harness = await createCliHarness('cp-hostile');
    fake = await startFakeEngine([archiveRoute((path) => (path === '/app' ? served : undefined))]);
    scratch = mkdtempSync(join(tmpdir(), 'berth-cp-hostile-'));
  });
  after(async () => {
    await fake.close();
    rmSync(scratch, { recursive: true, force: true });
    await harness.dispose();
  });

  for (const [index, review] of [...reviewArchives('OUTSIDE'), ...nameArchives()].entries()) {
    void it(`refuses ${review.title}, naming the entry, and changes nothing beside the destination`, async () => {
      const base = join(scratch, `review-${index}`);
      mkdirSync(base);
      const { outside, dest } = sentinelTree(base);
      served = { kind: 'directory', tar: await tarOf(review.entries.map((entry) => ({ ...entry, linkname: entry.linkname?.replace('OUTSIDE', outside) }))) };
      const before = snapshotOutside(base, join(dest, 'app'));
      const result = await harness.berth(['cp', 'hostile:/app', dest], { host: fake.host });
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.stderr, `berth: ${expectedMessage(review.id, { ...review.values, destination: join(realpathSync(dest), 'app') })}\n`);
      assert.deepEqual(snapshotOutside(base, join(dest, 'app')), before);
      assert.equal(readFileSync(join(outside, 'victim'), 'utf8'), 'victim: unchanged\n');
      assert.equal(readFileSync(join(dest, '.bashrc'), 'utf8'), 'bashrc: unchanged\n');
      assert.ok(fake.seen.includes('GET /containers/hostile/archive'), fake.seen.join(', '));
    });
  }
});

/**
 * Links to `..` and along a chain, an absolute link, a hard link, a directory and a file with their own modes. (docker
 * cp refuses a relative link that leads above the destination, "invalid symlink"; Berth creates it and never follows
 * it, so the tree keeps its `..` links inside.)
 */
const TREE = 'mkdir -p /t/d && printf data > /t/d/f && chmod 600 /t/d/f && chmod 750 /t/d && ln /t/d/f /t/hard && ln -s d/f /t/rel && ln -s /etc/passwd /t/abs && ln -s .. /t/d/up && ln -s up/d/up /t/d/chain && ln -s d /t/dirlink';

/** A host tree as text: each path's kind, mode, link target or bytes, and which paths share an inode. */
function describeTree(root: string): string[] {
  const lines: string[] = [];
  const inodes = new Map<number, string>();
  const walk = (path: string, rel: string): void => {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) lines.push(`${rel} -> ${readlinkSync(path)}`);
    else if (info.isDirectory()) {
      lines.push(`${rel}/ ${(info.mode & 0o777).toString(8)}`);
      for (const child of readdirSync(path).sort()) walk(join(path, child), rel === '' ? child : `${rel}/${child}`);
    } else {
      const same = inodes.get(info.ino);
      if (same === undefined) inodes.set(info.ino, rel);
      lines.push(`${rel} ${(info.mode & 0o777).toString(8)} ${readFileSync(path, 'utf8')}${same === undefined ? '' : ` (same file as ${same})`}`);
    }
  };
  walk(root, '');
  return lines;
}

for (const target of engineTargets(loadTestEngines())) {
  void describe(`berth cp of links and hard links from ${target.name}, as docker cp writes them`, { skip: target.skip }, () => {
    let harness: CliHarness;
    let scratch: string;
    let reference: string;
    let id: string | undefined;
    before(async () => {
      harness = await createCliHarness(`cp-links-${target.name}`);
      scratch = mkdtempSync(join(tmpdir(), 'berth-cp-links-'));
      const labels = Object.fromEntries(harness.labelArgs.filter((_, index) => index % 2 === 1).map((pair) => pair.split('=') as [string, string]));
      const create = async (host: string) => {
        const client = harness.clientFor(host);
        const created = (await client.containers.create(containerSpec(harness.engines.image, ['sleep', '600'], { Labels: labels }))).Id;
        await client.containers.start(created);
        assert.equal((await execCapture(client, created, ['sh', '-c', TREE])).exitCode, 0);
        return created;
      };
      // docker cp reads the tree from dockerd; berth reads the same tree from this target.
      reference = await create(harness.engines.dockerHost);
      id = target.host === harness.engines.dockerHost ? reference : await create(target.host);
    });
    after(async () => {
      if (id !== undefined && id !== reference) await harness.clientFor(target.host).containers.remove(id, { force: true });
      rmSync(scratch, { recursive: true, force: true });
      await harness.dispose();
    });

    for (const source of ['/t', '/t/.']) {
      void it(`${source} into an existing directory`, async () => {
        const mine = join(scratch, `berth${source.replace(/\W+/g, '-')}`);
        const theirs = join(scratch, `docker${source.replace(/\W+/g, '-')}`);
        for (const base of [mine, theirs]) mkdirSync(base);
        const result = await harness.berth(['cp', `${id}:${source}`, mine], { host: target.host });
        assert.equal(result.code, 0, result.stderr);
        const peer = spawnSync('docker', ['-H', harness.engines.dockerHost, 'cp', `${reference}:${source}`, theirs], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } });
        assert.equal(peer.status, 0, peer.stderr);
        const tree = describeTree(mine);
        assert.ok(tree.some((line) => line.includes('(same file as')), tree.join('\n'));
        assert.deepEqual(tree, describeTree(theirs));
      });
    }
  });
}
