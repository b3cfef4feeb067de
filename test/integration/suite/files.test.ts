// The berth-container file system through vscode.workspace.fs in the real extension host, checked through the
// engine: a running busybox, a stopped container, one FROM scratch without a shell, one with a read-only root.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readContainerFile } from '../../../src/engine/files';
import { containerSpec } from '../../support/containerSpec';
import { uniqueName } from '../../support/engines';
import { importScratchImage, SCRATCH_SLEEP } from '../../support/scratchImage';
import { eventually, useConnectedSuite, execOutput, removeImageQuietly } from '../support/fixtures';

const UNICODE_NAME = 'dír with spaces ✓ 日本.txt';

describe('files in containers (berth-container)', () => {
  const scratchImage = `${uniqueName('berth-it-scratch')}:latest`;
  const { client, containers, engines } = useConnectedSuite(() => removeImageQuietly(client, scratchImage));
  let engineId = '';
  let running = '';
  let stopped = '';
  let scratch = '';
  let readonlyRoot = '';

  function uri(container: string, path: string): vscode.Uri {
    return vscode.Uri.from({ scheme: 'berth-container', authority: engineId, path: `/${container}${path}` });
  }

  async function fsError(work: () => Thenable<unknown>): Promise<vscode.FileSystemError> {
    try {
      await work();
    } catch (error) {
      assert.ok(error instanceof vscode.FileSystemError, `a FileSystemError, not ${String(error)}`);
      return error;
    }
    assert.fail('the call succeeded');
  }

  before(async function () {
    this.timeout(120_000);
    engineId = (await vscode.commands.executeCommand<{ engine: string }>('berth.internal.modelSnapshot'))?.engine ?? 'local';
    running = (await containers.create({ cmd: ['sleep', '600'] })).id;
    stopped = (await containers.create({ cmd: ['sh', '-c', 'echo stopped > /tmp/state.txt'] })).id;
    await (await client.containers.wait(stopped, { condition: 'not-running' })).result;
    await importScratchImage(client, running, scratchImage.split(':')[0] as string);
    scratch = containers.track((await client.containers.create(containerSpec(scratchImage, SCRATCH_SLEEP), { name: uniqueName('berth-it-scratch') })).Id);
    await client.containers.start(scratch);
    readonlyRoot = containers.track(
      (await client.containers.create(containerSpec(engines.image, ['sleep', '600'], { HostConfig: { ReadonlyRootfs: true } }), { name: uniqueName('berth-it-ro') })).Id,
    );
    await client.containers.start(readonlyRoot);
  });

  it('reads a file, writes it back keeping mode and owner, and the engine sees the new text', async () => {
    await execOutput(client, running, ['sh', '-c', 'printf "one\\n" > /tmp/conf.txt && chown 1234:2345 /tmp/conf.txt && chmod 640 /tmp/conf.txt']);
    const target = uri(running, '/tmp/conf.txt');
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(target)).toString('utf8'), 'one\n');
    await vscode.workspace.fs.writeFile(target, Buffer.from('two ✓\n'));
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(target)).toString('utf8'), 'two ✓\n');
    assert.equal((await readContainerFile(client, running, '/tmp/conf.txt')).toString('utf8'), 'two ✓\n');
    assert.equal((await execOutput(client, running, ['stat', '-c', '%u %g %a', '/tmp/conf.txt'])).trim(), '1234 2345 640');
  });

  it('lists a directory one level deep, with types', async () => {
    await execOutput(client, running, ['sh', '-c', 'mkdir -p /srv/a/deep && touch /srv/a/deep/x /srv/file && ln -s /srv/file /srv/link && ln -s /srv/a /srv/dirlink']);
    const entries = new Map(await vscode.workspace.fs.readDirectory(uri(running, '/srv')));
    assert.deepEqual([...entries.keys()].sort(), ['a', 'dirlink', 'file', 'link']);
    assert.equal(entries.get('a'), vscode.FileType.Directory);
    assert.equal(entries.get('file'), vscode.FileType.File);
    assert.equal(entries.get('link'), vscode.FileType.SymbolicLink | vscode.FileType.File);
    assert.equal(entries.get('dirlink'), vscode.FileType.SymbolicLink | vscode.FileType.Directory);
  });

  it('reports a symlink as a symlink and follows it on read', async () => {
    await execOutput(client, running, ['sh', '-c', 'printf "target text" > /tmp/real.txt && ln -sf real.txt /tmp/alias.txt']);
    const stat = await vscode.workspace.fs.stat(uri(running, '/tmp/alias.txt'));
    assert.equal(stat.type, vscode.FileType.SymbolicLink | vscode.FileType.File);
    assert.equal(stat.size, 'target text'.length);
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(uri(running, '/tmp/alias.txt'))).toString('utf8'), 'target text');
  });

  it('reads and writes a stopped container through the archive API', async () => {
    const names = (await vscode.workspace.fs.readDirectory(uri(stopped, '/tmp'))).map(([name]) => name);
    assert.ok(names.includes('state.txt'), names.join(', '));
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(uri(stopped, '/tmp/state.txt'))).toString('utf8'), 'stopped\n');
    await vscode.workspace.fs.writeFile(uri(stopped, '/tmp/state.txt'), Buffer.from('edited while stopped\n'));
    assert.equal((await readContainerFile(client, stopped, '/tmp/state.txt')).toString('utf8'), 'edited while stopped\n');
    const error = await fsError(() => vscode.workspace.fs.delete(uri(stopped, '/tmp/state.txt')));
    assert.match(error.message, /not running/);
  });

  it('works in a container without a shell, and says why it cannot delete there', async () => {
    const root = new Map(await vscode.workspace.fs.readDirectory(uri(scratch, '/')));
    assert.equal(root.get('tool'), vscode.FileType.Directory);
    assert.equal(root.get('app'), vscode.FileType.Directory);
    assert.equal(root.has('bin'), false);
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(uri(scratch, '/app/config.txt'))).toString('utf8'), 'setting=1\n');
    await vscode.workspace.fs.writeFile(uri(scratch, '/app/config.txt'), Buffer.from('setting=2\n'));
    await vscode.workspace.fs.createDirectory(uri(scratch, '/app/cache'));
    assert.equal((await vscode.workspace.fs.stat(uri(scratch, '/app/cache'))).type, vscode.FileType.Directory);
    assert.equal((await readContainerFile(client, scratch, '/app/config.txt')).toString('utf8'), 'setting=2\n');
    const error = await fsError(() => vscode.workspace.fs.delete(uri(scratch, '/app/config.txt')));
    assert.match(error.message, /this container has no shell; Berth can read and write files but cannot delete them/i);
    assert.equal((await readContainerFile(client, scratch, '/app/config.txt')).toString('utf8'), 'setting=2\n');
  });

  it('marks a read-only root file system read-only and refuses to write there', async () => {
    const stat = await vscode.workspace.fs.stat(uri(readonlyRoot, '/etc/passwd'));
    assert.equal(stat.permissions, vscode.FilePermission.Readonly);
    const error = await fsError(() => vscode.workspace.fs.writeFile(uri(readonlyRoot, '/etc/passwd'), Buffer.from('x')));
    assert.equal(error.code, 'NoPermissions');
    assert.match(error.message, /read-only/);
    assert.match((await readContainerFile(client, readonlyRoot, '/etc/passwd')).toString('utf8'), /^root:/);
  });

  it('creates, renames and deletes through exec, checked through the engine', async () => {
    await vscode.workspace.fs.createDirectory(uri(running, '/work'));
    await vscode.workspace.fs.writeFile(uri(running, '/work/a.txt'), Buffer.from('a'));
    await vscode.workspace.fs.rename(uri(running, '/work/a.txt'), uri(running, '/work/b.txt'));
    assert.equal((await execOutput(client, running, ['ls', '/work'])).trim(), 'b.txt');
    await vscode.workspace.fs.delete(uri(running, '/work'), { recursive: true });
    assert.match(await execOutput(client, running, ['sh', '-c', 'ls /work 2>&1; true']), /No such file or directory/);
  }).timeout(60_000);

  it('a missing path is FileNotFound', async () => {
    const error = await fsError(() => vscode.workspace.fs.stat(uri(running, '/no/such/file')));
    assert.equal(error.code, 'FileNotFound');
    const read = await fsError(() => vscode.workspace.fs.readFile(uri(stopped, '/no-such-file')));
    assert.equal(read.code, 'FileNotFound');
  });

  it('unicode and spaces in names survive a write, a listing and a read', async () => {
    await vscode.workspace.fs.writeFile(uri(running, `/tmp/${UNICODE_NAME}`), Buffer.from('ünïcode'));
    const names = (await vscode.workspace.fs.readDirectory(uri(running, '/tmp'))).map(([name]) => name);
    assert.ok(names.includes(UNICODE_NAME), names.join(', '));
    assert.equal((await execOutput(client, running, ['cat', `/tmp/${UNICODE_NAME}`])), 'ünïcode');
  });

  it('a binary file gets VS Code\'s binary refusal, not garbage text', async () => {
    await assert.rejects(Promise.resolve(vscode.workspace.openTextDocument(uri(running, '/bin/busybox'))), /binary/i);
    const bytes = await vscode.workspace.fs.readFile(uri(running, '/bin/busybox'));
    assert.equal(Buffer.compare(Buffer.from(bytes), await readContainerFile(client, running, '/bin/busybox')), 0);
  });

  it('a removed container says so instead of "file not found"', async () => {
    const doomed = (await containers.create({ cmd: ['sleep', '600'] })).id;
    assert.match(Buffer.from(await vscode.workspace.fs.readFile(uri(doomed, '/etc/passwd'))).toString('utf8'), /^root:/);
    await client.containers.remove(doomed, { force: true });
    const error = await fsError(() => vscode.workspace.fs.readFile(uri(doomed, '/etc/passwd')));
    assert.equal(error.code, 'Unavailable');
    assert.match(error.message, /was removed/);
  });

  it('an editor save conflicts when the file changed in the container since it was opened', async () => {
    await execOutput(client, running, ['sh', '-c', 'printf "original\\n" > /tmp/conflict.txt']);
    const document = await vscode.workspace.openTextDocument(uri(running, '/tmp/conflict.txt'));
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'mine '));
    // Changed in the container, with an mtime clearly later than the one the editor read: ten minutes ahead (a date
    // decades ahead is not what a user meets, and the workbench's timers take such mtimes as they come).
    const later = new Date(Date.now() + 600_000);
    const stamp = later.toISOString().slice(0, 19).replace('T', ' ');
    await execOutput(client, running, ['sh', '-c', `printf "theirs, longer\\n" > /tmp/conflict.txt && touch -d "${stamp}" /tmp/conflict.txt`]);
    assert.ok((await vscode.workspace.fs.stat(document.uri)).mtime >= later.getTime() - 1000, 'the provider reports the new mtime');
    const saved = await document.save();
    assert.equal(saved, false, 'the save must not overwrite the newer file');
    assert.equal((await readContainerFile(client, running, '/tmp/conflict.txt')).toString('utf8'), 'theirs, longer\n');
    assert.equal(document.getText(), 'mine original\n', 'the unsaved text stays in the editor');
    // Revert this very document: the failed save's notification may hold the focus, and a dirty editor left behind
    // makes a later Close All ask "Save changes?" in a modal that blocks every editor the next suites open.
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.equal(document.isDirty, false, 'the conflicting edit was reverted');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('Download copies a file and a folder to the host; Upload copies host files into a container folder', async () => {
    const host = mkdtempSync(join(tmpdir(), 'berth-it-files-'));
    try {
      await execOutput(client, running, ['sh', '-c', 'mkdir -p /dl/sub && printf "top" > /dl/top.txt && printf "deep ✓" > /dl/sub/deep.txt']);
      const file = await vscode.commands.executeCommand<string>('berth.files.download', uri(running, '/dl/top.txt'), { destination: join(host, 'top copy.txt') });
      assert.equal(readFileSync(file, 'utf8'), 'top');
      const folder = await vscode.commands.executeCommand<string>('berth.files.download', uri(running, '/dl'), { destination: join(host, 'dl') });
      assert.equal(readFileSync(join(folder, 'sub', 'deep.txt'), 'utf8'), 'deep ✓');
      // Again onto the folder now there (a replace confirmed in the save dialog): its contents merge into it, and
      // nothing is nested as dl/dl or lost.
      writeFileSync(join(host, 'dl', 'mine.txt'), 'kept');
      await execOutput(client, running, ['sh', '-c', 'printf "top, changed" > /dl/top.txt']);
      await vscode.commands.executeCommand<string>('berth.files.download', uri(running, '/dl'), { destination: join(host, 'dl') });
      assert.equal(readFileSync(join(host, 'dl', 'top.txt'), 'utf8'), 'top, changed');
      assert.equal(readFileSync(join(host, 'dl', 'mine.txt'), 'utf8'), 'kept');
      assert.equal(existsSync(join(host, 'dl', 'dl')), false, 'no nested copy');
      writeFileSync(join(host, 'from host ✓.txt'), 'uploaded');
      await vscode.commands.executeCommand('berth.files.upload', uri(scratch, '/app'), { sources: [join(host, 'from host ✓.txt')] });
      assert.equal((await readContainerFile(client, scratch, '/app/from host ✓.txt')).toString('utf8'), 'uploaded');
    } finally {
      rmSync(host, { recursive: true, force: true });
    }
  });

  it('Download… from a row: the save dialog proposes the workspace folder, never the root; Enter writes there', async function () {
    this.timeout(120_000);
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'the test workbench opened a folder');
    const name = `${uniqueName('berth-it-note')}.txt`;
    await execOutput(client, running, ['sh', '-c', `printf note > /tmp/${name}`]);
    let settled = false;
    const downloading = Promise.resolve(vscode.commands.executeCommand<string | undefined>('berth.files.download', uri(running, `/tmp/${name}`))).finally(() => (settled = true));
    try {
      // The save dialog is a quick input in the browser workbench: Enter takes the path it proposes.
      await eventually(
        'the save dialog accepted Enter',
        async () => {
          if (settled) return true;
          await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
          return undefined;
        },
        60_000,
      );
      const written = await downloading;
      assert.equal(written, join(workspace, name), 'the proposed path');
      assert.equal(readFileSync(join(workspace, name), 'utf8'), 'note');
    } finally {
      rmSync(join(workspace, name), { force: true });
      rmSync(join('/', name), { force: true });
    }
  });

  it('Open Folder in Workspace adds the container path as a workspace folder', async () => {
    const opened = await vscode.commands.executeCommand<string>('berth.files.openFolder', running, { path: '/srv' });
    assert.equal(opened, uri(running, '/srv').toString());
    const withFolder = vscode.workspace.workspaceFolders?.length ?? 0;
    const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.toString() === opened);
    assert.ok(folder, 'the folder is in the workspace');
    assert.equal(folder.name, `${(await client.containers.inspect(running)).Name.replace(/^\//, '')}:/srv`);
    // A test window may not enter a multi-root workspace, so the workbench takes the folder back within a moment (a
    // normal window enters an untitled workspace instead). Wait for that answer: a second change sent before it, as
    // this test once did, races the first, and the suites after it must not meet a workspace in mid-change.
    const settled = await eventually('the workbench to answer the folder change', () => {
      const now = vscode.workspace.workspaceFolders ?? [];
      return now.length === withFolder - 1 ? 'refused' : undefined;
    }, 10_000).catch(() => 'kept');
    if (settled === 'kept') {
      const removed = new Promise<void>((resolve) => {
        const listener = vscode.workspace.onDidChangeWorkspaceFolders(() => {
          listener.dispose();
          resolve();
        });
      });
      assert.ok(vscode.workspace.updateWorkspaceFolders(folder.index, 1), 'the folder can be removed again');
      await removed;
    }
  });
});
