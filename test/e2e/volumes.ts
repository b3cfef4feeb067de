// The e2e case of issue 13: the Volumes view shows a volume created outside, and Prune Unused Volumes (from the view's
// title bar menu… here the palette) asks for filters, lists the volume in its confirmation, removes it, and reports
// the engine's figure. Only this run's labelled volume can match: the prune is narrowed to its label.
import type { EngineClient } from '../../src/engine';
import { uniqueName } from '../support/engines';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

export const VOLUMES_CASE = 'the Volumes view shows a volume; Prune Unused Volumes lists it in its confirmation, removes it and reports the space';

export async function volumesPrune(workbench: Workbench, driver: WorkbenchDriver, client: EngineClient, publish: (name: string) => Promise<void>): Promise<void> {
  const marker = uniqueName('e2e-vol');
  const name = uniqueName('berth-e2e-volume');
  await client.volumes.create({ Name: name, Labels: { 'berth.test': '1', 'berth.test.e2evolume': marker } });
  try {
    await driver.openViewContainer('Berth');
    await driver.foldPanes(['Volumes'], false);
    await driver.treeRow('Volumes', name).waitFor({ timeout: 30_000 });
    await driver.treeRow('Volumes', 'Disk Usage').waitFor({ timeout: 30_000 });
    await driver.runFromPalette('Berth: Prune Unused Volumes');
    await driver.answerQuickInput('Filters', `label=berth.test.e2evolume=${marker}`);
    const dialog = workbench.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30_000 });
    const text = await dialog.innerText();
    if (!text.includes('Remove 1 object') || !text.includes(name)) throw new Error(`the confirmation does not list the volume:\n${text}`);
    await workbench.page.waitForTimeout(500);
    await driver.screenshot('prune-confirmation');
    await publish('prune-confirmation');
    await dialog.locator('.monaco-button', { hasText: /^Remove$/ }).click();
    const toast = workbench.page.locator('.notification-toast', { hasText: /Prune unused volumes: Removed 1 object; reclaimed/ }).first();
    await toast.waitFor({ timeout: 30_000 });
    await driver.treeRow('Volumes', name).waitFor({ state: 'detached', timeout: 30_000 });
    await workbench.page.waitForTimeout(800);
    await driver.screenshot('volumes-pruned');
    await publish('volumes-pruned');
  } finally {
    await client.volumes.remove(name, { force: true }).catch(() => undefined);
  }
}
