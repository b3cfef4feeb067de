// The e2e case of issue 12 item 6: Add Docker Files to Workspace… from the palette, as a user does it, in a folder
// holding a Node.js project: the platform pick (Node.js detected, first), the port, the Dockerfile opened at the end.
// Run again, the modal asks per existing file, and Skip on each keeps the files as they are.
// Screenshots: test-output/screenshots/add-docker-files-{platform,dockerfile,overwrite}.png.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

export const SCAFFOLD_CASE = 'Add Docker Files to Workspace from the palette: Node.js detected, the port asked, the Dockerfile opened; run again, Skip keeps every file';

const SCAFFOLDED = ['Dockerfile', '.dockerignore', 'compose.yaml'];

export async function addDockerFilesFromPalette(workbench: Workbench, driver: WorkbenchDriver): Promise<void> {
  const dir = workbench.server.workspaceDir;
  const manifest = join(dir, 'package.json');
  await writeFile(manifest, JSON.stringify({ name: 'harbour-web', scripts: { start: 'node server.js' }, engines: { node: '>=20' } }, null, 2));
  const page = workbench.page;
  try {
    await driver.runFromPalette('Berth: Add Docker Files to Workspace');
    const first = page.locator('.quick-input-list .monaco-list-row').first();
    await driver.waitForText(() => first.innerText(), /Node\.js\s*detected/, 'the platform pick with Node.js first');
    await page.waitForTimeout(400);
    await driver.screenshot('add-docker-files-platform');
    await page.keyboard.press('Enter');
    await driver.answerQuickInput('The port your application listens on', '3000');
    const tab = page.locator('.tabs-container .tab', { hasText: /^Dockerfile/ }).first();
    await tab.waitFor({ timeout: 30_000 });
    const editor = await driver.waitForText(() => driver.activeEditorText(), 'CMD ["npm", "start"]', 'the Dockerfile in the editor');
    if (!/FROM node:20-alpine/.test(editor) || !/EXPOSE 3000/.test(editor)) throw new Error(`the opened Dockerfile is not the Node.js one:\n${editor}`);
    const toast = page.locator('.notification-toast', { hasText: 'Added Dockerfile, .dockerignore, compose.yaml for Node.js.' }).first();
    await toast.waitFor({ timeout: 30_000 });
    await page.waitForTimeout(800);
    await driver.screenshot('add-docker-files-dockerfile');
    const written = await Promise.all(SCAFFOLDED.map((name) => readFile(join(dir, name), 'utf8')));

    // Again: every file exists now, so the command asks for each one; Skip keeps it.
    await driver.runFromPalette('Berth: Add Docker Files to Workspace');
    await driver.waitForText(() => first.innerText(), /Node\.js/, 'the platform pick');
    await page.keyboard.press('Enter');
    await driver.answerQuickInput('The port your application listens on', '8080');
    for (const [index, name] of SCAFFOLDED.entries()) {
      const dialog = page.locator('.monaco-dialog-box', { hasText: `${name} already exists. Overwrite it?` });
      await dialog.waitFor({ timeout: 30_000 });
      if (index === 0) {
        await page.waitForTimeout(400);
        await driver.screenshot('add-docker-files-overwrite');
      }
      await dialog.locator('.monaco-button', { hasText: /^Skip$/ }).click();
      await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    }
    await page.locator('.notification-toast', { hasText: 'Added no files for Node.js. Kept as they were: Dockerfile, .dockerignore, compose.yaml.' }).first().waitFor({ timeout: 30_000 });
    const after = await Promise.all(SCAFFOLDED.map((name) => readFile(join(dir, name), 'utf8')));
    if (after.join('\0') !== written.join('\0')) throw new Error('a file was changed although Skip was chosen for each');
  } finally {
    await page.keyboard.press('Escape');
    await driver.runFromPalette('View: Close All Editors').catch(() => undefined);
    for (const name of [...SCAFFOLDED, 'package.json']) await rm(join(dir, name), { force: true });
  }
}
