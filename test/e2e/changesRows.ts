// The e2e case of issue 36: a container row expands to "Changes" with its counts, then to the changed paths marked
// A/C/D; a click on a changed file opens a diff editor in the real workbench, the image's version on the left and
// the container's on the right.
import type { EngineClient } from '../../src/engine';
import { execCapture } from '../../src/engine/files';
import { containerSpec } from '../support/containerSpec';
import { uniqueName } from '../support/engines';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

/**
 * Evaluated in the page (a string: the e2e code is typed without the DOM): the ::after contents inside the rows whose
 * text starts with "group", where VS Code draws a file decoration's letter.
 */
const GROUP_ROW_BADGES =
  '[...document.querySelectorAll(".monaco-list-row")].filter((row) => (row.textContent || "").trim().startsWith("group"))' +
  '.flatMap((row) => [...row.querySelectorAll("*")].map((element) => getComputedStyle(element, "::after").content)).join(" ")';

export const CHANGES_CASE = 'Changes under a container row: counts, paths marked A/C/D, and a changed file opens as a diff against the image';

export async function changesDiff(workbench: Workbench, driver: WorkbenchDriver, client: EngineClient, image: string, publish: (name: string) => Promise<void>): Promise<void> {
  const { page } = workbench;
  const name = uniqueName('berth-e2e-changes');
  const { Id } = await client.containers.create(containerSpec(image, ['sleep', '600']), { name });
  try {
    await client.containers.start(Id);
    const setup = await execCapture(client, Id, ['sh', '-c', 'echo "extra:x:4242:" >> /etc/group && rm /etc/passwd && mkdir -p /srv/app && echo new > /srv/app/added.txt']);
    if (setup.exitCode !== 0) throw new Error(`setup: ${setup.stderr.toString()}`);
    await driver.openViewContainer('Berth');
    const expand = async (text: string | RegExp): Promise<void> => {
      const row = driver.treeRow('Containers', text);
      await row.waitFor({ timeout: 30_000 });
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.monaco-tl-twistie').click();
      await driver.waitForText(async () => (await row.getAttribute('aria-expanded')) ?? '', 'true', `${String(text)} expanded`);
    };
    await expand(name);
    const changesRow = driver.treeRow('Containers', /^Changes/);
    await driver.waitForText(() => changesRow.innerText(), /1 deleted/, 'the counts on the Changes row');
    await expand(/^Changes/);
    await expand(/^etc$/);
    const group = driver.treeRow('Containers', /^group/);
    await group.waitFor({ timeout: 30_000 });
    // VS Code draws a file decoration's letter as a pseudo-element's content, which innerText does not include.
    const badges = async (): Promise<string> => String(await page.evaluate(GROUP_ROW_BADGES));
    await driver.waitForText(badges, /"C"/, 'the C decoration of /etc/group');
    await group.click();
    const diff = page.locator('.editor-group-container.active .monaco-diff-editor');
    await diff.first().waitFor({ timeout: 30_000 });
    await driver.waitForText(() => diff.first().innerText(), 'extra:x:4242:', 'the container side of the diff');
    const tab = page.locator('.tabs-container .tab.active');
    await driver.waitForText(() => tab.innerText(), /group \(image ↔/, 'the diff tab');
    await driver.screenshot('changes-diff');
    await publish('changes-diff');
    await page.keyboard.press('Control+W');
    const containerRow = driver.treeRow('Containers', name);
    if ((await containerRow.getAttribute('aria-expanded')) === 'true') await containerRow.locator('.monaco-tl-twistie').click();
  } finally {
    await client.containers.remove(Id, { force: true }).catch(() => undefined);
  }
}
