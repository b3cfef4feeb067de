// Entry point the extension host loads (URL payload `extensionTestsPath`). Same contract as @vscode/test-electron:
// run() resolves when every test passed and rejects otherwise. The counts line is parsed by test/integration/run.ts.
import { appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

export const COUNTS_MARKER = 'BERTH_MOCHA_COUNTS';
export const PROGRESS_MARKER = 'BERTH_MOCHA_PROGRESS';
export const RUNNING_MARKER = 'BERTH_MOCHA_RUNNING';

/**
 * The extension host's own record of each test's start and end, written straight to a file: when the console lines
 * stop reaching the launcher, this file tells a stuck test from a stuck workbench.
 */
function record(line: string): void {
  const file = process.env.BERTH_IT_PROGRESS_FILE;
  if (!file) return;
  try {
    appendFileSync(file, `${new Date().toISOString()} ${line}\n`);
  } catch {
    // A record that cannot be written costs the diagnosis only.
  }
}

/**
 * The files that run first, in this order. The host check and activation come before everything: later files assume an
 * activated extension connected to its engine. The rest keep the order they ran in when their names carried
 * numbers, so each still runs after what it ran after before. A new file needs no entry: it runs after these, by name.
 */
export const RUN_FIRST = [
  'host', 'activation', 'events', 'container-commands', 'image-commands', 'logs-and-shell', 'second-engine', 'trees',
  'multi-engine', 'run-terminal', 'volumes', 'build', 'compose', 'events-view', 'first-hour-rows', 'first-hour-run',
  'first-hour', 'networks', 'run-options', 'tasks', 'ports', 'forwards', 'debug-node',
] as const;

/** RUN_FIRST's files, then every other test file by name; a RUN_FIRST name without its file is an error, not a skip. */
export function suiteFiles(names: readonly string[]): string[] {
  const tests = names.filter((name) => name.endsWith('.test.js'));
  const first = RUN_FIRST.map((stem) => `${stem}.test.js`);
  const missing = first.filter((name) => !tests.includes(name));
  if (missing.length > 0) throw new Error(`The integration suite lists files it does not have: ${missing.join(', ')}`);
  return [...first, ...tests.filter((name) => !first.includes(name)).sort()];
}

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    reporter: 'spec',
    timeout: Number(process.env.BERTH_IT_TEST_TIMEOUT_MS ?? 60_000),
    grep: process.env.BERTH_IT_GREP || undefined,
  });

  return new Promise((resolve, reject) => {
    try {
      for (const name of suiteFiles(readdirSync(__dirname))) mocha.addFile(join(__dirname, name));
      const runner = mocha.run((failures) => {
        const stats = runner.stats;
        const counts = {
          passed: stats?.passes ?? 0,
          failed: stats?.failures ?? failures,
          pending: stats?.pending ?? 0,
        };
        console.log(`${COUNTS_MARKER} ${JSON.stringify(counts)}`);
        record(`${COUNTS_MARKER} ${JSON.stringify(counts)}`);
        if (failures > 0) reject(new Error(`${failures} test(s) failed`));
        else resolve();
      });
      // A suite that never ends (the run's deadline) prints no summary: say what failed, and why, as it happens, and
      // keep the counts current so the launcher reports what ran.
      runner.on('fail', (test, error: Error) => {
        console.log(`FAILED: ${test.fullTitle()}\n${String(error.stack ?? error).split('\n').slice(0, 6).join('\n')}`);
        record(`FAILED ${test.fullTitle()}: ${String(error.message ?? error).split('\n')[0]}`);
      });
      runner.on('test', (test) => {
        console.log(`${RUNNING_MARKER} ${test.fullTitle()}`);
        record(`start ${test.fullTitle()}`);
      });
      runner.on('test end', (test) => {
        record(`end ${test.state ?? 'pending'} ${test.fullTitle()}`);
        const stats = runner.stats;
        console.log(`${PROGRESS_MARKER} ${JSON.stringify({ passed: stats?.passes ?? 0, failed: stats?.failures ?? 0, pending: stats?.pending ?? 0 })}`);
      });
    } catch (error) {
      console.log(`${COUNTS_MARKER} ${JSON.stringify({ passed: 0, failed: 1, pending: 0 })}`);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
