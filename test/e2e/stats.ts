// The e2e case of issue 15: a container burning CPU shows its figures in its row, and Show Container Stats from the
// row's context menu opens the panel: four uPlot charts drawn in the theme's colours, and the container's processes.
// When the container stops and is then removed, the panel says so.
import type { EngineClient } from '../../src/engine';
import { containerSpec } from '../support/containerSpec';
import { uniqueName } from '../support/engines';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

export const STATS_CASE = 'a running row shows CPU and memory; Show Container Stats opens charts and the processes, and says when the container stops and goes';

export async function statsPanel(workbench: Workbench, driver: WorkbenchDriver, client: EngineClient, image: string, publish: (name: string) => Promise<void>): Promise<void> {
  const name = uniqueName('berth-e2e-stats');
  const { Id } = await client.containers.create(
    containerSpec(image, ['sh', '-c', 'dd if=/dev/zero of=/dev/shm/fill bs=1M count=64; while :; do :; done']),
    { name },
  );
  try {
    await client.containers.start(Id);
    await driver.openViewContainer('Berth');
    await driver.foldPanes(['Images', 'Volumes', 'Networks', 'Registries']);
    const row = driver.treeRow('Containers', name);
    await row.waitFor({ timeout: 30_000 });
    await driver.waitForText(() => row.innerText(), /\d+(?:\.\d)?% · \d+(?:\.\d+)? MiB/, 'CPU and memory in the row', 60_000);
    await driver.contextMenu(row, 'Show Container Stats');
    // The webview's page sits in an iframe inside VS Code's webview iframe.
    const page = workbench.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    await page.locator('.uplot').nth(3).waitFor({ timeout: 30_000 });
    await page.locator('#processes table td', { hasText: /while|sh/ }).first().waitFor({ timeout: 30_000 });
    // A few frames, so the lines have length.
    await workbench.page.waitForTimeout(6_000);
    await driver.screenshot('stats-panel');
    await publish('stats-panel');
    // The container stops, then goes: the panel says so instead of showing idle charts and top errors.
    const states = page.locator('#states');
    await client.containers.kill(Id);
    await states.filter({ hasText: `${name} stopped at` }).waitFor({ timeout: 30_000 });
    await page.locator('#processes .note', { hasText: `${name} stopped at` }).waitFor({ timeout: 30_000 });
    await client.containers.remove(Id);
    await states.filter({ hasText: `${name} was removed at` }).waitFor({ timeout: 30_000 });
    await row.waitFor({ state: 'detached', timeout: 30_000 });
    await driver.screenshot('stats-panel-removed');
  } finally {
    await client.containers.remove(Id, { force: true }).catch(() => undefined);
  }
}
