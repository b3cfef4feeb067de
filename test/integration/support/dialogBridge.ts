/**
 * A modal dialog of VS Code's own (a language-model tool's confirmation, say) lives in the workbench page, which a
 * test in the extension host cannot reach. The launcher (test/integration/run.ts) holds that page: a test writes a
 * request into BERTH_IT_DIALOG_DIR, the launcher answers the matching dialog with the button asked for and writes back
 * the dialog's text. One request at a time; the test side is plain Node, the launcher side takes a Playwright page.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const DIALOG_DIR_ENV = 'BERTH_IT_DIALOG_DIR';

interface DialogRequest {
  /** Text the dialog must contain. */
  readonly contains: string;
  /** The button to press: its exact label, or a RegExp source matched against it. */
  readonly button: string;
}

const requestFile = (dir: string): string => join(dir, 'request.json');
const answerFile = (dir: string): string => join(dir, 'answer.json');

/** Test side: asks the launcher to press `button` on the next dialog containing `contains`; resolves its text. */
export async function answerNextDialog(contains: string, button: RegExp, timeoutMs = 30_000): Promise<string> {
  const dir = process.env[DIALOG_DIR_ENV];
  if (!dir) throw new Error(`${DIALOG_DIR_ENV} is not set: the launcher answers no dialogs`);
  await rm(answerFile(dir), { force: true });
  const request: DialogRequest = { contains, button: button.source };
  await writeFile(requestFile(dir), JSON.stringify(request));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(answerFile(dir))) {
      const { text } = JSON.parse(await readFile(answerFile(dir), 'utf8')) as { text: string };
      await rm(answerFile(dir), { force: true });
      return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await rm(requestFile(dir), { force: true });
  throw new Error(`no dialog containing "${contains}" appeared within ${timeoutMs / 1000} s`);
}

/** Launcher side: answers requests until the returned function is called. */
export function watchDialogs(page: Page, dir: string): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy || !existsSync(requestFile(dir))) return;
    busy = true;
    void (async () => {
      const request = JSON.parse(await readFile(requestFile(dir), 'utf8')) as DialogRequest;
      const dialog = page.locator('.monaco-dialog-box', { hasText: request.contains });
      if ((await dialog.count()) === 0) return;
      const text = await dialog.first().innerText();
      await dialog.first().locator('.monaco-button', { hasText: new RegExp(request.button) }).first().click();
      await rm(requestFile(dir), { force: true });
      await writeFile(answerFile(dir), JSON.stringify({ text }));
    })()
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, 200);
  return () => clearInterval(timer);
}
