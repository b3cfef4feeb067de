// The e2e case of issue 12: Build Image… from a Dockerfile's context menu in the Explorer, as a user does it. The
// tag is typed into the input, build args and the cache pick are taken as offered; the build's steps stream into a
// terminal, the engine then holds the image (with the file the Dockerfile copied), the Images view shows the tag, and
// the notification offers Run. COPY only: RUN would need a network on the test dockerd (`--bridge=none`).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isEngineError, type EngineClient } from '../../src/engine';
import { containerSpec } from '../support/containerSpec';
import { uniqueName } from '../support/engines';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

export const BUILD_CASE = "Build Image… from a Dockerfile's Explorer context menu: steps in a terminal, the tag in the Images view, Run offered";

export async function buildFromExplorer(workbench: Workbench, driver: WorkbenchDriver, client: EngineClient, image: string, publish: (name: string) => Promise<void>): Promise<void> {
  const folder = join(workbench.server.workspaceDir, 'buildme');
  const repository = uniqueName('berth-e2e-built');
  const tag = `${repository}:1`;
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'hello.txt'), 'built by Berth\n');
  await writeFile(join(folder, '.dockerignore'), 'ignored.txt\n');
  await writeFile(join(folder, 'ignored.txt'), 'must not reach the engine\n');
  await writeFile(join(folder, 'Dockerfile'), `FROM ${image}\nLABEL berth.test=1\nCOPY . /ctx/\n`);
  try {
    const { page } = workbench;
    await page.keyboard.press('Escape');
    await driver.runFromPalette('View: Show Explorer');
    const folderRow = page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^buildme$/ }).first();
    await folderRow.waitFor({ timeout: 30_000 });
    const dockerfileRow = page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^Dockerfile$/ }).first();
    if (!(await dockerfileRow.isVisible())) await folderRow.click();
    await dockerfileRow.waitFor({ timeout: 30_000 });
    await driver.contextMenu(dockerfileRow, 'Build Image…');
    await driver.answerQuickInput('Tag for the image', tag);
    await driver.answerQuickInput('Build args', '');
    await driver.answerQuickInput('Cache', '');
    await driver.waitForText(() => driver.terminalText(), `[Berth] built ${tag}`, 'the build terminal', 120_000);
    const terminal = await driver.terminalText();
    if (!/Step \d+\/\d+ : (FROM|LABEL|COPY)|STEP \d+\/\d+: (FROM|LABEL|COPY)/.test(terminal)) throw new Error(`the terminal does not show the build's steps:\n${terminal.slice(-1500)}`);
    // The engine has the image, built from the context minus what .dockerignore excludes.
    const inspect = await client.images.inspect(tag);
    if (inspect.Config?.Labels?.['berth.test'] !== '1') throw new Error(`${tag} lacks the Dockerfile's label`);
    const { Id } = await client.containers.create(containerSpec(tag, ['true']));
    try {
      await client.containers.statPath(Id, '/ctx/hello.txt');
      const ignored = await client.containers.statPath(Id, '/ctx/ignored.txt').then(
        () => 'present',
        (error: unknown) => (isEngineError(error, 'not-found') ? 'absent' : `unreadable: ${String(error)}`),
      );
      if (ignored !== 'absent') throw new Error(`/ctx/ignored.txt, excluded by .dockerignore, is ${ignored} in the image`);
    } finally {
      await client.containers.remove(Id, { force: true }).catch(() => undefined);
    }
    const toast = page.locator('.notification-toast', { hasText: `Built ${tag}.` }).first();
    await toast.waitFor({ timeout: 30_000 });
    await toast.locator('.monaco-button', { hasText: /^Run$/ }).waitFor({ timeout: 10_000 });
    // Revealed: the Images view shows the new tag selected, though its pane was folded when the build began.
    await driver.openViewContainer('Berth');
    const imageRow = driver.treeRow('Images', repository);
    await imageRow.waitFor({ timeout: 30_000 });
    if ((await imageRow.getAttribute('aria-selected')) !== 'true') throw new Error(`the row of ${tag} is shown but not selected: the build did not reveal it`);
    await page.waitForTimeout(800);
    // Berth's task providers answer VS Code's task detection without "There are task errors" (a provider offering
    // tasks of another type than its own is one).
    const taskErrors = page.locator('.notification-toast', { hasText: 'There are task errors' });
    if ((await taskErrors.count()) > 0) throw new Error('VS Code reports task errors after the build');
    await driver.screenshot('build-image');
    await publish('build-image');
    await driver.foldPanes(['Images']);
  } finally {
    await client.images.remove(tag, { force: true }).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  }
}
