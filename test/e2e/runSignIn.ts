// Run Container of an image only in the registry, from the palette, signed out (issue 20, item 7): the registry's
// refusal comes with Sign In…; after signing in through the prompts the run goes on with the answers given first,
// without asking them again, in a terminal named after the container.
import type { EngineClient } from '../../src/engine';
import { uniqueName } from '../support/engines';
import type { Locator } from 'playwright-core';
import type { WorkbenchDriver } from './driver';

export const RUN_SIGN_IN_CASE = 'Run Container of a registry image, signed out: Sign In… from the refusal, then the run goes on';
export const PULL_SIGN_IN_CASE =
  'Pull Image signed out: the registry\'s message with Sign In…; after signing in through the prompts the image is pulled';

export interface RunSignInSetup {
  readonly driver: WorkbenchDriver;
  readonly client: EngineClient;
  readonly registry: { readonly address: string; readonly username: string; readonly password: string };
  /** Container ids to remove at the end of the run. */
  readonly cleanup: string[];
}

export async function runSignIn(setup: RunSignInSetup): Promise<void> {
  const { driver, client, registry } = setup;
  const page = driver.page;
  const reference = `${registry.address}/berth/busybox:1.0`;
  const runName = uniqueName('berth-e2e-signin');
  await signedOutWithout(setup, reference);
  try {
    await driver.runFromPalette('Berth: Run Container');
    await driver.answerQuickInput('Pick a local image', reference);
    await driver.answerQuickInput('Command for', 'echo signed-in-run');
    await driver.answerQuickInput('Container name', runName);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'TTY' }).first().waitFor({ timeout: 15_000 });
    await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).click();
    await driver.answerQuickInput('Options for', 'No extra options');
    const offer = page.locator('.notification-toast', { hasText: `${registry.address} refused` }).first();
    await offer.waitFor({ timeout: 30_000 });
    await signInFrom(setup, offer);
    const text = await driver.waitForText(() => driver.terminalText(), /exited with status 0/, 'the run after the sign-in', 60_000);
    if (!text.includes('signed-in-run')) throw new Error(`the command given before the sign-in did not run:\n${text}`);
    if (!text.includes('signed in; pulling')) throw new Error(`the terminal does not say it pulled again:\n${text}`);
    const tab = page.locator('.terminal-tabs-entry, .single-terminal-tab, .terminal-tab', { hasText: `Run: ${runName}` }).first();
    const tabs = await page.locator('.pane-header, .terminal-tabs-entry, .single-terminal-tab').allInnerTexts();
    if ((await tab.count()) === 0 && !tabs.join(' ').includes(runName)) throw new Error(`no terminal named after ${runName}: ${tabs.join(' | ')}`);
    const created = await client.containers.list({ all: true, filters: { name: [runName] } });
    if (created.length !== 1) throw new Error(`expected one container ${runName}, found ${created.length}`);
    for (const container of created) setup.cleanup.push(container.Id);
    await page.waitForTimeout(500);
    await driver.screenshot('run-sign-in');
  } finally {
    await signOutAfter(setup);
  }
}

/**
 * Pull Image from the palette, signed out (issue 17, item 3): the toast carries the registry's own words and Sign In…;
 * answering the prompts pulls again, "Pulled …" is shown and the engine has the image.
 */
export async function pullSignIn(setup: RunSignInSetup & { readonly reference: string; readonly publish: (name: string) => Promise<void> }): Promise<void> {
  const { driver, client, registry, reference } = setup;
  const page = driver.page;
  await signedOutWithout(setup, reference);
  try {
    await driver.runFromPalette('Berth: Pull Image');
    await driver.answerQuickInput('Image reference', reference);
    // The registry's own words (docker's message for an anonymous pull from a registry that demands auth).
    const toast = page.locator('.notification-toast', { hasText: /no basic auth credentials|unauthori[sz]ed|authentication required/i }).first();
    await toast.waitFor({ timeout: 30_000 });
    if (!(await toast.innerText()).includes(registry.address)) throw new Error('the notification does not name the registry');
    await page.waitForTimeout(500);
    await driver.screenshot('pull-error');
    await setup.publish('pull-error');
    await signInFrom(setup, toast);
    // The engine has the image, and the user was told: the toast may have hidden itself by the time the pull ends,
    // so the notification is read from the Notifications center, which keeps it.
    await driver.waitForText(async () => ((await client.images.inspect(reference).catch(() => undefined)) ? 'pulled' : ''), 'pulled', `${reference} in the engine`, 60_000);
    await driver.runFromPalette('Notifications: Show Notifications');
    await page.locator('.notifications-center', { hasText: `Pulled ${reference}.` }).first().waitFor({ timeout: 30_000 });
  } finally {
    await signOutAfter(setup);
  }
}

/** Signed out of the test registry, the image only in the registry, no notification left from earlier cases. */
async function signedOutWithout({ driver, client, registry }: RunSignInSetup, reference: string): Promise<void> {
  await client.images.remove(reference, { force: true }).catch(() => undefined);
  await driver.runFromPalette('Berth: Sign Out of Registry');
  await driver.answerQuickInput('Registry host', registry.address);
  await driver.runFromPalette('Notifications: Clear All');
}

/** Sign In… on the refusal's notification, answered as a user does. */
async function signInFrom({ driver, registry }: RunSignInSetup, notification: Locator): Promise<void> {
  await notification.locator('.monaco-button', { hasText: 'Sign In…' }).click();
  await driver.answerQuickInput('User name', registry.username);
  await driver.answerQuickInput('Password or access token', registry.password);
}

/** Leaves the next case signed out, with no notification shown. */
async function signOutAfter({ driver, registry }: RunSignInSetup): Promise<void> {
  await driver.runFromPalette('Berth: Sign Out of Registry').catch(() => undefined);
  await driver.answerQuickInput('Registry host', registry.address).catch(() => undefined);
  await driver.runFromPalette('Notifications: Clear All').catch(() => undefined);
  await driver.runFromPalette('Notifications: Hide Notifications').catch(() => undefined);
}
