// The pure parts of the files feature: the stat header, Go's FileMode type bits, paths and symlink targets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodePathStat } from '../../../../src/engine';
import { baseNameOf, execRefusal, kindOfStat, parentOf, resolveLink, tarOf } from '../../../../src/engine/files';

const stat = (mode: number) => ({ name: 'x', size: 0, mode, mtime: '', linkTarget: '' });

void describe('container files: pure parts', () => {
  void it('decodes X-Docker-Container-Path-Stat and refuses garbage', () => {
    const header = Buffer.from(JSON.stringify({ name: 'passwd', size: 71, mode: 420, mtime: '2026-01-02T03:04:05.123456789Z', linkTarget: '' })).toString('base64');
    assert.deepEqual(decodePathStat(header), { name: 'passwd', size: 71, mode: 420, mtime: '2026-01-02T03:04:05.123456789Z', linkTarget: '' });
    assert.equal(decodePathStat('not base64 json'), undefined);
    assert.equal(decodePathStat(undefined), undefined);
  });

  void it("reads Go's FileMode type bits above 32 bits, setuid and sticky included", () => {
    assert.equal(kindOfStat(stat(0o644)), 'file');
    assert.equal(kindOfStat(stat(2 ** 31 + 0o755)), 'directory');
    assert.equal(kindOfStat(stat(2 ** 31 + 2 ** 20 + 0o777)), 'directory', 'sticky /tmp');
    assert.equal(kindOfStat(stat(2 ** 27 + 0o777)), 'symlink');
    assert.equal(kindOfStat(stat(2 ** 23 + 0o755)), 'file', 'setuid binary');
    assert.equal(kindOfStat(stat(2 ** 26 + 2 ** 21 + 0o666)), 'other', 'char device');
  });

  void it('resolves symlink targets, relative and absolute, and splits paths', () => {
    assert.equal(resolveLink('/srv/link', 'a file ✓'), '/srv/a file ✓');
    assert.equal(resolveLink('/srv/sub/link', '../x/./y'), '/srv/x/y');
    assert.equal(resolveLink('/bin', 'usr/bin'), '/usr/bin');
    assert.equal(resolveLink('/a/b', '/etc/passwd'), '/etc/passwd');
    assert.equal(resolveLink('/a', '../../..'), '/');
    assert.equal(parentOf('/etc/passwd'), '/etc');
    assert.equal(parentOf('/etc'), '/');
    assert.equal(baseNameOf('/srv/d/'), 'd');
  });

  void it('tells a container without the tool from a stopped one and from a plain failure', () => {
    const noShell = execRefusal(undefined, { exitCode: 127, stdout: Buffer.alloc(0), stderr: 'exec: "rm": executable file not found in $PATH' }, 'delete');
    assert.equal(noShell?.kind, 'bad-request');
    assert.match(noShell?.message ?? '', /^This container has no shell; Berth can read and write files but cannot delete them/);
    const missing = execRefusal(undefined, { exitCode: 1, stdout: Buffer.alloc(0), stderr: "mv: can't rename '/a': No such file or directory" }, 'rename');
    assert.equal(missing?.kind, 'server', 'a missing file is not "no shell"');
    assert.match(missing?.message ?? '', /No such file or directory/);
    assert.equal(execRefusal(undefined, { exitCode: 0, stdout: Buffer.alloc(0), stderr: '' }, 'delete'), undefined);
  });

  void it('packs entries into one tar with a single end-of-archive', async () => {
    const tar = await tarOf([{ header: { name: 'a', type: 'directory', mode: 0o755 } }, { header: { name: 'a/b.txt', type: 'file', mode: 0o640, uid: 7 }, data: Buffer.from('hi') }]);
    assert.equal(tar.length % 512, 0);
    assert.equal(tar.subarray(0, 1).toString(), 'a');
    assert.equal(tar.subarray(512, 519).toString(), 'a/b.txt');
    assert.equal(tar.subarray(1024, 1026).toString(), 'hi');
  });
});
