/**
 * The bench's side of Berth's saved listing (src/model/savedListing.ts): each timed launch opens on what an earlier
 * one saved, as a returning user's window does, and the changes are timed only once the engine's own listing shows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SAVED_LISTINGS_DIR as SAVED_LISTINGS } from '../test/vscode/codeServer';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The Containers view's message while it shows a saved list (l10n/bundle.l10n.json). */
const SAVED_LIST_MESSAGE = 'The list as saved at';

/** The saved listings under a user-data dir (whole files only: not one being written). */
export function savedListingsOf(userDataDir: string): Record<string, string> {
  const dir = join(userDataDir, SAVED_LISTINGS);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return {};
  }
  return Object.fromEntries(names.map((name) => [join(SAVED_LISTINGS, name), readFileSync(join(dir, name), 'utf8')]));
}

/** Waits until the Containers view no longer says its rows are a saved list; ms it took, undefined if it never showed one. */
export async function engineListingShown(page: Page): Promise<number | undefined> {
  const started = Date.now();
  const pane = page.locator('.pane', { has: page.locator('.pane-header h3.title', { hasText: /^Containers$/i }) });
  let sawSaved = false;
  while (Date.now() - started < 90_000) {
    const text = await pane.innerText().catch(() => '');
    if (!text.includes(SAVED_LIST_MESSAGE)) return sawSaved ? Date.now() - started : undefined;
    sawSaved = true;
    await sleep(25);
  }
  throw new Error("the Containers view still showed the saved list 90 s after it opened: the engine's listing never replaced it");
}
