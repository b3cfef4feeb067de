// The e2e case of issue 12, item 3 and issue 31, item 9: a container's ports in its row's tooltip and as rows under
// it, and Copy Address from the row's context menu and from the palette. The test dockerd has no bridge and every test
// container has NetworkMode none, so first a container CREATED there with port bindings shows them as dropped by
// network none (rows and tooltip) and Copy Address from the palette says so instead of "No container fits this
// command". Then the workbench follows an in-process fake engine (test/support/publishingEngine.ts) that reports a
// running container with a really published port, as a user switching berth.engine.host does: its rows give the
// address, and what is checked is the address Copy Address puts on the clipboard (read back through the page).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineClient } from '../../src/engine';
import { containerSpec } from '../support/containerSpec';
import { uniqueName } from '../support/engines';
import { startPublishingEngine, type FakePortContainer } from '../support/publishingEngine';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

export const PORTS_CASE = 'a container with a port binding shows it in its tooltip and rows; Copy Address from its context menu copies it';

const HOST_PORT = 18281;

/** On the fake engine: 80/tcp published on every address, 53/udp on 127.0.0.1 (one TCP port: no port pick follows). */
const WEB: FakePortContainer = {
  id: 'c3'.repeat(32),
  name: 'berth-e2e-published',
  state: 'running',
  bindings: { '80/tcp': [{ HostIp: '', HostPort: String(HOST_PORT) }], '53/udp': [{ HostIp: '127.0.0.1', HostPort: '18253' }] },
  published: {
    '80/tcp': [{ HostIp: '0.0.0.0', HostPort: String(HOST_PORT) }, { HostIp: '::', HostPort: String(HOST_PORT) }],
    '53/udp': [{ HostIp: '127.0.0.1', HostPort: '18253' }],
  },
};

export async function containerPorts(
  workbench: Workbench,
  driver: WorkbenchDriver,
  client: EngineClient,
  image: string,
  settings: Record<string, unknown>,
  publish: (name: string) => Promise<void>,
): Promise<void> {
  const name = uniqueName('berth-e2e-ports');
  const { Id } = await client.containers.create(
    containerSpec(image, ['sleep', '600'], {
      ExposedPorts: { '80/tcp': {}, '53/udp': {} },
      HostConfig: { PortBindings: { '80/tcp': [{ HostIp: '', HostPort: String(HOST_PORT) }], '53/udp': [{ HostIp: '127.0.0.1', HostPort: '18253' }] } },
    }),
    { name },
  );
  try {
    await workbench.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(workbench.url).origin });
    await driver.openViewContainer('Berth');
    await networkNoneDropsPorts(workbench, driver, name, publish);
  } finally {
    await client.containers.remove(Id, { force: true }).catch(() => undefined);
  }
  await publishedPortCopied(workbench, driver, settings, publish);
}

/** The created network-none container: "dropped by network none" on its rows and tooltip, and the palette's refusal. */
async function networkNoneDropsPorts(workbench: Workbench, driver: WorkbenchDriver, name: string, publish: (name: string) => Promise<void>): Promise<void> {
  const row = driver.treeRow('Containers', name);
  await row.waitFor({ timeout: 30_000 });
  // Expanded: "Ports" (open already) with one row per binding, then "Files". The bindings of a container that is not
  // running are read (one inspect) when its row is expanded; then its tooltip has them too.
  await row.click();
  await driver.treeRow('Containers', /^Ports.*dropped by network none/).waitFor({ timeout: 30_000 });
  const portRow = driver.treeRow('Containers', `0.0.0.0:${HOST_PORT} → 80/tcp`);
  await portRow.waitFor({ timeout: 30_000 });
  const portText = (await portRow.innerText()).replace(/\s+/g, ' ');
  if (!portText.includes('never published: network none drops published ports')) throw new Error(`the port row: ${portText}`);
  const hover = workbench.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'never published: network none drops them' }).first();
  const tooltip = await driver.waitForText(async () => {
    await workbench.page.mouse.move(900, 200);
    await row.hover();
    await hover.waitFor({ timeout: 3000 });
    return hover.innerText({ timeout: 500 });
  }, `0.0.0.0:${HOST_PORT} → 80/tcp`, 'the port in the tooltip', 60_000);
  if (!tooltip.includes('127.0.0.1:18253 → 53/udp')) throw new Error(`the tooltip lacks the UDP binding:\n${tooltip}`);
  if (tooltip.includes('published when it starts')) throw new Error(`the tooltip says the ports open on start:\n${tooltip}`);
  await workbench.page.mouse.move(900, 200);
  await driver.treeRow('Containers', '127.0.0.1:18253 → 53/udp').waitFor({ timeout: 10_000 });
  await portRow.hover();
  await workbench.page.waitForTimeout(600);
  await driver.screenshot('container-ports-network-none');
  await publish('container-ports-network-none');

  // No container here has a port to copy: the palette names the one whose ports network none drops.
  await driver.runFromPalette('Berth: Copy Address');
  const refusal = workbench.page.locator('.notification-toast', { hasText: `${name} is on network none, which drops published ports` }).first();
  await refusal.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
    const toasts = await workbench.page.locator('.notification-toast').allInnerTexts();
    throw new Error(`${(error as Error).message.split('\n')[0] ?? ''}; the notifications: ${toasts.join(' | ')}`);
  });
  console.log(`    Copy Address from the palette: ${(await refusal.innerText()).replace(/\s+/g, ' ').slice(0, 200)}`);
  await driver.runFromPalette('Notifications: Clear All');
}

/** The fake engine's published port: its rows give the address, and Copy Address (context menu, palette) copies it. */
async function publishedPortCopied(workbench: Workbench, driver: WorkbenchDriver, settings: Record<string, unknown>, publish: (name: string) => Promise<void>): Promise<void> {
  const fake = await startPublishingEngine([WEB]);
  const machineSettings = join(workbench.server.userDataDir, 'Machine', 'settings.json');
  try {
    await writeFile(machineSettings, JSON.stringify({ ...settings, 'berth.engine.host': fake.host }, null, 2));
    const row = driver.treeRow('Containers', WEB.name);
    await row.waitFor({ timeout: 60_000 });
    await row.click();
    const portRow = driver.treeRow('Containers', `0.0.0.0:${HOST_PORT} → 80/tcp`);
    await portRow.waitFor({ timeout: 30_000 });
    const portText = (await portRow.innerText()).replace(/\s+/g, ' ');
    if (!portText.includes(`http://localhost:${HOST_PORT}`) || portText.includes('not yet published')) throw new Error(`the port row: ${portText}`);
    await portRow.hover();
    await workbench.page.waitForTimeout(600);
    await driver.screenshot('container-ports');
    await publish('container-ports');

    await copiesAddress(workbench, driver, () => driver.contextMenu(row, 'Copy Address'), 'from the context menu');
    // The palette: a pick of the containers with ports (this one has a single TCP port, so no port pick follows).
    await copiesAddress(workbench, driver, async () => {
      await driver.runFromPalette('Berth: Copy Address');
      await driver.answerQuickInput('Container whose address to copy', WEB.name);
    }, 'from the palette');
  } finally {
    await writeFile(machineSettings, JSON.stringify(settings, null, 2));
    // Back on the dockerd before the fake goes: the next cases find their engine as they left it.
    await driver.treeRow('Containers', WEB.name).waitFor({ state: 'detached', timeout: 60_000 }).catch(() => undefined);
    await fake.close();
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
