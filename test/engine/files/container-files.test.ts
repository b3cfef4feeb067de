// Files inside containers over the archive API (src/engine/files/containerFiles.ts), against the private dockerd and
// Podman: both ways of listing agree, reads follow symlinks, writes keep mode and owner, and every refusal of the
// bad-input table (category "Files in containers") is asserted word for word on dockerd.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  listByArchive, listByExec, makeContainerDirectory, readContainerFile, runFileCommand, statFollowing, writeContainerFile,
  execCapture, kindOfStat, tarOf,
} from '../../../src/engine/files';
import { useEngineSuite } from '../../support/engineSuite';
import { engineTargets, loadTestEngines, uniqueName } from '../../support/engines';
import { importScratchImage, SCRATCH_SLEEP } from '../../support/scratchImage';
import { assertCase } from '../engine/bad-input-support';

const engines = loadTestEngines();
const SETUP = 'mkdir -p /srv/d/deep && touch /srv/d/deep/x "/srv/a file ✓" && ln -s /srv/d /srv/to-d && ln -s "a file ✓" /srv/rel-link && chown 1234:2345 "/srv/a file ✓" && chmod 640 "/srv/a file ✓"';

async function shell(client: ReturnType<typeof useEngineSuite>['client'], id: string, script: string): Promise<string> {
  const result = await execCapture(client, id, ['sh', '-c', script]);
  assert.equal(result.exitCode, 0, result.stderr);
  return result.stdout.toString('utf8');
}

