/**
 * Keystroke → rows of the Containers view's filter in the real workbench (issue 35): "Berth: Filter Containers…" from
 * the palette, then one character at a time, each timed from just before the key is pressed (the launcher's clock) to
 * the view's DOM rows all showing the new text (a MutationObserver in the page, put on the launcher's clock with the
 * measured offset). Compared with the floor extension's change (its root refresh → row in DOM) in the same run.
 *
 * The bench's containers are named so that every keystroke hides more rows: of N containers, N / (K + 1) are named
 * at each level L = 0..K, `<L + 1><first L letters of TYPED>-<run>-<index>`. Typing the first n letters keeps levels
 * ≥ n, and, as the names sort by their leading digit, the rows at the top of the view go from level n - 1 (without
 * the text) to level n (with it). TYPED's letters appear in no other text a row or its filter sees (image, status,
 * labels, ids match from their start).
 */
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { TEST_OUTPUT } from '../test/vscode/launch';
import { pageClockOffset } from './extension-ui';

/** What the user types, one character a keystroke. */
export const TYPED = 'qjkvwzg';

/** The name of the bench's container `index` of `count`: its level is `index mod (K + 1)`. */
export function filterBenchName(runId: string, index: number): string {
  const level = index % (TYPED.length + 1);
  // The leading digit is the level + 1: the change rows (`000-bench-change-…`) still sort first.
  return `${level + 1}${TYPED.slice(0, level)}-${runId}-${String(index).padStart(5, '0')}`;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * In-page script (plain JS: this project compiles without the DOM library). Arms a MutationObserver until every row
 * of the pane titled PANE contains TEXT (EVERY) or some row does not (not EVERY). Refuses to arm when that already
 * holds: the keystroke would time nothing.
 */
const WATCH_SCRIPT = `(() => {
  const rows = () => {
    for (const section of document.querySelectorAll('.pane')) {
      const title = section.querySelector('.pane-header h3.title');
      if (title && title.textContent.trim().toLowerCase() === PANE.toLowerCase()) return [...section.querySelectorAll('.pane-body .monaco-list-row')];
    }
    return [];
  };
  const holds = () => {
    const shown = rows();
    if (shown.length === 0) return false;
    const containing = shown.filter((row) => row.textContent.toLowerCase().includes(TEXT)).length;
    return EVERY ? containing === shown.length : containing < shown.length;
  };
  if (holds()) return false;
  const state = {};
  window[KEY] = state;
  const description = () => {
    for (const section of document.querySelectorAll('.pane')) {
      const title = section.querySelector('.pane-header h3.title');
      if (title && title.textContent.trim().toLowerCase() === PANE.toLowerCase()) return section.querySelector('.pane-header .description')?.textContent ?? '';
    }
    return '';
  };
  const describedAs = description();
  state.done = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (state.describedAt === undefined && description() !== describedAs) state.describedAt = performance.timeOrigin + performance.now();
      if (!holds()) return;
      state.shownAt = performance.timeOrigin + performance.now();
      observer.disconnect();
      resolve();
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return true;
})()`;

const RESULT_SCRIPT = `(async () => {
  const state = window[KEY];
  await Promise.race([state.done, new Promise((resolve) => setTimeout(resolve, 90000))]);
  return { shownAt: state.shownAt, describedAt: state.describedAt };
})()`;

function withValues(script: string, values: Record<string, unknown>): string {
  return script.replace(/\b(KEY|PANE|TEXT|EVERY)\b/g, (name) => JSON.stringify(values[name]));
}

/**
 * Arms the observer; the returned function resolves when the rows showed and, if it changed before them, when the
 * view's description (Berth's `N of M`) did, on the launcher's clock.
 */
async function armRowsWatch(page: Page, pane: string, text: string, every: boolean): Promise<() => Promise<{ shownAt: number; describedAt: number | undefined }>> {
  const values = { KEY: `berthKeystroke${Math.random().toString(36).slice(2)}`, PANE: pane, TEXT: text.toLowerCase(), EVERY: every };
  if (!(await page.evaluate<boolean>(withValues(WATCH_SCRIPT, values)))) {
    throw new Error(`the ${pane} rows already ${every ? 'all' : 'not all'} contain ${JSON.stringify(text)} before the keystroke`);
  }
  return async () => {
    const { shownAt, describedAt } = await page.evaluate<{ shownAt?: number; describedAt?: number }>(withValues(RESULT_SCRIPT, values));
    if (shownAt === undefined) throw new Error(`the ${pane} rows did not show ${JSON.stringify(text)} within 90 s`);
    const offset = await pageClockOffset(page);
    return { shownAt: shownAt - offset, describedAt: describedAt === undefined ? undefined : describedAt - offset };
  };
}

/** F1, `>title`, Enter, as a user runs a command; a palette that closed again at once is opened once more. */
async function runFromPalette(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${title}`, { timeout: 5_000 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  await page.keyboard.press('Enter');
}

/**
 * `rounds` times: opens the filter box, types TYPED one character at a time (each timed), then Escape, which puts
 * back the empty filter (the rows without the text return before the next round). Resolves the times, ms.
 */
export interface FilterSubject {
  /** The palette title of its filter command. */
  readonly command: string;
  /** The title of the pane it filters. */
  readonly pane: string;
}

export const BERTH_FILTER: FilterSubject = { command: 'Berth: Filter Containers', pane: 'Containers' };

export async function measureFilterKeystrokes(page: Page, subject: FilterSubject, rounds: number, log: (line: string) => void): Promise<number[]> {
  const times: number[] = [];
  try {
    await typeRounds(page, subject, rounds, times, log);
  } catch (error) {
    // The launch keeps its open and change samples; the keystrokes taken so far count, the failure is logged.
    log(`filter keystrokes stopped after ${times.length}: ${(error as Error).message.split('\n')[0] ?? ''}`);
    await page.screenshot({ path: join(TEST_OUTPUT, `bench-filter-keystroke-${Date.now()}.png`) }).catch(() => undefined);
  }
  return times;
}

async function typeRounds(page: Page, subject: FilterSubject, rounds: number, times: number[], log: (line: string) => void): Promise<void> {
  const box = page.locator('.quick-input-widget .quick-input-box input[placeholder^="Text to look for"]');
  for (let round = 0; round < rounds; round++) {
    await runFromPalette(page, subject.command);
    await box.waitFor({ state: 'visible', timeout: 30_000 });
    const describedTimes: number[] = [];
    for (let typed = 1; typed <= TYPED.length; typed++) {
      const text = TYPED.slice(0, typed);
      const watch = await armRowsWatch(page, subject.pane, text, true);
      const pressedAt = Date.now();
      await page.keyboard.type(text.slice(-1));
      const { shownAt, describedAt } = await watch();
      times.push(shownAt - pressedAt);
      if (describedAt !== undefined) describedTimes.push(describedAt - pressedAt);
      // As between the engine changes: the workbench draws what follows the rows (the description) before the next key.
      await sleep(300);
    }
    const cleared = await armRowsWatch(page, subject.pane, TYPED[0] ?? '', false);
    await page.keyboard.press('Escape');
    await cleared();
    const described = describedTimes.length > 0 ? `; the view's description changed after ${describedTimes.map((ms) => ms.toFixed(0)).join(', ')} ms` : '';
    log(`${subject.command}, keystrokes of round ${round + 1}: ${times.slice(-TYPED.length).map((ms) => ms.toFixed(0)).join(', ')} ms${described}`);
    await sleep(300);
  }
}
