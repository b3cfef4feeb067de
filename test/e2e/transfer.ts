// Issue 31 item 3, in the real workbench: Download… on a Files row proposes the workspace folder in its save dialog
// (it proposed /<name>, and Enter wrote at the host's root), and Download and Upload each end with a message saying
// where the copy went, with Open. Checked on the host's disk and through the engine.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineClient } from '../../src/engine';
import { execCapture, readContainerFile } from '../../src/engine/files';
import { containerSpec } from '../support/containerSpec';
import { uniqueName } from '../support/engines';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

export const TRANSFER_CASE = 'Download… and Upload… on Files rows: the save dialog proposes the workspace folder; each ends saying where, with Open';

export async function transferFromRows(workbench: Workbench, driver: WorkbenchDriver, client: EngineClient, image: string): Promise<void> {
  const { page } = workbench;
  const workspace = workbench.server.workspaceDir;
  const name = uniqueName('berth-e2e-transfer');
  const note = `${name}-note.txt`;
  const upload = `${name}-up.txt`;
  const { Id } = await client.containers.create(containerSpec(image, ['sleep', '600']), { name });
  try {
    await client.containers.start(Id);
    const setup = await execCapture(client, Id, ['sh', '-c', `mkdir -p /srv/drop && echo downloaded > /srv/drop/${note}`]);
    if (setup.exitCode !== 0) throw new Error(`setup: ${setup.stderr}`);
    await driver.openViewContainer('Berth');
    const file = driver.treeRow('Containers', new RegExp(`^${note.replace(/\./g, '\\.')}$`));
    await driver.expandPath('Containers', [name, /^Files$/, /^srv$/, /^drop$/, new RegExp(`^${note.replace(/\./g, '\\.')}$`)]);

    await driver.contextMenu(file, 'Download…');
    const proposed = await driver.waitForText(() => driver.quickInputBox().inputValue(), new RegExp(`${note.replace(/\./g, '\\.')}$`), 'the save dialog\'s proposed path');
    if (proposed !== join(workspace, note)) throw new Error(`the save dialog proposed ${proposed}, not ${join(workspace, note)}`);
    await page.keyboard.press('Enter');
    const downloaded = page.locator('.notification-toast', { hasText: `Downloaded ${note} to ${join(workspace, note)}` }).first();
    await downloaded.waitFor({ timeout: 30_000 });
    if (readFileSync(join(workspace, note), 'utf8') !== 'downloaded\n') throw new Error('the downloaded file does not hold the container\'s text');
    await downloaded.locator('.monaco-button', { hasText: /^Reveal$/ }).waitFor({ timeout: 10_000 });
    await downloaded.locator('.monaco-button', { hasText: /^Open$/ }).click();
    await driver.waitForText(() => driver.activeEditorText(), 'downloaded', 'the downloaded file opened from the message');

    writeFileSync(join(workspace, upload), 'uploaded\n');
    await driver.contextMenu(driver.treeRow('Containers', /^drop$/), 'Upload…');
    await driver.quickInputBox().waitFor({ state: 'visible', timeout: 10_000 });
    // The open dialog writes its starting folder into the box once it has read it; text typed before that is
    // replaced (CI saw an empty list). Type again whenever the box no longer holds the path. It also reads the typed
    // folder before it knows the file: Enter before the file's row is active would take the folder.
    const typed = join(workspace, upload);
    await driver.waitForText(() => driver.quickInputBox().inputValue(), /\/$/, 'the open dialog\'s starting folder');
    const activeRow = page.locator('.quick-input-list .monaco-list-row.focused');
    const activeRowOnceTyped = async (): Promise<string> => {
      if ((await driver.quickInputBox().inputValue()) !== typed) await driver.quickInputBox().fill(typed);
      return (await activeRow.count()) > 0 ? await activeRow.first().innerText() : '';
    };
    await driver.waitForText(activeRowOnceTyped, upload, 'the typed file active in the open dialog');
    await page.keyboard.press('Enter');
    const uploaded = page.locator('.notification-toast', { hasText: `Uploaded ${upload} into /srv/drop` }).first();
    await uploaded.waitFor({ timeout: 30_000 });
    const inContainer = (await readContainerFile(client, Id, `/srv/drop/${upload}`)).toString('utf8');
    if (inContainer !== 'uploaded\n') throw new Error(`the container's copy reads ${JSON.stringify(inContainer)}`);
    // The open folder row shows the new file at once, as after a drop (it showed only after the next redraw).
    await driver.treeRow('Containers', new RegExp(`^${upload.replace(/\./g, '\\.')}$`)).waitFor({ timeout: 10_000 });
    await uploaded.locator('.monaco-button', { hasText: /^Open$/ }).click();
    await driver.waitForText(() => driver.activeEditorText(), 'uploaded', 'the container\'s copy opened from the message');
    if (existsSync(join('/', note))) throw new Error(`a copy landed at /${note}`);
    await page.keyboard.press('Escape');
  } finally {
    await client.containers.remove(Id, { force: true }).catch(() => undefined);
    rmSync(join(workspace, note), { force: true });
    rmSync(join(workspace, upload), { force: true });
  }
}
