// Issue 35 item 1 in the real workbench: Filter Containers… from the palette, the text typed key by key narrows the
// Containers rows before Enter, the view's title says `N of M`, a text that matches nothing shows the notice row, and
// Clear Filter brings every row back. The two containers are made from outside and never started.
import type { EngineClient } from '../../src/engine';
import { containerSpec } from '../support/containerSpec';
import { uniqueName } from '../support/engines';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

export const VIEW_FILTER_CASE = 'Filter Containers…: typed text narrows the rows as it is typed, the title says N of M, Clear Filter brings them back';

export async function filterAsTyped(workbench: Workbench, driver: WorkbenchDriver, client: EngineClient, image: string): Promise<void> {
  const page = workbench.page;
  const stem = uniqueName('berth-e2e-filter');
  const kept = `${stem}-kept`;
  const other = `${stem}-other`;
  const ids: string[] = [];
  for (const name of [kept, other]) ids.push((await client.createContainer(containerSpec(image, ['sleep', '600']), { name })).Id);
  const rowsOf = async (): Promise<string> => (await driver.rowTexts('Containers')).join('\n');
  try {
    await driver.openViewContainer('Berth');
    await driver.treeRow('Containers', other).waitFor({ timeout: 30_000 });
    await driver.runFromPalette('Berth: Filter Containers…');
    await driver.quickInputBox().waitFor({ state: 'visible', timeout: 15_000 });
    // Key by key, as a user types: the rows follow before Enter.
    await page.keyboard.type(`${stem}-KE`, { delay: 30 });
    await driver.waitForText(async () => {
      const rows = await rowsOf();
      return rows.includes(kept) && !rows.includes(other) ? rows : '';
    }, kept, 'only the matching row while typing');
    const header = driver.pane('Containers').locator('.pane-header');
    await driver.waitForText(() => header.innerText(), /\b1 of \d+\b/, 'N of M in the view\'s title');
    await page.keyboard.press('Enter');
    await driver.screenshot('view-filter');

    await driver.runFromPalette('Berth: Filter Containers…');
    await driver.quickInputBox().waitFor({ state: 'visible', timeout: 15_000 });
    await driver.quickInputBox().fill(`${stem}-none`);
    await driver.waitForText(rowsOf, `No container matches “${stem}-none”`, 'the notice row of a filter that matches nothing');
    await page.keyboard.press('Enter');

    await driver.runFromPalette('Berth: Clear Containers Filter');
    await driver.waitForText(async () => {
      const rows = await rowsOf();
      return rows.includes(kept) && rows.includes(other) ? rows : '';
    }, other, 'every row again after Clear Filter');
  } finally {
    await page.keyboard.press('Escape').catch(() => undefined);
    await driver.runFromPalette('Berth: Clear Containers Filter').catch(() => undefined);
    for (const id of ids) await client.removeContainer(id, { force: true }).catch(() => undefined);
  }
}
