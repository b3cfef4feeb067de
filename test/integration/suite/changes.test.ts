// The Changes row under a container in the real extension host: its counts, the tree of changed paths with their
// kinds, a changed file's diff (the image's version on the left through a helper container, the container's on the
// right through berth-container:), Revert File, and the row following the container while the view is shown.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readImageFileOf } from '../../../src/engine';
import { readContainerFile } from '../../../src/engine/files';
import { eventually, execOutput, useConnectedSuite, viewRows, viewShows } from '../support/fixtures';

describe('changes row in the containers view', () => {
  const { client, containers } = useConnectedSuite();
  let engineId = '';
  let running = { id: '', name: '' };

  before(async () => {
    engineId = (await vscode.commands.executeCommand<{ engine: string }>('berth.internal.modelSnapshot'))?.engine ?? 'local';
    running = await containers.create({ cmd: ['sh', '-c', 'echo extra:x:4242: >> /etc/group && rm /etc/passwd && mkdir -p /srv/new && echo hi > /srv/new/file.txt && touch /ready && sleep 600'] });
    await eventually('the container to make its changes', () => readContainerFile(client, running.id, '/ready'));
    await vscode.commands.executeCommand('berth.containers.focus');
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the Changes row counts each kind, and expands to folders and files marked A, C and D', async () => {
    const row = await viewShows('containers', [running.name], 'the Changes row with its counts', (rows) =>
      rows.find((each) => each.label === 'Changes' && /deleted/.test(each.description ?? '')),
    );
    assert.equal(row.contextValue, 'berth:changes');
    assert.match(row.description ?? '', /^\d+ added, \d+ changed, 1 deleted$/);
    const top = await viewRows('containers', [running.name, 'Changes']);
    for (const folder of ['etc', 'srv']) assert.ok(top.some((each) => each.label === folder && each.collapsible), top.map((each) => each.label).join(', '));
    const etc = await viewRows('containers', [running.name, 'Changes', 'etc']);
    const kinds = Object.fromEntries(etc.map((each) => [each.label, each.contextValue]));
    assert.equal(kinds['group'], 'berth:change:C');
    assert.equal(kinds['passwd'], 'berth:change:D');
    const added = await viewRows('containers', [running.name, 'Changes', 'srv', 'new']);
    assert.deepEqual(added.map((each) => [each.label, each.contextValue]), [['file.txt', 'berth:change:A']]);
  });

  it("a changed file opens as a diff: the image's version on the left, the container's on the right", async () => {
    await vscode.commands.executeCommand('berth.changes.openDiff', { engine: engineId, containerId: running.id, path: '/etc/group', kind: 0 });
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
    assert.equal(input.original.scheme, 'berth-image-file');
    assert.equal(input.modified.scheme, 'berth-container');
    const left = (await vscode.workspace.openTextDocument(input.original)).getText();
    const right = (await vscode.workspace.openTextDocument(input.modified)).getText();
    assert.equal(left, (await readImageFileOf(client, running.id, '/etc/group'))?.toString('utf8'));
    assert.equal(right, (await readContainerFile(client, running.id, '/etc/group')).toString('utf8'));
    assert.ok(right.includes('extra:x:4242:') && !left.includes('extra:x:4242:'), `${left}\n---\n${right}`);
  });

  it('Revert File writes the image version back (a changed file and a deleted one), and the row counts again', async () => {
    const imageGroup = await readImageFileOf(client, running.id, '/etc/group');
    assert.equal(await vscode.commands.executeCommand('berth.changes.revertFile', { engine: engineId, containerId: running.id, path: '/etc/group', confirmed: true }), true);
    assert.deepEqual(await readContainerFile(client, running.id, '/etc/group'), imageGroup);
    assert.equal(await vscode.commands.executeCommand('berth.changes.revertFile', { engine: engineId, containerId: running.id, path: '/etc/passwd', confirmed: true }), true);
    assert.deepEqual(await readContainerFile(client, running.id, '/etc/passwd'), await readImageFileOf(client, running.id, '/etc/passwd'));
    await viewShows('containers', [running.name], 'the Changes row without the deleted file', (rows) =>
      rows.find((each) => each.label === 'Changes' && !/deleted/.test(each.description ?? '')),
    );
    assert.equal(await vscode.commands.executeCommand('berth.changes.revertFile', { engine: engineId, containerId: running.id, path: '/etc/group', confirmed: false }), false);
  });

  it('the row follows the container while the view is shown: a file added by an exec appears', async () => {
    await viewRows('containers', [running.name]);
    await execOutput(client, running.id, ['touch', '/srv/new/later.txt']);
    await viewShows('containers', [running.name, 'Changes', 'srv', 'new'], 'the file added by the exec', (rows) => rows.find((each) => each.label === 'later.txt'));
  });
});
