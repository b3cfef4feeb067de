// The logs views in the real workbench, as a user meets them (issue 9): a 40,000-byte line whole in the logs
// terminal and the logs editor (its bytes counted from what the workbench copies), the output of a container that
// exits at once shown exactly once, and the logs editor following across a restart and an engine outage.
import type { EngineClient } from '../../src/engine';
import { containerSpec } from '../support/containerSpec';
import { uniqueName } from '../support/engines';
import type { Workbench } from '../vscode/launch';
import type { PrivateEngine } from '../vscode/privateEngine';
import type { Locator } from 'playwright-core';
import type { CaseRunner } from './cases';
import type { WorkbenchDriver } from './driver';

export interface LogsCaseSetup {
  runner: CaseRunner;
  workbench: Workbench;
  driver: WorkbenchDriver;
  client: EngineClient;
  engine: PrivateEngine;
  image: string;
  cleanup: string[];
  evidence: (name: string) => Promise<void>;
  /** Saves the named screenshot (and copies it to docs/screenshots/ when it is a published one). */
  picture: (name: string) => Promise<void>;
}

const LINE_BYTES = 40_000;
const STAMP = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

function count(text: string, what: string): number {
  return text.split(what).length - 1;
}

/** What the workbench copies from the active terminal after Terminal: Select All (a wrapped line is copied whole). */
async function copyTerminal(workbench: Workbench, driver: WorkbenchDriver): Promise<string> {
  await workbench.page.evaluate("navigator.clipboard.writeText('')");
  await driver.runFromPalette('Terminal: Select All');
  await workbench.page.waitForTimeout(300);
  await workbench.page.locator('.terminal-wrapper.active .xterm-helper-textarea').first().focus();
  await workbench.page.keyboard.press('Control+Shift+C');
  const end = Date.now() + 10_000;
  for (;;) {
    const text = await workbench.page.evaluate<string>('navigator.clipboard.readText()');
    if (text !== '' || Date.now() > end) return text;
    await workbench.page.waitForTimeout(200);
  }
}

/** Selects all of the active editor; resolves the count the status bar shows, `(N selected)`. */
async function selectedInEditor(workbench: Workbench): Promise<number> {
  const page = workbench.page;
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+a');
  const item = page.locator('.statusbar-item', { hasText: /selected\)/ }).first();
  const shown = await item.waitFor({ timeout: 5_000 }).then(() => true, () => false);
  if (!shown) return Number.NaN;
  // The status bar redraws its items (cursor, the explorer's aging rows): an item seen a moment ago may be gone, so
  // a read that fails is one more try for the caller's loop, not a 30 s wait.
  const text = await item.innerText({ timeout: 2_000 }).catch(() => '');
  const match = /\(([\d,.\s]+) selected\)/.exec(text);
  return Number((match?.[1] ?? 'NaN').replace(/[,.\s]/g, ''));
}

async function createContainer(setup: LogsCaseSetup, prefix: string, script: string): Promise<{ id: string; name: string }> {
  const name = uniqueName(prefix);
  const { Id } = await setup.client.containers.create(containerSpec(setup.image, ['sh', '-c', script]), { name });
  setup.cleanup.push(Id);
  return { id: Id, name };
}

/** The markup of the active terminal's row that shows exactly `text`, with the text replaced by `*` ('' when none). */
async function rowMarkup(workbench: Workbench, text: string): Promise<string> {
  const row = workbench.page.locator('.terminal-wrapper.active .xterm-rows > div', { hasText: new RegExp(`^${text}\\s*$`) }).first();
  return (await row.count()) > 0 ? (await row.innerHTML()).replace(text, '*') : '';
}

/** Runs `script` in a new container to its end, then Show Logs on its row; resolves once the terminal shows END. */
async function logsOfExited(setup: LogsCaseSetup, prefix: string, script: string): Promise<{ name: string; row: Locator; text: string }> {
  const { client, driver } = setup;
  const { id, name } = await createContainer(setup, prefix, script);
  const { result } = await client.containers.wait(id, { condition: 'next-exit' });
  await client.containers.start(id);
  await result;
  await driver.openViewContainer('Berth');
  const row = driver.treeRow('Containers', name);
  await row.waitFor({ timeout: 30_000 });
  await driver.contextMenu(row, 'Show Logs');
  const text = await driver.waitForText(() => driver.terminalText(), 'END', 'the logs terminal');
  return { name, row, text };
}

