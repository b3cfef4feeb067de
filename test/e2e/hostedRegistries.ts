// Docker Hub in the Registries view, driven as a user does (issue 16, item 8): Sign In to Registry from the palette,
// the docker.io row lists the namespace's repositories and a repository its tags through Hub's own API (replayed on
// loopback: test/fixtures/hosted-apis); signed in as a rate-limited user, the row shows Hub's refusal and "Type a
// Repository…", which lists the tags of the repository typed.
import { HUB_USER } from '../support/hostedApis';
import type { WorkbenchDriver } from './driver';

export const HOSTED_REGISTRIES_CASE =
  'Registries: Docker Hub signed in from the palette lists repositories and tags through its API; a refused listing offers Type a Repository…';

const PANE = 'Registries';

export async function hostedRegistries(driver: WorkbenchDriver, publish: (name: string) => Promise<void>): Promise<void> {
  const page = driver.page;
  await driver.openViewContainer('Berth');
  await driver.foldPanes(['Containers', 'Images', 'Volumes', 'Networks']);
  await driver.foldPanes([PANE], false);
  try {
    await driver.runFromPalette('Berth: Sign In to Registry');
    await driver.answerQuickInput('Registry host', 'docker.io');
    await driver.answerQuickInput('User name', HUB_USER.username);
    await driver.answerQuickInput('Password or access token', HUB_USER.password);

    const hubRow = driver.treeRow(PANE, /^docker\.io/);
    await hubRow.waitFor({ timeout: 30_000 });
    await hubRow.click();
    const web = driver.treeRow(PANE, 'berthtester/web');
    await web.waitFor({ timeout: 30_000 });
    for (const name of ['berthtester/api-gateway', 'berthtester/worker']) await driver.treeRow(PANE, name).waitFor({ timeout: 10_000 });
    await web.click();
    await driver.treeRow(PANE, '1.10.0').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(300);
    await driver.screenshot('registries-docker-hub');
    await publish('registries-docker-hub');

    // Signed in again from the row's menu, as a user whose listings Hub throttles.
    await driver.contextMenu(hubRow, 'Sign In to Registry…');
    await driver.answerQuickInput('User name', 'berthlimited');
    await driver.answerQuickInput('Password or access token', 'limited-Pa55');
    const refusal = driver.treeRow(PANE, 'Cannot list repositories');
    await refusal.waitFor({ timeout: 30_000 });
    const rows = (await driver.rowTexts(PANE)).join('\n');
    if (!/Docker Hub is limiting requests \(429\)/.test(rows)) throw new Error(`the refusal row does not show Hub's words:\n${rows}`);
    // The view is drawn again after the sign-in; a click whose press and release straddle that redraw is not taken
    // as a click on the row (CI once saw no input open). A user clicks again: so does this, three times at most.
    const input = page.locator('.quick-input-widget');
    for (let attempt = 1; ; attempt++) {
      await driver.treeRow(PANE, 'Type a Repository…').click();
      if (await input.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false)) break;
      if (attempt === 3) throw new Error('three clicks on Type a Repository… opened no input');
    }
    await driver.answerQuickInput('A repository name', 'busybox');
    const typed = driver.treeRow(PANE, /^busybox\s*typed/);
    await typed.waitFor({ timeout: 30_000 });
    await typed.click();
    await driver.treeRow(PANE, '1.37').waitFor({ timeout: 30_000 });
    await driver.screenshot('registries-type-repository');
    await driver.contextMenu(typed, 'Forget Repository');
    await typed.waitFor({ state: 'detached', timeout: 15_000 });
  } finally {
    await driver.runFromPalette('Berth: Sign Out of Registry').catch(() => undefined);
    await driver.answerQuickInput('Registry host', 'docker.io').catch(() => undefined);
    await driver.runFromPalette('Notifications: Clear All').catch(() => undefined);
    await driver.foldPanes([PANE]).catch(() => undefined);
    await driver.foldPanes(['Containers', 'Images', 'Volumes'], false).catch(() => undefined);
  }
}
