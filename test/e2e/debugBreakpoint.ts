// The e2e case of issue 37: the berth-node debug configuration as a user drives it in the real workbench. A small
// app and a launch.json naming the Node.js test image go into the workspace folder the workbench opened; app.js is
// opened from Quick Open, a breakpoint set on a line of a function, the configuration started from "Debug: Select
// and Start Debugging". The editor's top-of-stack line, the call stack's "Paused on breakpoint" and the Variables
// view's local variable are checked, then a screenshot; Continue and Stop (Disconnect on this attach) come from the
// debug toolbar, and the engine must no longer have the container Berth started, nor anything listen on the forward.
// Rows are found through Filter Containers… (earlier cases leave many rows above them).
import { rm, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { EngineClient } from '../../src/engine';
import { uniqueName } from '../support/engines';
import { ensureNodeImage } from '../support/nodeImage';
import { eventually } from '../support/wait';
import type { Workbench } from '../vscode/launch';
import type { WorkbenchDriver } from './driver';
import { listening } from '../support/loopbackPort';

export const DEBUG_BREAKPOINT_CASE = 'berth-node from Select and Start Debugging stops at a breakpoint set in the gutter; Variables shows the local; Stop removes the container and the forward';

const CONFIGURATION_NAME = 'Berth e2e: app.js in a container';
/** 1-based, as the editor numbers lines: `return message.length;`, where `message` is a local of `tick`. */
const BREAK_LINE = 4;
const APP = [
  '// Calls tick() five times a second; the breakpoint goes on the line that returns.',
  'function tick(count) {',
  '  const message = `tick ${count}`;',
  '  return message.length;',
  '}',
  'let count = 0;',
  'setInterval(() => {',
  '  count += 1;',
  '  tick(count);',
  '}, 200);',
  '',
].join('\n');

export interface DebugBreakpointSetup {
  readonly workbench: Workbench;
  readonly driver: WorkbenchDriver;
  readonly client: EngineClient;
  /** Container ids the runner removes at the end, whatever happens here. */
  readonly cleanup: string[];
  readonly publish: (name: string) => Promise<void>;
}

export async function breakpointInWorkbench({ workbench, driver, client, cleanup, publish }: DebugBreakpointSetup): Promise<void> {
  const page = workbench.page;
  const dir = workbench.server.workspaceDir;
  const marker = uniqueName('berth-e2e-debug');
  const label = `berth.e2e.debug=${marker}`;
  // Images only from the local engine: the test image made from this machine's node and imported.
  const image = await ensureNodeImage(client);
  await writeFile(join(dir, 'app.js'), APP);
  await mkdir(join(dir, '.vscode'), { recursive: true });
  await writeFile(
    join(dir, '.vscode', 'launch.json'),
    JSON.stringify(
      {
        version: '0.2.0',
        configurations: [
          { type: 'berth-node', request: 'launch', name: CONFIGURATION_NAME, image, program: 'app.js', remoteRoot: '/srv/app', networkMode: 'none', labels: { 'berth.e2e.debug': marker } },
        ],
      },
      null,
      2,
    ),
  );
  const launched = async (): Promise<Array<{ Id: string; Names?: string[] }>> => client.containers.list({ all: true, filters: { label: [label] } });
  try {
    await openFile(driver, 'app.js');
    await driver.runFromPalette('Go to Line/Column');
    await driver.quickInputBox().fill(`:${BREAK_LINE}`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('F9');
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    await editor.locator('.codicon-debug-breakpoint').first().waitFor({ timeout: 15_000 });

    await startConfiguration(driver, CONFIGURATION_NAME);

    // The container the configuration started (the label of this run names it), for the checks and the cleanup.
    const started = await eventually('the container of the berth-node session', async () => (await launched())[0], { timeoutMs: 120_000, intervalMs: 250 });
    cleanup.push(started.Id);
    const containerName = (started.Names?.[0] ?? '').replace(/^\//, '');

    // Paused: the editor marks the breakpoint's line as the top of the stack, the call stack says why.
    await driver.waitForText(() => topOfStackLineText(editor), 'returnmessage.length;', 'the top-of-stack line in the editor', 120_000);
    const sessions = await launched();
    if (sessions.length !== 1) throw new Error(`one start made ${sessions.length} containers: ${sessions.map((each) => each.Names?.join(',')).join('; ')}`);
    const callStack = driver.pane('Call Stack');
    await driver.waitForText(() => callStack.innerText(), /paused on breakpoint/i, 'the call stack\'s pause reason');
    await driver.waitForText(() => callStack.innerText(), new RegExp(`tick[\\s\\S]*app\\.js[\\s\\S]*${BREAK_LINE}:\\d`), 'the frame of tick() at the breakpoint\'s line');
    // The row reads `message = 'tick 23'` (a colon in some versions): the local, whose value follows count's.
    const variables = await driver.waitForText(async () => (await driver.rowTexts('Variables')).join('\n'), /message\s*[:=]\s*'tick \d+'/, 'the local variable in the Variables view');
    const count = /\bcount\s*[:=]\s*(\d+)/.exec(variables)?.[1];
    const shown = /message\s*[:=]\s*'tick (\d+)'/.exec(variables)?.[1];
    if (count === undefined || shown !== count) throw new Error(`the Variables view does not show message as "tick " + count:\n${variables}`);
    console.log(`    paused at app.js:${BREAK_LINE} in ${containerName}; Variables: count: ${count}, message: 'tick ${count}'`);
    await page.waitForTimeout(600);
    await driver.screenshot('debug-breakpoint');
    await publish('debug-breakpoint');

    // The inspector's forward under the container's row, found through the filter.
    await driver.openViewContainer('Berth');
    await driver.runFromPalette('Berth: Filter Containers…');
    await driver.quickInputBox().waitFor({ state: 'visible', timeout: 15_000 });
    await driver.quickInputBox().fill(containerName);
    await page.keyboard.press('Enter');
    await driver.expandPath('Containers', [containerName, /^Forwarded/]);
    const forwardRow = await driver.waitForText(async () => (await driver.rowTexts('Containers')).join('\n'), /127\.0\.0\.1:\d+ → 9229/, 'the forward of the inspector');
    const port = Number(/127\.0\.0\.1:(\d+) → 9229/.exec(forwardRow)?.[1]);
    if (!(await listening(port))) throw new Error(`nothing listens on the forward 127.0.0.1:${port}`);

    // Continue (the breakpoint removed first, or the next tick stops again), then Stop, both from the debug toolbar.
    await driver.runFromPalette('Remove All Breakpoints');
    await page.keyboard.press('Escape');
    await toolbarAction(page, 'Continue').click();
    await toolbarAction(page, 'Pause').waitFor({ timeout: 30_000 });
    await toolbarAction(page, 'Stop', 'Disconnect').click();

    await page.locator('.notification-toast', { hasText: `removed container ${containerName}` }).first().waitFor({ timeout: 60_000 });
    await eventually('the engine to have removed the container', async () => ((await launched()).length === 0 ? true : undefined), { timeoutMs: 60_000, intervalMs: 250 });
    await eventually(`the forward 127.0.0.1:${port} to stop listening`, async () => ((await listening(port)) ? undefined : true), { timeoutMs: 30_000, intervalMs: 250 });
    await driver.waitForText(async () => (await driver.rowTexts('Containers')).join('\n'), 'No container matches', 'the container\'s rows, its Forwarded row among them, to go');
    if ((await driver.treeRow('Containers', /^Forwarded/).count()) > 0) throw new Error('a Forwarded row is still shown');
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
  } catch (error) {
    // The workbench as the failure found it, before the cleanup below closes the editor and the session.
    await driver.screenshot('failed-debug-breakpoint-before-cleanup').catch(() => undefined);
    throw error;
  } finally {
    await page.keyboard.press('Escape').catch(() => undefined);
    await driver.runFromPalette('Berth: Clear Containers Filter').catch(() => undefined);
    await driver.runFromPalette('Remove All Breakpoints').catch(() => undefined);
    await driver.runFromPalette('View: Close All Editors').catch(() => undefined);
    await driver.runFromPalette('Notifications: Clear All').catch(() => undefined);
    for (const container of await launched().catch(() => [])) await client.containers.remove(container.Id, { force: true }).catch(() => undefined);
    await rm(join(dir, 'app.js'), { force: true });
    await rm(join(dir, '.vscode'), { recursive: true, force: true });
  }
}

/** Quick Open (F1 without the `>`), the file's name, Enter; resolves once its tab is the active one. */
async function openFile(driver: WorkbenchDriver, file: string): Promise<void> {
  const page = driver.page;
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  await driver.quickInputBox().waitFor({ state: 'visible', timeout: 10_000 });
  await driver.quickInputBox().fill(file);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: file }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: file }).waitFor({ timeout: 15_000 });
}