export async function logsCases(setup: LogsCaseSetup): Promise<void> {
  const { runner, workbench, driver, client, evidence } = setup;
  await workbench.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(workbench.url).origin });

  await runner.run('hostile container output in the logs terminal: colours show, links, titles and cursor moves do not', async () => {
    // A title (OSC 0), an OSC 8 link to a vscode:// URI, a red line, then cursor-up + erase to overwrite it.
    const hostile = String.raw`printf 'hostile-start\n\033]0;OWNED-TITLE\007\033]8;;vscode://evil.x/run\007LINK-TEXT\033]8;;\007\n\033[31mRED-LINE\033[0m\n\033[1A\033[2K\rFAKE-OVERWRITE\n'; echo END`;
    const { text } = await logsOfExited(setup, 'berth-e2e-hostile', hostile);
    const lines = text.split('\n').map((line) => line.trimEnd());
    const problems = [
      lines.includes('LINK-TEXT') ? '' : 'the link text is not a plain line of its own',
      // Without the filter, cursor-up and erase-line wipe RED-LINE and FAKE-OVERWRITE takes its place.
      lines.indexOf('RED-LINE') >= 0 && lines.indexOf('FAKE-OVERWRITE') === lines.indexOf('RED-LINE') + 1 ? '' : 'RED-LINE was overwritten',
      (await workbench.page.locator('body').innerText()).includes('OWNED-TITLE') ? 'the title sequence shows' : '',
      (await workbench.page.locator('.xterm-rows a, .xterm-rows [style*="underline"]').count()) === 0 ? '' : 'a link is drawn',
      // An SGR colour is markup around the cell's text; a plain row has none.
      (await rowMarkup(workbench, 'RED-LINE')) !== (await rowMarkup(workbench, 'END')) ? '' : 'RED-LINE is drawn like plain text',
    ].filter((problem) => problem !== '');
    await driver.screenshot('logs-hostile-output');
    if (problems.length > 0) throw new Error(`${problems.join('; ')}:\n${text}`);
  }, evidence);

  await runner.run(`a ${LINE_BYTES.toLocaleString('en')}-byte line arrives whole in the logs terminal and the logs editor`, async () => {
    const { name, row } = await logsOfExited(setup, 'berth-e2e-long', `echo start; head -c ${LINE_BYTES} /dev/zero | tr '\\0' x; echo; echo END`);
    const terminal = await copyTerminal(workbench, driver);
    const terminalLine = terminal.split(/\r?\n/).find((line) => line.startsWith('xxx')) ?? '';
    if (terminalLine.length !== LINE_BYTES || count(terminalLine, 'x') !== LINE_BYTES) {
      throw new Error(`the terminal's long line has ${terminalLine.length} characters, ${count(terminalLine, 'x')} of them x`);
    }
    if (STAMP.test(terminal)) throw new Error(`an engine timestamp shows in the terminal:\n${terminal.slice(0, 300)}`);
    await workbench.page.waitForTimeout(500);
    await setup.picture('logs-long-line-terminal');

    await driver.contextMenu(row, 'Open Logs in Editor');
    await driver.waitForText(() => driver.activeEditorText(), 'start', 'the logs editor');
    // The editor renders only part of a long line (and may wrap it): the status bar counts what select-all holds,
    // every character of the document, line breaks included.
    const expected = `start\n${'x'.repeat(LINE_BYTES)}\nEND\n[Berth] ${name} exited with status 0; waiting for it to start again…\n`.length;
    let selected = Number.NaN;
    for (const end = Date.now() + 45_000; selected !== expected && Date.now() < end; ) {
      selected = await selectedInEditor(workbench);
      if (selected !== expected) await workbench.page.waitForTimeout(500);
    }
    if (selected !== expected) throw new Error(`the logs editor holds ${selected} characters; its text should have ${expected}`);
    const editor = await driver.activeEditorText();
    if (!editor.startsWith('start') || STAMP.test(editor)) throw new Error(`logs editor text:\n${editor.slice(0, 300)}`);
    await workbench.page.waitForTimeout(300);
    await setup.picture('logs-long-line-editor');
  }, evidence);

  await runner.run('a container shown before its start that exits at once: its output exactly once, then one exit line', async () => {
    const { id, name } = await createContainer(setup, 'berth-e2e-instant', 'echo instant-out');
    const row = driver.treeRow('Containers', name);
    await row.waitFor({ timeout: 30_000 });
    await driver.contextMenu(row, 'Show Logs');
    await driver.waitForText(() => driver.terminalText(), 'has not started yet', 'the waiting line');
    await client.containers.start(id);
    await driver.waitForText(() => driver.terminalText(), /exited with status 0/, 'the exit line');
    // Long enough for a restart storm to show (the issue saw about 19 pairs of lines at once).
    await workbench.page.waitForTimeout(3000);
    const text = await driver.terminalText();
    const problems = [
      count(text, 'instant-out') === 1 ? '' : `instant-out shows ${count(text, 'instant-out')} times`,
      count(text, 'exited with status 0') === 1 ? '' : `the exit line shows ${count(text, 'exited with status 0')} times`,
      count(text, 'restarted') === 0 ? '' : 'a restart is reported',
      count(text, 'stopped') === 0 ? '' : '"stopped" is said',
    ].filter((problem) => problem !== '');
    if (problems.length > 0) throw new Error(`${problems.join('; ')}:\n${text}`);
    await setup.picture('logs-instant-exit');
  }, evidence);

  await runner.run('Filter Logs… on a followed logs editor: only matching lines arrive, highlighted, the title names the filter', async () => {
    // One pair of lines a second keeps the document short enough that its newest lines stay in view.
    const { id, name } = await createContainer(setup, 'berth-e2e-logfilter', 'i=0; while [ $i -lt 900 ]; do echo "alpha $i"; echo "beta $i"; i=$((i+1)); sleep 1; done');
    await client.containers.start(id);
    const row = driver.treeRow('Containers', name);
    await driver.waitForText(() => row.innerText(), /Up /, 'the running row');
    await driver.contextMenu(row, 'Open Logs in Editor');
    const before = await driver.waitForText(() => driver.activeEditorText(), /beta 2\b/, 'both streams in the editor');
    const newestAlpha = (text: string): number => Math.max(-1, ...[...text.matchAll(/alpha (\d+)/g)].map((match) => Number(match[1])));
    const lastBefore = newestAlpha(before);
    await driver.runFromPalette('Berth: Filter Logs…');
    await driver.quickInputBox().waitFor({ state: 'visible', timeout: 15_000 });
    await workbench.page.keyboard.type('ALPHA', { delay: 30 });
    await workbench.page.keyboard.press('Enter');
    const tab = workbench.page.locator('.editor-group-container.active .tabs-container .tab.active');
    await driver.waitForText(() => tab.innerText(), '"ALPHA"', 'the filter in the editor\'s title');
    // The editor draws only the lines in view: go to the end before reading the newest ones.
    const endOfEditor = async (): Promise<string> => {
      await workbench.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
      await workbench.page.keyboard.press('Control+End');
      return driver.activeEditorText();
    };
    // Lines that arrive after the filter: three numbers past the newest one seen before it.
    const text = await driver.waitForText(async () => {
      const shown = await endOfEditor();
      return newestAlpha(shown) >= lastBefore + 3 ? shown : '';
    }, /alpha/, 'matching lines arriving after the filter', 60_000);
    if (/beta/.test(text)) throw new Error(`a line that does not match is shown:\n${text}`);
    const numbers = text.split('\n').filter((line) => line.startsWith('alpha ')).map((line) => Number(line.slice(6)));
    if (numbers.some((number, index) => index > 0 && number !== (numbers[index - 1] ?? 0) + 1)) throw new Error(`every alpha line once, in order, none lost:\n${text}`);
    const highlighted = workbench.page.locator('.editor-group-container.active .monaco-editor .view-overlays [class*="ced-"]');
    await driver.waitForText(async () => String(await highlighted.count()), /^[1-9]\d*$/, 'the matches highlighted');
    await driver.screenshot('logs-editor-filtered');
    await client.containers.remove(id, { force: true }).catch(() => undefined);
  }, evidence);

  await runner.run('the logs editor follows across a restart and an engine outage, and says so', async () => {
    const { id, name } = await createContainer(setup, 'berth-e2e-resume', 'echo "boot $(cat /proc/sys/kernel/random/uuid)"; sleep 600');
    await client.containers.start(id);
    const row = driver.treeRow('Containers', name);
    await driver.waitForText(() => row.innerText(), /Up /, 'the running row');
    await driver.contextMenu(row, 'Open Logs in Editor');
    await driver.waitForText(() => driver.activeEditorText(), 'boot', 'the first run in the editor');
    await client.containers.restart(id, { timeoutSeconds: 0 });
    await driver.waitForText(() => driver.activeEditorText(), /restarted\s+boot [\s\S]*$/, 'the second run after the restart line');
    await setup.engine.stop();
    await driver.waitForText(() => driver.activeEditorText(), /lost the engine/, 'the outage line');
    await setup.engine.start();
    await driver.waitForText(() => driver.activeEditorText(), /reconnected;/, 'the reconnect line', 60_000);
    await client.containers.start(id);
    const text = await driver.waitForText(() => driver.activeEditorText(), /reconnected;[\s\S]*restarted\s+boot /, 'the third run after the outage', 60_000);
    // Every run's line exactly once, as the engine has them.
    const engineText: string[] = [];
    for await (const chunk of client.containers.logs(id, { stdout: true, stderr: true })) engineText.push(chunk.data.toString('utf8'));
    const shown = text.split('\n').filter((line) => line.startsWith('boot ')).join('\n');
    if (shown !== engineText.join('').trim()) throw new Error(`editor:\n${text}\nengine:\n${engineText.join('')}`);
    if (count(text, 'boot ') !== 3) throw new Error(`three runs expected:\n${text}`);
    await workbench.page.waitForTimeout(500);
    await setup.picture('logs-editor-resumed');
    // The container is named in the outage and restart lines.
    if (!text.includes(name)) throw new Error(`the editor does not name ${name}:\n${text}`);
  }, evidence);
}
