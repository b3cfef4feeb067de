// The multi-engine explorer in the real workbench: `berth.engines` adds the Podman service beside the dockerd, as a
// user editing settings.json does. Both engines become root rows with their status and icon, each holding its own
// containers; the picture becomes docs/screenshots/multi-engine.png through `npm run screenshots`.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineClient } from '../../src/engine';
import { uniqueName } from '../support/engines';
import type { Workbench } from '../vscode/launch';
import type { TreeRowOutline, WorkbenchDriver } from './driver';
import { containerSpec } from '../support/containerSpec';

export const MULTI_ENGINE_CASE = 'with berth.engines adding Podman, both engines are root rows holding their own containers';
/** The name the settings give the Podman engine (the dockerd from berth.engine.host is "default"). */
const PODMAN_ENGINE_NAME = 'Podman';
const ENGINE_STATUS = (product: string): RegExp => new RegExp(`${product} \\S+ · API \\d+\\.\\d+`);

export interface MultiEngineSetup {
  workbench: Workbench;
  driver: WorkbenchDriver;
  /** The settings the workbench was launched with; the case writes them back with berth.engines added. */
  settings: Record<string, unknown>;
  podmanHost: string;
  image: string;
  /** The dockerd's running container, which must show under the Docker row. */
  dockerContainerName: string;
}

/** The nearest root row above `index`: the engine a row belongs to. */
function engineRowOf(rows: TreeRowOutline[], index: number): TreeRowOutline | undefined {
  for (let at = index - 1; at >= 0; at--) if (rows[at]?.level === 1) return rows[at];
  return undefined;
}

function describeRows(rows: TreeRowOutline[]): string {
  return rows.map((row) => `${'  '.repeat(row.level)}[${row.icon}] ${row.text}`).join('\n');
}

/** Runs the case's steps; throws with what the tree showed when something is missing. Saves `multi-engine.png`. */
export async function multiEngineExplorer(setup: MultiEngineSetup, screenshot: () => Promise<void>): Promise<void> {
  const { workbench, driver, podmanHost } = setup;
  const podman = EngineClient.fromEnvironment({ host: podmanHost, env: {} });
  const machineSettings = join(workbench.server.userDataDir, 'Machine', 'settings.json');
  let containerId: string | undefined;
  try {
    const name = uniqueName('berth-e2e-podman');
    const created = await podman.containers.create(
      containerSpec(setup.image, ['sleep', '600']),
      { name },
    );
    containerId = created.Id;
    await podman.containers.start(created.Id);

    // The shared Podman service keeps other suites' stopped containers: running ones only, so the picture shows
    // what this case made.
    await writeFile(
      machineSettings,
      JSON.stringify(
        { ...setup.settings, 'berth.engines': [{ name: PODMAN_ENGINE_NAME, host: podmanHost }], 'berth.containers.showAll': false, 'berth.containers.groupBy': 'none' },
        null,
        2,
      ),
    );
    await driver.runFromPalette('View: Hide Panel');
    await driver.runFromPalette('View: Close All Editors');
    await driver.openViewContainer('Berth');
    // Podman's image names are longer (`localhost/…`): room for the rows' descriptions.
    await driver.widenSideBar(760);
    await driver.treeRow('Containers', name).waitFor({ timeout: 30_000 });

    // A row says `connected` until the engine's version answer arrives, then `<product> <version> · API <version>`.
    let rows: TreeRowOutline[] = [];
    const engineRows = (): { dockerRoot: TreeRowOutline; podmanRoot: TreeRowOutline } | undefined => {
      const roots = rows.filter((row) => row.level === 1);
      const dockerRoot = roots.find((row) => ENGINE_STATUS('Docker').test(row.text));
      const podmanRoot = roots.find((row) => row.text.startsWith(PODMAN_ENGINE_NAME) && ENGINE_STATUS('Podman').test(row.text));
      return dockerRoot && podmanRoot ? { dockerRoot, podmanRoot } : undefined;
    };
    const end = Date.now() + 30_000;
    while (!engineRows() && Date.now() < end) {
      await workbench.page.waitForTimeout(250);
      rows = await driver.rowOutline('Containers');
    }
    const found = engineRows();
    if (!found) throw new Error(`no Docker and Podman engine rows with their versions:\n${describeRows(rows)}`);
    const { dockerRoot, podmanRoot } = found;
    if (!dockerRoot.text.endsWith('· current')) throw new Error(`the dockerd row does not say it is current: ${dockerRoot.text}`);
    for (const root of [dockerRoot, podmanRoot]) {
      if (root.icon !== 'vm-active') throw new Error(`the connected engine row shows the icon "${root.icon}": ${root.text}`);
    }
    for (const [containerName, engineRow] of [[name, podmanRoot], [setup.dockerContainerName, dockerRoot]] as const) {
      const index = rows.findIndex((row) => row.text.startsWith(containerName));
      if (index < 0 || rows[index]?.level !== 2 || engineRowOf(rows, index) !== engineRow) {
        throw new Error(`${containerName} is not under the row "${engineRow.text}":\n${describeRows(rows)}`);
      }
    }

    // Opened again by the user, the view draws its rows anew: give it the time a user would.
    await driver.foldPanes(['Images'], false);
    let images = await driver.rowOutline('Images');
    for (const end = Date.now() + 15_000; images.filter((row) => row.level === 1 && row.icon === 'vm-active').length !== 2; ) {
      if (Date.now() > end) throw new Error(`the Images view has not two connected engine rows:\n${describeRows(images)}`);
      await workbench.page.waitForTimeout(300);
      images = await driver.rowOutline('Images');
    }
    // The previous case's pull, once its sign-in offer is dismissed, ends in a failure toast: clear until none is left.
    const toasts = workbench.page.locator('.notification-toast');
    for (let round = 0; round < 5; round++) {
      await driver.runFromPalette('Notifications: Clear All');
      await workbench.page.waitForTimeout(1000);
      if ((await toasts.count()) === 0) break;
    }
    await screenshot();
  } finally {
    await writeFile(machineSettings, JSON.stringify(setup.settings, null, 2));
    if (containerId) await podman.containers.remove(containerId, { force: true }).catch(() => undefined);
    await podman.close();
  }
}
