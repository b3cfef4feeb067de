// The e2e case of issue 11: Compose Up from a compose file's context menu in the Explorer, as a user does it; the
// task runs Debian's docker-compose against the private dockerd, and the Containers view groups the project with
// its running count. The screenshot of the grouped tree goes to test-output/screenshots/compose-grouped.png.
import { rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { EngineClient } from '../../src/engine';
import { composeYaml, runProgram } from '../support/composeProject';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

export const COMPOSE_CASE = "Compose Up from a compose file's Explorer context menu; the Containers view groups the project (2/2 running)";

export async function composeUpFromExplorer(
  workbench: Workbench,
  driver: WorkbenchDriver,
  client: EngineClient,
  setup: { image: string; dockerHost: string },
): Promise<void> {
  const dir = workbench.server.workspaceDir;
  const file = join(dir, 'compose.yaml');
  // docker-compose names the project after the folder, lower-cased and without punctuation.
  const project = basename(dir).toLowerCase().replace(/[^a-z0-9]/g, '');
  await writeFile(file, composeYaml(setup.image, { web: { command: ['sleep', '600'] }, db: { command: ['sleep', '600'] } }));
  try {
    await workbench.page.keyboard.press('Escape');
    await driver.runFromPalette('View: Show Explorer');
    const row = workbench.page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^compose\.yaml$/ }).first();
    await row.waitFor({ timeout: 30_000 });
    await driver.contextMenu(row, 'Compose Up');
    // The task runs to its end; the engine then has both containers of the project running.
    const deadline = Date.now() + 90_000;
    for (;;) {
      const running = await client.containers.list({ filters: { label: [`com.docker.compose.project=${project}`], status: ['running'] } });
      if (running.length === 2) break;
      if (Date.now() > deadline) throw new Error(`the project ${project} has ${running.length} of 2 containers running after Compose Up`);
      await workbench.page.waitForTimeout(500);
    }
    await driver.openViewContainer('Berth');
    const group = driver.treeRow('Containers', new RegExp(`^${project}\\s*2/2 running`));
    await group.waitFor({ timeout: 30_000 });
    await driver.treeRow('Containers', `${project}_web_1`).waitFor({ timeout: 30_000 });
    await workbench.page.waitForTimeout(800);
    await driver.screenshot('compose-grouped');
  } finally {
    await runProgram('docker-compose', ['-f', file, 'down', '-t', '0'], { ...process.env, DOCKER_HOST: setup.dockerHost, DOCKER_CONTEXT: '' }, dir).catch(() => undefined);
    await rm(file, { force: true });
  }
}
