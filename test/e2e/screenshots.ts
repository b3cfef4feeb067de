// Where the e2e run's pictures go. The run never writes into the repository: every screenshot lands in
// test-output/screenshots/, and the ones that document a feature are also copied, once their case passed, into
// test-output/screenshots/docs/ under their published names. `npm run screenshots` then copies that set into
// docs/screenshots/, so refreshing the docs is a deliberate step and a test run leaves tracked files alone.
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from '../vscode/codeServer';
import { TEST_OUTPUT } from '../vscode/launch';

export const SCREENSHOTS = join(TEST_OUTPUT, 'screenshots');
/** The pictures of the last run that the docs may use: only those whose case passed. */
export const PUBLISHABLE_SCREENSHOTS = join(SCREENSHOTS, 'docs');
export const DOCS_SCREENSHOTS = join(REPO_ROOT, 'docs', 'screenshots');

/** Screenshot name in a run → its file name in docs/screenshots/. */
const PUBLISHED: Readonly<Record<string, string>> = {
  explorer: 'explorer.png',
  'run-output': 'run-output.png',
  'logs-editor': 'logs-editor.png',
  welcome: 'welcome-view.png',
  shell: 'attach-shell.png',
  'pull-error': 'pull-error.png',
  'vsix-activated': 'vsix-activated.png',
  tooltip: 'container-tooltip.png',
  'logs-terminal': 'logs-terminal-restart.png',
  'multi-engine': 'multi-engine.png',
  'prune-confirmation': 'prune-confirmation.png',
  'volumes-pruned': 'volumes-pruned.png',
  'aging-row': 'aging-row.png',
  'logs-long-line-terminal': 'logs-long-line.png',
  'logs-long-line-editor': 'logs-long-line-editor.png',
  'logs-instant-exit': 'logs-instant-exit.png',
  'logs-editor-resumed': 'logs-editor-resumed.png',
  'run-interactive': 'run-interactive-tty.png',
  'engine-down': 'engine-down-message.png',
  'stats-panel': 'stats-panel.png',
  'container-ports': 'container-ports.png',
  'container-ports-network-none': 'container-ports-network-none.png',
  'build-image': 'build-image.png',
  'files-edit': 'files-edit.png',
  'changes-diff': 'changes-diff.png',
  'registries-docker-hub': 'registries-docker-hub.png',
  'debug-breakpoint': 'debug-breakpoint.png',
};

/** Empties the publishable set, so a picture of an earlier run can never pass for one of this run. */
export async function resetPublishable(): Promise<void> {
  await rm(PUBLISHABLE_SCREENSHOTS, { recursive: true, force: true });
  await mkdir(PUBLISHABLE_SCREENSHOTS, { recursive: true });
}

/** Marks a screenshot of a passed case as publishable (a copy under its docs name, still in test-output/). */
export async function publish(name: string): Promise<void> {
  const target = PUBLISHED[name];
  if (!target) throw new Error(`no published name for the screenshot "${name}"`);
  await mkdir(PUBLISHABLE_SCREENSHOTS, { recursive: true });
  await copyFile(join(SCREENSHOTS, `${name}.png`), join(PUBLISHABLE_SCREENSHOTS, target));
}

/** Copies the publishable set of the last run into docs/screenshots/; returns the file names copied. */
export async function refreshDocsScreenshots(): Promise<string[]> {
  let files: string[];
  try {
    files = (await readdir(PUBLISHABLE_SCREENSHOTS)).filter((file) => file.endsWith('.png')).sort();
  } catch {
    files = [];
  }
  if (files.length === 0) {
    throw new Error(`No screenshots to publish in ${PUBLISHABLE_SCREENSHOTS}. Run the e2e tests first: bash scripts/test.sh e2e`);
  }
  await mkdir(DOCS_SCREENSHOTS, { recursive: true });
  for (const file of files) await copyFile(join(PUBLISHABLE_SCREENSHOTS, file), join(DOCS_SCREENSHOTS, file));
  return files;
}
