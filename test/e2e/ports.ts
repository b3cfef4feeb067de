// The e2e case of issue 12, item 3: a container's ports in its row's tooltip and as rows under it, and Copy Address
// from the row's context menu. The test dockerd has no bridge and every test container has NetworkMode none, so the
// container is CREATED with a port binding and never started: its rows show the binding as "not yet published", and
// what is checked is the address Copy Address puts on the clipboard (read back through the page), not a live server.
import type { EngineClient } from '../../src/engine';
import { containerSpec } from '../support/containerSpec';
import { uniqueName } from '../support/engines';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

export const PORTS_CASE = 'a container with a port binding shows it in its tooltip and rows; Copy Address from its context menu copies it';

const HOST_PORT = 18281;

export async function containerPorts(
  workbench: Workbench,
  driver: WorkbenchDriver,
  client: EngineClient,
  image: string,
  publish: (name: string) => Promise<void>,
): Promise<void> {
  const name = uniqueName('berth-e2e-ports');
  const { Id } = await client.createContainer(
    containerSpec(image, ['sleep', '600'], {
      ExposedPorts: { '80/tcp': {}, '53/udp': {} },
      HostConfig: { PortBindings: { '80/tcp': [{ HostIp: '', HostPort: String(HOST_PORT) }], '53/udp': [{ HostIp: '127.0.0.1', HostPort: '18253' }] } },
    }),
    { name },
  );
  try {
    await workbench.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(workbench.url).origin });
    await driver.openViewContainer('Berth');
    const row = driver.treeRow('Containers', name);
    await row.waitFor({ timeout: 30_000 });
    // Expanded: "Ports" (open already) with one row per binding, then "Files". The bindings of a container that is not
    // running are read (one inspect) when its row is expanded; then its tooltip and context menu have them too.
    await row.click();
    const portRow = driver.treeRow('Containers', `0.0.0.0:${HOST_PORT} → 80/tcp`);
    await portRow.waitFor({ timeout: 30_000 });
    const portText = (await portRow.innerText()).replace(/\s+/g, ' ');
    if (!portText.includes(`http://localhost:${HOST_PORT} · not yet published`)) throw new Error(`the port row: ${portText}`);
    const hover = workbench.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'published when it starts' }).first();
    const tooltip = await driver.waitForText(async () => {
      await workbench.page.mouse.move(900, 200);
      await row.hover();
      await hover.waitFor({ timeout: 3000 });
      return hover.innerText({ timeout: 500 });
    }, `0.0.0.0:${HOST_PORT} → 80/tcp`, 'the port in the tooltip', 60_000);
    if (!tooltip.includes('127.0.0.1:18253 → 53/udp')) throw new Error(`the tooltip lacks the UDP binding:\n${tooltip}`);
    await workbench.page.mouse.move(900, 200);
    await driver.treeRow('Containers', '127.0.0.1:18253 → 53/udp').waitFor({ timeout: 10_000 });
    await portRow.hover();
    await workbench.page.waitForTimeout(600);
    await driver.screenshot('container-ports');
    await publish('container-ports');

    await copiesAddress(workbench, driver, () => driver.contextMenu(row, 'Copy Address'), 'from the context menu');
    // The palette: a pick of the containers with ports (this one has a single TCP port, so no port pick follows).
    await copiesAddress(workbench, driver, async () => {
      await driver.runFromPalette('Berth: Copy Address');
      await driver.answerQuickInput('Container whose address to copy', name);
    }, 'from the palette');
  } finally {
    await client.removeContainer(Id, { force: true }).catch(() => undefined);
  }
}

/** Runs COPY and reads the clipboard back through the page: the address as is, or as the host forwards it. */
async function copiesAddress(workbench: Workbench, driver: WorkbenchDriver, copy: () => Promise<void>, how: string): Promise<void> {
  await workbench.page.evaluate("navigator.clipboard.writeText('')");
  await copy();
  const copied = await driver.waitForText(() => workbench.page.evaluate<string>('navigator.clipboard.readText()'), /\S/, `the clipboard after Copy Address ${how}`, 10_000);
  // code-server forwards a local port under /proxy/PORT/ when asExternalUri asks it to.
  if (copied !== `http://localhost:${HOST_PORT}` && !copied.includes(`/proxy/${HOST_PORT}`)) throw new Error(`Copy Address ${how} copied ${copied}`);
  console.log(`    Copy Address ${how} copied ${copied}`);
}
