// Issue 31 item 10, in the real workbench: input no engine would take is refused while it is typed, word for word as
// docs/bad-input.md says, instead of after the last prompt: a reference typed into Run Container's image pick (no
// longer offered as "pull if missing", and Enter keeps the pick open), `-e =x` in the options box, and a volume
// name with a "/" in Create Volume's first prompt. Nothing is created: each prompt is left with Escape.
import { buildRow } from '../engine/build/bad-input-build-cases';
import { workbenchMessage } from '../engine/engine/bad-input-workbench-cases';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';

export const TYPED_INPUT_CASE = 'Bad input refused as typed: an unpullable image reference, -e =x in the run options, a volume name with "/"';

export async function refusedAsTyped(workbench: Workbench, driver: WorkbenchDriver, image: string): Promise<void> {
  const page = workbench.page;
  const widget = page.locator('.quick-input-widget');
  const typeInto = async (what: string, value: string): Promise<void> => {
    await driver.quickInputBox().waitFor({ state: 'visible', timeout: 15_000 });
    await driver.waitForText(async () => `${await widget.innerText()} ${(await driver.quickInputBox().getAttribute('placeholder')) ?? ''}`, what, `the prompt "${what}"`);
    await driver.quickInputBox().fill(value);
  };
  try {
    await driver.runFromPalette('Berth: Run Container');
    await typeInto('Pick a local image', 'Ünïcode/ímage');
    const shown = await driver.waitForText(() => widget.innerText(), workbenchMessage('run-image-typed-invalid', {}), 'the refusal of the typed reference');
    if (shown.includes('pull if missing')) throw new Error(`a reference no engine can pull is still offered for a pull:\n${shown}`);
    await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
    if ((await driver.quickInputBox().inputValue()) !== 'Ünïcode/ímage') throw new Error('Enter accepted the refused reference');
    await driver.quickInputBox().fill(image);
    await page.waitForTimeout(300);
    await page.keyboard.press('Enter');
    await driver.answerQuickInput('Command for', '');
    await driver.answerQuickInput('Container name', '');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Remove when done' }).waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    await driver.answerQuickInput('Options for', 'Set options');
    await typeInto('docker run options', '-p 8080:80 -e =x');
    await driver.waitForText(() => widget.innerText(), buildRow('run-env-empty-key').message, 'the refusal of -e =x');
    await page.keyboard.press('Escape');

    await driver.runFromPalette('Berth: Create Volume…');
    await typeInto('Create Volume (1/3)', 'bad/name');
    await driver.waitForText(() => widget.innerText(), workbenchMessage('volume-create-name-typed', {}), 'the refusal of bad/name');
    await driver.screenshot('refused-as-typed');
  } finally {
    await page.keyboard.press('Escape');
  }
}