/**
 * "Debug: Select and Start Debugging", then the configuration. The workbench learns of a launch.json written a moment
 * ago through its file watcher: until then the pick offers only the debuggers' own entries, and a user opens it again.
 */
async function startConfiguration(driver: WorkbenchDriver, name: string): Promise<void> {
  const row = driver.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
  let attempts = 0;
  await eventually(`the configuration "${name}" in Select and Start Debugging`, async () => {
    attempts += 1;
    await driver.runFromPalette('Debug: Select and Start Debugging');
    return (await row.waitFor({ timeout: 10_000 }).then(() => true, () => false)) ? true : undefined;
  }, { timeoutMs: 90_000, intervalMs: 0 });
  console.log(`    Select and Start Debugging listed "${name}" on attempt ${attempts}`);
  await row.click();
  await row.waitFor({ state: 'hidden', timeout: 10_000 });
}

/**
 * The code on the editor line that carries the top-of-stack decoration, without blanks ('' while there is none): the
 * stop is inside the line, before `length`, and the editor draws its inline breakpoint there with blank glyphs.
 */
async function topOfStackLineText(editor: Locator): Promise<string> {
  // The decoration is drawn in the overlay layer, level with the line's text in the lines layer.
  const decoration = await editor.locator('.debug-top-stack-frame-line').first().boundingBox({ timeout: 1000 });
  if (decoration === null) return '';
  const middle = decoration.y + decoration.height / 2;
  for (const line of await editor.locator('.view-lines .view-line').all()) {
    const box = await line.boundingBox();
    if (box !== null && box.y <= middle && middle < box.y + box.height) return (await line.innerText()).replace(/[^\x21-\x7e]/g, '');
  }
  return '';
}

/** A button of the debug toolbar, by the start of its label ("Continue (F5)", "Disconnect (Shift+F5)"). */
function toolbarAction(page: Page, ...labels: string[]): Locator {
  return page.locator(labels.map((label) => `.debug-toolbar .action-label[aria-label^="${label}"]`).join(', ')).first();
}

