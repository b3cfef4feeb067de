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

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    reporter: 'spec',
    timeout: Number(process.env.BERTH_IT_TEST_TIMEOUT_MS ?? 60_000),
    grep: process.env.BERTH_IT_GREP || undefined,
  });
  const files = readdirSync(__dirname)
    .filter((name) => name.endsWith('.test.js'))
    .sort();
  for (const name of files) mocha.addFile(join(__dirname, name));

  return new Promise((resolve, reject) => {
    try {
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
