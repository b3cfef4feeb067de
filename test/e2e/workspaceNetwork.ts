// berth.run.network from the workspace's own settings (issue 17): Run in Background from the palette stops at a modal
// question that names the value and the settings file, answered here through the real dialog; the container then
// runs with the network the answer chose. The network is container:<a running network-less container>, which
// widens nothing on the test engine.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineClient } from '../../src/engine';
import { containerSpec } from '../support/containerSpec';
import { uniqueName } from '../support/engines';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

export const WORKSPACE_NETWORK_CASE = "a workspace's berth.run.network is asked about in the run's modal, which names the value and the file";

export interface WorkspaceNetworkSetup {
  readonly workbench: Workbench;
  readonly driver: WorkbenchDriver;
  readonly client: EngineClient;
  readonly image: string;
  /** Container ids to remove at the end of the run (the helper is pushed first, so it goes after the run). */
  readonly cleanup: string[];
  readonly picture: (name: string) => Promise<void>;
}

export async function workspaceNetworkQuestion(setup: WorkspaceNetworkSetup): Promise<void> {
  const { workbench, driver, client } = setup;
  const page = workbench.page;
  const helper = await client.createContainer(containerSpec(setup.image, ['sleep', '600']), { name: uniqueName('berth-e2e-netns') });
  await client.startContainer(helper.Id);
  const network = `container:${helper.Id}`;
  const runName = uniqueName('berth-e2e-wsnet');
  const settingsDir = join(workbench.server.workspaceDir, '.vscode');
  const settingsFile = join(settingsDir, 'settings.json');
  await mkdir(settingsDir, { recursive: true });
  await writeFile(settingsFile, `${JSON.stringify({ 'berth.run.network': network }, null, 2)}\n`);
  try {
    // The workbench notices the new settings file through its watcher; give it a moment before the run reads them.
    await page.waitForTimeout(3000);
    await driver.runFromPalette('Berth: Run in Background');
    await driver.answerQuickInput('Pick a local image', setup.image);
    await driver.answerQuickInput('Command for', 'sleep 300');
    await driver.answerQuickInput('Container name', runName);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'TTY' }).first().waitFor({ timeout: 15_000 });
    await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).click();
    await driver.answerQuickInput('Options for', 'No extra options');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30_000 });
    const text = await dialog.innerText();
    if (!text.includes(network) || !text.includes(settingsFile)) throw new Error(`the question does not name the network and the file:\n${text}`);
    await page.waitForTimeout(500);
    await setup.picture('run-workspace-network');
    await dialog.locator('.monaco-button', { hasText: `Run with "${network}"` }).click();
    const created = await pollContainer(client, runName);
    setup.cleanup.push(created, helper.Id);
    const mode = (await client.inspectContainer(created)).HostConfig.NetworkMode;
    if (mode !== network) throw new Error(`the container runs with ${String(mode)}, not the network the answer chose (${network})`);
  } finally {
    await rm(settingsDir, { recursive: true, force: true });
    if (!setup.cleanup.includes(helper.Id)) setup.cleanup.push(helper.Id);
  }
}

async function pollContainer(client: EngineClient, name: string): Promise<string> {
  for (let attempt = 0; attempt < 60; attempt++) {
    const found = await client.listContainers({ all: true, filters: { name: [name] } });
    if (found[0]) return found[0].Id;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`no container ${name} after the answer`);
}
