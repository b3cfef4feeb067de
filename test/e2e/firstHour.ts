// What a new user meets in the first hour (issue 20), in the real workbench: an interactive TTY run from the palette
// (its name prompt refusing a taken name as it is typed, its options unticked by default), the clicked row of a
// multi-selection, and an engine that went away named as unreachable with Retry.
import { shortId } from '../../src/common/format';
import { rowPattern, workbenchMessage } from '../engine/engine/bad-input-workbench-cases';
import { containerSpec } from '../support/containerSpec';
import { uniqueName } from '../support/engines';
import type { LogsCaseSetup } from './logsCases';

export interface FirstHourSetup extends LogsCaseSetup {
  /** Two containers of the run, by name: the first one's name is "taken" for the name prompt. */
  names: readonly [string, string];
}

export async function firstHourCases(setup: FirstHourSetup): Promise<void> {
  const { runner, workbench, driver, client, evidence } = setup;
  const page = workbench.page;
  const widget = page.locator('.quick-input-widget');

  await runner.run('Run Container with TTY from the palette: a taken name is refused as typed, typed keys reach the shell', async () => {
    const runName = uniqueName('berth-e2e-tty');
    await driver.runFromPalette('Berth: Run Container');
    await driver.answerQuickInput('Pick a local image', setup.image);
    await driver.answerQuickInput('Command for', 'sh');
    await driver.waitForText(() => widget.innerText(), 'Container name', 'the name prompt');
    await driver.quickInputBox().fill(setup.names[0]);
    const holder = await client.containers.inspect(setup.names[0]);
    const refusal = workbenchMessage('run-name-in-use-typed', { name: setup.names[0], 'short id': shortId(holder.Id), state: holder.State.Status });
    await driver.waitForText(() => widget.innerText(), refusal, 'the name-in-use message while typing', 15_000);
    await driver.quickInputBox().fill(runName);
    await page.waitForTimeout(300);
    await page.keyboard.press('Enter');
    const ttyRow = page.locator('.quick-input-list .monaco-list-row', { hasText: 'TTY' }).first();
    await ttyRow.waitFor({ timeout: 15_000 });
    const count = page.locator('.quick-input-widget .quick-input-count');
    // "Remove when done" is off by default: nothing is ticked until the user ticks it.
    await driver.waitForText(() => count.innerText(), '0', 'no option ticked by default');
    await ttyRow.locator('.label-name', { hasText: 'TTY' }).click();
    await driver.waitForText(() => count.innerText(), '1', 'TTY ticked');
    await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).click();
    await driver.answerQuickInput('Options for', 'No extra options');
    await driver.waitForText(() => driver.terminalText(), /\/ # /, 'the shell prompt of the run');
    const created = await client.containers.list({ all: true, filters: { name: [runName] } });
    for (const container of created) setup.cleanup.push(container.Id);
    await page.locator('.terminal-wrapper.active .xterm-helper-textarea').first().focus();
    await page.keyboard.type('echo "typed=$((6*7))"; stty size');
    await page.keyboard.press('Enter');
    const text = await driver.waitForText(() => driver.terminalText(), /typed=42\s+\d+ \d+/, 'the typed command\'s output');
    if (/\b0 0\b/.test(text.split('typed=42')[1] ?? '')) throw new Error(`the container's TTY was never sized:\n${text}`);
    await page.waitForTimeout(500);
    await setup.picture('run-interactive');
    await page.keyboard.type('exit 3');
    await page.keyboard.press('Enter');
    await driver.waitForText(() => driver.terminalText(), /exited with status 3/, 'the exit line');
  }, evidence);

  await runner.run('a right-click on the second of two selected rows: Copy Name copies the clicked row', async () => {
    await driver.openViewContainer('Berth');
    // Two rows the list has rendered (a long list renders only what is in view): each row's label is its name.
    const rendered = (await driver.treeRows('Containers').locator('.label-name').allInnerTexts()).map((text) => text.trim()).filter((name) => name.startsWith('berth-'));
    const [first, second] = rendered;
    if (!first || !second) throw new Error(`fewer than two container rows are shown: ${rendered.join(', ')}`);
    await driver.treeRow('Containers', first).click();
    await driver.treeRow('Containers', second).click({ modifiers: ['Control'] });
    await page.evaluate("navigator.clipboard.writeText('')");
    await driver.contextMenu(driver.treeRow('Containers', second), 'Copy Name');
    const copied = await driver.waitForText(() => page.evaluate<string>('navigator.clipboard.readText()'), /\S/, 'the clipboard', 10_000);
    if (copied !== second) throw new Error(`copied "${copied}", expected the clicked row "${second}"`);
  }, evidence);

  await runner.run('Berth: Start from the palette: a name typed into its multi-pick, then Enter with nothing ticked, starts that container', async () => {
    const name = uniqueName('berth-e2e-typed');
    const { Id } = await client.containers.create(containerSpec(setup.image, ['sleep', '300']), { name });
    setup.cleanup.push(Id);
    // A picker that opens just as a terminal or notification of an earlier case takes the focus closes again:
    // open it once more, as a user would.
    for (let attempt = 1; ; attempt++) {
      try {
        await driver.runFromPalette('Berth: Start');
        await driver.waitForText(() => widget.innerText(), name, 'the new container in the picker', 15_000);
        await driver.quickInputBox().fill(name.slice(-10), { timeout: 5_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    const count = page.locator('.quick-input-widget .quick-input-count');
    await driver.waitForText(() => count.innerText(), '0', 'nothing ticked');
    await page.waitForTimeout(300);
    await page.keyboard.press('Enter');
    await driver.waitForText(async () => ((await client.containers.inspect(Id)).State.Running ? 'running' : 'not running'), /^running$/, 'the typed container started');
  }, evidence);

  await runner.run('with the engine down, Show Logs says the engine is unreachable and offers Retry', async () => {
    await setup.engine.stop();
    try {
      await page.locator('.statusbar-item', { hasText: /unreachable/ }).first().waitFor({ timeout: 60_000 });
      await driver.runFromPalette('Berth: Show Logs');
      const toast = page.locator('.notification-toast', { hasText: /is unreachable/ }).first();
      await toast.waitFor({ timeout: 30_000 });
      const message = await toast.innerText();
      if (!rowPattern('picker-engine-gone').test(message)) throw new Error(`not the bad-input row's words: ${message}`);
      if (!message.includes(setup.engine.host.replace(/^unix:\/\//, ''))) throw new Error(`the message does not name the endpoint: ${message}`);
      if ((await toast.locator('.monaco-button', { hasText: 'Retry' }).count()) === 0) throw new Error(`no Retry on: ${message}`);
      if ((await widget.isVisible()) && (await widget.innerText()).includes('Container whose logs')) throw new Error('a picker over the gone engine opened');
      await page.waitForTimeout(800);
      await setup.picture('engine-down');
    } finally {
      await setup.engine.start();
      await page.locator('.statusbar-item', { hasText: /unreachable/ }).first().waitFor({ state: 'detached', timeout: 90_000 }).catch(() => undefined);
      await driver.runFromPalette('Notifications: Clear All');
    }
  }, evidence);
}
