// The e2e case of issue 14: in the Containers view a container row expands to Files, a folder at a time; a file row
// opens in a normal editor, a user edits it and saves with Ctrl+S, and the engine has the new text.
import type { EngineClient } from '../../src/engine';
import { execCapture, readContainerFile } from '../../src/engine/containerFiles';
import type { Workbench } from '../vscode/launch';
import { escapeRegExp, type WorkbenchDriver } from './driver';

export const FILES_TREE_CASE = 'a container row expands to Files; a file opens from its row, is edited and saved with Ctrl+S, and the engine has the new text';

export interface FilesTreeContext {
  readonly workbench: Workbench;
  readonly driver: WorkbenchDriver;
  readonly client: EngineClient;
  readonly containerId: string;
  readonly containerName: string;
}

export async function filesTree(context: FilesTreeContext, publish: (name: string) => Promise<void>): Promise<void> {
  const { workbench, driver, client, containerId, containerName } = context;
  const setup = await execCapture(client, containerId, ['sh', '-c', 'mkdir -p /srv/e2e && printf "greeting=hello\\n" > /srv/e2e/app.conf']);
  if (setup.exitCode !== 0) throw new Error(`setting up the file failed: ${setup.stderr}`);
  await driver.openViewContainer('Berth');
  const exact = (label: string): RegExp => new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`);
  const row = (label: string) => driver.treeRows('Containers').filter({ hasText: exact(label) }).first();
  // A click on a collapsible row without a command expands it, as in the Explorer.
  await driver.treeRow('Containers', containerName).click();
  await row('Files').click();
  await row('srv').click();
  await row('e2e').click();
  await row('app.conf').click();
  await driver.waitForText(() => driver.activeEditorText(), /greeting=hello/, 'the file in an editor');
  await workbench.page.keyboard.press('Control+End');
  await workbench.page.keyboard.type('edited=yes');
  await workbench.page.keyboard.press('Control+S');
  await driver.waitForText(async () => (await readContainerFile(client, containerId, '/srv/e2e/app.conf')).toString('utf8'), 'greeting=hello\nedited=yes', 'the saved text in the container');
  await workbench.page.waitForTimeout(800);
  await driver.screenshot('files-tree');
  await publish('files-tree');
  await workbench.page.keyboard.press('Control+W');
  // Collapse it again: the cases after this one read the rows as they were.
  await driver.treeRow('Containers', containerName).click();
}
