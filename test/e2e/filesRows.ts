// The e2e case of issue 14: a container row expands to "Files", one folder at a time; a click on a file opens it in an
// editor (the berth-container file system); an edit saved with Ctrl+S reaches the container, as the engine's own
// archive then shows.
import type { EngineClient } from '../../src/engine';
import { execCapture, readContainerFile } from '../../src/engine/files';
import { containerSpec } from '../support/containerSpec';
import { uniqueName } from '../support/engines';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

export const FILES_CASE = 'Files under a container row: expand to a file, edit and save it in an editor; the container has the change';

export async function filesEdit(workbench: Workbench, driver: WorkbenchDriver, client: EngineClient, image: string, publish: (name: string) => Promise<void>): Promise<void> {
  const { page } = workbench;
  const name = uniqueName('berth-e2e-files');
  const { Id } = await client.containers.create(containerSpec(image, ['sleep', '600']), { name });
  try {
    await client.containers.start(Id);
    const setup = await execCapture(client, Id, ['sh', '-c', 'mkdir -p /srv/app && echo setting=1 > /srv/app/config.txt']);
    if (setup.exitCode !== 0) throw new Error(`setup: ${setup.stderr}`);
    await driver.openViewContainer('Berth');
    await driver.expandPath('Containers', [name, /^Files$/, /^srv$/, /^app$/, /^config\.txt$/]);
    const file = driver.treeRow('Containers', /^config\.txt$/);
    await file.waitFor({ timeout: 30_000 });
    // The row shows live figures that change each second: drawing it again must neither fold nor break the open
    // folders below it (VS Code once refused their listings: "Element with id … is already registered").
    await page.waitForTimeout(3_000);
    await file.waitFor({ timeout: 5_000 });
    const toasts = await page.locator('.notifications-toasts').innerText().catch(() => '');
    if (/already registered|Cannot list/.test(toasts)) throw new Error(`a notification after the folders were opened: ${toasts}`);
    await file.click();
    await driver.waitForText(() => driver.activeEditorText(), 'setting=1', 'the opened file');
    const tab = page.locator('.tabs-container .tab.active');
    await driver.waitForText(() => tab.innerText(), 'config.txt', 'the editor tab');
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('setting=2\n');
    await page.keyboard.press('Control+S');
    // Saved: the tab is no longer dirty, and the container's file has the new text.
    await driver.waitForText(async () => ((await tab.getAttribute('class')) ?? '').includes('dirty') ? 'dirty' : 'saved', 'saved', 'the saved tab');
    const deadline = Date.now() + 30_000;
    let inContainer = '';
    for (;;) {
      inContainer = (await readContainerFile(client, Id, '/srv/app/config.txt')).toString('utf8');
      if (inContainer === 'setting=2\n') break;
      if (Date.now() > deadline) throw new Error(`the container's file reads ${JSON.stringify(inContainer)} after the save`);
      await page.waitForTimeout(250);
    }
    await page.waitForTimeout(500);
    await driver.screenshot('files-edit');
    await publish('files-edit');
    await page.keyboard.press('Control+W');
    // Fold the container row again, so later cases find their rows in the pane's viewport.
    const containerRow = driver.treeRow('Containers', name);
    if ((await containerRow.getAttribute('aria-expanded')) === 'true') await containerRow.locator('.monaco-tl-twistie').click();
  } finally {
    await client.containers.remove(Id, { force: true }).catch(() => undefined);
  }
}

