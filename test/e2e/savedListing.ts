// A window opens on the list the last window saved (issue 18: the open of a large engine waits for its listing):
// the Containers view shows the saved row at once, says in its message that it is the saved list, and the
// engine's own listing replaces it when it comes. The engine is an in-process fake because the case needs a
// listing that waits until told to answer, which a real dockerd does not do on demand; it speaks the wire format.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHost } from '../../src/engine/connection';
import { endpointKey } from '../../src/model/engineList';
import { SavedListingFile } from '../../src/model/savedListing';
import { quietEngineRoute, sendJson, startFakeEngine } from '../support/fakeEngine';
import { REPO_ROOT, SAVED_LISTINGS_DIR } from '../vscode/codeServer';
import { launchWorkbench, TEST_OUTPUT, type Workbench } from '../vscode/launch';
import { WorkbenchDriver } from './driver';

export const SAVED_LISTING_CASE = "a new window shows the list the last one saved, says so, and the engine's own listing replaces it";

function summary(id: string, name: string, state: 'running' | 'exited', status: string): Record<string, unknown> {
  return {
    Id: id.repeat(64),
    Names: [`/${name}`],
    Image: 'busybox:latest',
    ImageID: `sha256:${'c'.repeat(64)}`,
    Command: 'sleep 3600',
    Created: Math.floor(Date.now() / 1000) - 7200,
    Ports: [],
    Labels: {},
    State: state,
    Status: status,
  };
}

export async function savedListingWorkbench(settings: Record<string, unknown>, screenshots: string): Promise<void> {
  let answerListing: () => void = () => undefined;
  const listingHeld = new Promise<void>((resolve) => (answerListing = resolve));
  const engine = await startFakeEngine([
    // Exact from its words (under a minute) and not running: no inspect for its clock, no live figures to ask for,
    // so the fake needs no more routes.
    quietEngineRoute((response) => void listingHeld.then(() => sendJson(response, 200, [summary('b', 'live-row', 'exited', 'Exited (0) 5 seconds ago')]))),
  ]);
  const root = await mkdtemp(join(tmpdir(), 'berth-e2e-saved-'));
  let workbench: Workbench | undefined;
  try {
    // What the last window saved for this engine, written by Berth's own code.
    await new SavedListingFile(root, endpointKey(parseHost(engine.host))).save({
      savedAt: Date.now() - 10 * 60_000,
      containers: [{ summary: summary('a', 'saved-row', 'exited', 'Exited (0) 2 hours ago') as never, clock: undefined }],
      images: [],
    });
    const [file] = await readdir(root);
    if (!file) throw new Error('no saved listing was written');
    workbench = await launchWorkbench({
      extensionDevelopmentPath: REPO_ROOT,
      settings: { ...settings, 'berth.engine.host': engine.host },
      logFile: join(TEST_OUTPUT, 'e2e-saved-listing-code-server.log'),
      userDataFiles: { [join(SAVED_LISTINGS_DIR, file)]: await readFile(join(root, file), 'utf8') },
    });
    const driver = new WorkbenchDriver(workbench.page, screenshots);
    await driver.openViewContainer('Berth');
    await driver.treeRow('Containers', 'saved-row').waitFor({ timeout: 60_000 });
    const message = await driver.waitForText(() => driver.pane('Containers').innerText(), 'The list as saved at', "the view's message about the saved list", 15_000);
    if (message.includes('live-row')) throw new Error(`the engine's row showed before the engine answered:\n${message}`);
    await driver.screenshot('saved-listing');
    const seenBefore = engine.seen.length;
    answerListing();
    await driver.treeRow('Containers', 'live-row').waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
      await driver.screenshot('saved-listing-no-engine-rows');
      throw new Error(`${(error as Error).message.split('\n')[0] ?? ''}; the engine was asked, before the answer: ${engine.seen.slice(0, seenBefore).join(', ')}; after: ${engine.seen.slice(seenBefore).join(', ')}; the view shows: ${await driver.pane('Containers').innerText()}`);
    });
    const after = await driver.waitForText(
      async () => {
        const text = await driver.pane('Containers').innerText();
        return text.includes('saved-row') || text.includes('The list as saved at') ? '' : text;
      },
      'live-row',
      "the saved row and the view's message gone once the engine answered",
      15_000,
    );
    if (!engine.seen.includes('GET /containers/json')) throw new Error(`the engine was never asked for its containers: ${engine.seen.join(', ')}`);
    if (after.includes('saved-row')) throw new Error(`the saved row stayed:\n${after}`);
  } finally {
    answerListing();
    await workbench?.close();
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
}