for (const { name: kind, host, skip } of engineTargets(engines)) {
  void describe(`container files on ${kind}`, () => {
    const suite = useEngineSuite({ host, skip, name: `files-${kind}` });
    const { client } = suite;

    void it('lists one level through exec and through the archive alike, with kinds', { skip }, async () => {
      const id = await suite.createContainer(['sleep', '600']);
      await client.containers.start(id);
      await shell(client, id, SETUP);
      const byExec = (await listByExec(client, id, '/srv')).sort((a, b) => a.name.localeCompare(b.name));
      const byArchive = (await listByArchive(client, id, '/srv')).sort((a, b) => a.name.localeCompare(b.name));
      assert.deepEqual(byExec, [
        { name: 'a file ✓', kind: 'file' },
        { name: 'd', kind: 'directory' },
        { name: 'rel-link', kind: 'symlink' },
        { name: 'to-d', kind: 'symlink' },
      ]);
      assert.deepEqual(byArchive, byExec);
    });

    void it('follows symlinks on read and on stat', { skip }, async () => {
      const id = await suite.createContainer(['sleep', '600']);
      await client.containers.start(id);
      await shell(client, id, `${SETUP} && printf 'text ✓' > "/srv/a file ✓"`);
      assert.equal((await readContainerFile(client, id, '/srv/rel-link')).toString('utf8'), 'text ✓');
      const followed = await statFollowing(client, id, '/srv/to-d');
      assert.equal(followed.path, '/srv/d');
      assert.equal(kindOfStat(followed.stat), 'directory');
    });

    void it('writes keep mode and owner; a new file and a directory get the owner of their parent', { skip }, async () => {
      const id = await suite.createContainer(['sleep', '600']);
      await client.containers.start(id);
      await shell(client, id, `${SETUP} && chown 1234:2345 /srv/d`);
      await writeContainerFile(client, id, '/srv/a file ✓', Buffer.from('new ✓'));
      await writeContainerFile(client, id, '/srv/d/created.txt', Buffer.from('created'));
      await makeContainerDirectory(client, id, '/srv/d/sub');
      const stats = await shell(client, id, 'stat -c "%u %g %a %n" "/srv/a file ✓" /srv/d/created.txt /srv/d/sub');
      assert.deepEqual(stats.trim().split('\n'), ['1234 2345 640 /srv/a file ✓', '1234 2345 644 /srv/d/created.txt', '1234 2345 755 /srv/d/sub']);
      assert.equal(await shell(client, id, 'cat "/srv/a file ✓"'), 'new ✓');
    });

    void it('reads, writes and lists a container without a shell; exec listing fails there', { skip }, async () => {
      const source = await suite.createContainer(['sleep', '600']);
      await client.containers.start(source);
      const image = await importScratchImage(client, source, uniqueName(`berth-files-scratch-${kind}`));
      suite.cleanup(() => client.images.remove(image, { force: true }).catch(() => undefined));
      const id = await suite.createContainer(SCRATCH_SLEEP, { Image: image });
      await client.containers.start(id);
      await assert.rejects(listByExec(client, id, '/'), /find in the container failed/);
      const names = (await listByArchive(client, id, '/')).map((entry) => entry.name);
      for (const expected of ['app', 'tool', 'tmp']) assert.ok(names.includes(expected), names.join(', '));
      assert.equal(names.includes('bin'), false);
      await writeContainerFile(client, id, '/app/config.txt', Buffer.from('setting=2\n'));
      assert.equal((await readContainerFile(client, id, '/app/config.txt')).toString('utf8'), 'setting=2\n');
      if (kind === 'docker') {
        await assertCase('files-no-shell', () => runFileCommand(client, id, ['rm', '-f', '--', '/app/config.txt'], 'delete'));
      } else {
        await assert.rejects(runFileCommand(client, id, ['rm', '-f', '--', '/app/config.txt'], 'delete'), /This container has no shell/);
      }
    });

    void it("a container user's permissions: reading a root-only file works (the archive reads as the engine), deleting is refused with the container's words", { skip }, async () => {
      const id = await suite.createContainer(['sleep', '600'], { User: '1000' });
      await client.containers.start(id);
      await client.containers.putArchive(id, '/tmp', await tarOf([{ header: { name: 'secret.txt', type: 'file', mode: 0o600, uid: 0, gid: 0, mtime: new Date() }, data: Buffer.from('root only\n') }]));
      const denied = await execCapture(client, id, ['cat', '/tmp/secret.txt']);
      assert.match(denied.stderr, /Permission denied/, 'the container user itself cannot read it');
      assert.equal((await readContainerFile(client, id, '/tmp/secret.txt')).toString('utf8'), 'root only\n');
      if (kind === 'podman') {
        await assert.rejects(runFileCommand(client, id, ['rm', '-f', '--', '/etc/passwd'], 'delete'), { kind: 'unauthorized' });
        return;
      }
      await assertCase('files-permission-denied', () => runFileCommand(client, id, ['rm', '-f', '--', '/etc/passwd'], 'delete'));
    });

    void it('refuses clearly: a missing path, a directory read as a file, a stopped container, a read-only root, a removed container', { skip }, async () => {
      const id = await suite.createContainer(['sleep', '600']);
      await client.containers.start(id);
      const stopped = await suite.createContainer(['true']);
      const readOnly = await suite.createContainer(['sleep', '600'], { HostConfig: { ReadonlyRootfs: true } });
      await client.containers.start(readOnly);
      if (kind === 'podman') {
        await assert.rejects(readContainerFile(client, id, '/no/such/file'), { kind: 'not-found' });
        await assert.rejects(runFileCommand(client, stopped, ['rm', '-f', '--', '/etc/passwd'], 'delete'), /The container is not running/);
        await assert.rejects(writeContainerFile(client, readOnly, '/etc/motd', Buffer.from('x')), /root file system is read-only/);
        return;
      }
      await assertCase('files-missing-path', () => readContainerFile(client, id, '/no/such/file'));
      await assertCase('files-missing-path', () => client.containers.statPath(id, '/no/such/file'));
      await assertCase('files-directory-as-file', () => readContainerFile(client, id, '/etc'));
      await assertCase('files-not-running', () => runFileCommand(client, stopped, ['rm', '-f', '--', '/etc/passwd'], 'delete'), { id: stopped });
      await assertCase('files-read-only-root', () => writeContainerFile(client, readOnly, '/etc/motd', Buffer.from('x')));
      assert.match((await readContainerFile(client, readOnly, '/etc/passwd')).toString('utf8'), /^root:/);
      const removed = await suite.createContainer(['true']);
      await client.containers.remove(removed);
      await assertCase('files-container-removed', () => client.containers.statPath(removed, '/etc'), { id: removed });
    });
  });
}
