// `npm run test:integration`: builds the extension and the mocha suite, then runs the suite inside the real extension
// host of code-server, driven by headless Chromium. Writes test-output/integration-counts.json.
// `npm run test:integration -- --engine podman` (or BERTH_IT_ENGINE=podman) is the matrix's Podman pass: the same suite
// against engines.json's podmanHost, writing test-output/integration-podman-counts.json and integration-podman-*.log.
import { execFile } from 'node:child_process';
import type { Page } from 'playwright-core';
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../vscode/codeServer';
import { withDeadline } from '../vscode/deadline';
import { launchWorkbench, TEST_OUTPUT } from '../vscode/launch';
import { buildExtension, buildIntegrationSuite } from '../vscode/build';
import type { TestEngines } from '../support/engines';
import { berthTestSettings, prepareEngines } from '../vscode/engines';
import { Stopwatch } from '../vscode/stopwatch';
import { ENGINE_KIND_ENV, engineHostFor, parseEngineKind, type EngineKind } from './support/engineKind';

const execFileAsync = promisify(execFile);
const COUNTS_MARKER = 'BERTH_MOCHA_COUNTS';
const PROGRESS_MARKER = 'BERTH_MOCHA_PROGRESS';
const RUNNING_MARKER = 'BERTH_MOCHA_RUNNING';
/** The workbench gives up on an extension host that did not start (seen on an overloaded machine): fail at once. */
const EXTENSION_HOST_FAILED = /took longer than \d+s to send its ready message|Extension host terminated unexpectedly/;
const EXIT_HOST_FAILED = 70;
/** How long the console may lag behind the extension host's own record of the suite's end. */
const HOST_RECORD_GRACE_MS = 30_000;
const OVERALL_TIMEOUT_MS = Number(process.env.BERTH_IT_TIMEOUT_MS ?? 15 * 60_000);

interface Counts {
  passed: number;
  failed: number;
  pending?: number;
  error?: string;
}

/**
 * The workbench forwards its own console too (socket setup, gallery errors with minified stack frames). Those go to
 * test-output/integration-workbench.log only, so the console shows mocha's report.
 */
function isWorkbenchNoise(text: string): boolean {
  return text.includes(PROGRESS_MARKER) || text.includes(RUNNING_MARKER) || /\/static\/out\/vs\/|^(Creating a socket|Resolving connection token|Resolved connection token|\[Service Worker\]|Updating additional builtin|ChatSessionStore|Creation of workbench contribution)/.test(
    text,
  ) || /ECONNREFUSED 127\.0\.0\.1:\d+: Failed/.test(text);
}

/** `--engine <kind>` on the command line, else BERTH_IT_ENGINE, else docker. */
function engineKindFromArgs(args: readonly string[]): EngineKind {
  const at = args.indexOf('--engine');
  if (at >= 0) return parseEngineKind(args[at + 1]);
  const inline = args.find((arg) => arg.startsWith('--engine='));
  return parseEngineKind(inline ? inline.slice('--engine='.length) : process.env[ENGINE_KIND_ENV]);
}

/** One pass of the matrix: its engine, and the prefix of every file it writes to test-output/. */
interface Pass {
  kind: EngineKind;
  host: string;
  name: 'integration' | 'integration-podman';
}

interface Attempt {
  code: number;
  counts: Counts | undefined;
  blocked: string[];
  /** What to say of a suite the deadline cut off: the test it was in, and how the host and workbench looked. */
  cutOff: string[];
}

/**
 * What the workbench shows when a test fails: a modal dialog, notifications and the open tabs, or that the page no
 * longer answers (its renderer hung or crashed). CI shows only the console, so this goes there, with a screenshot
 * to test-output/. A failure that hangs every later test (seen once in CI) is otherwise a mystery.
 */
async function describeWorkbench(page: Page, screenshotPath: string): Promise<string> {
  // A string, not a function: the runner's transpiler wraps named functions in a helper the page does not have.
  const look = page.evaluate<string>(`(() => {
    const texts = (selector) => Array.from(document.querySelectorAll(selector)).map((node) => node.innerText.replace(/\\s+/g, ' ').trim()).filter((text) => text !== '');
    return JSON.stringify({
      dialogs: texts('.monaco-dialog-box'),
      notifications: texts('.notification-toast, .notifications-center .notification-list-item'),
      tabs: texts('.tabs-container .tab .label-name'),
      quickInput: texts('.quick-input-widget:not([style*="display: none"]) .quick-input-title'),
    });
  })()`);
  const answer = await Promise.race([look, new Promise<string>((resolve) => setTimeout(() => resolve('the page did not answer within 5 s (its renderer is busy, hung or gone)'), 5_000))]).catch(
    (error: unknown) => `the page could not be read: ${String(error)}`,
  );
  await Promise.race([page.screenshot({ path: screenshotPath }), new Promise((resolve) => setTimeout(resolve, 5_000))]).catch(() => undefined);
  return answer;
}

/** One code-server + workbench session running the suite to its end (or to the deadline). */
async function runSuiteOnce(stopwatch: Stopwatch, suiteIndex: string, engines: TestEngines, pass: Pass, attempt: number): Promise<Attempt> {
  const workbenchLog = createWriteStream(join(TEST_OUTPUT, `${pass.name}-workbench.log`), { flags: attempt > 1 ? 'a' : 'w' });
  let counts: Counts | undefined;
  /** The counts after the last test that ended: what a run cut off by the deadline did. */
  let progress: Counts | undefined;
  /** The test that started last, as its console line said. */
  let running: string | undefined;
  let cutOff: string[] = [];
  const progressFile = join(TEST_OUTPUT, `${pass.name}-progress.txt`);
  await writeFile(progressFile, '');

  let resolveExit: (code: number) => void = () => undefined;
  const live: { page?: Page } = {};
  let failuresDescribed = 0;
  const exitCode = new Promise<number>((resolve) => {
    resolveExit = resolve;
  });
  const workbench = await stopwatch.stage(`code-server + workbench (attempt ${attempt})`, () =>
    launchWorkbench({
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: suiteIndex,
      settings: berthTestSettings(pass.host),
      logFile: join(TEST_OUTPUT, `${pass.name}-code-server.log`),
      env: {
        BERTH_TEST_ENGINES: JSON.stringify(engines),
        [ENGINE_KIND_ENV]: pass.kind,
        BERTH_IT_GREP: process.env.BERTH_IT_GREP ?? '',
        BERTH_IT_PROGRESS_FILE: progressFile,
      },
      onLog: (level, text) => {
        const at = text.indexOf(COUNTS_MARKER);
        if (at >= 0) counts = JSON.parse(text.slice(at + COUNTS_MARKER.length)) as Counts;
        const progressAt = text.indexOf(PROGRESS_MARKER);
        if (progressAt >= 0) progress = JSON.parse(text.slice(progressAt + PROGRESS_MARKER.length)) as Counts;
        const runningAt = text.indexOf(RUNNING_MARKER);
        if (runningAt >= 0) running = text.slice(runningAt + RUNNING_MARKER.length).trim();
        workbenchLog.write(`[${level}] ${text}\n`);
        if (EXTENSION_HOST_FAILED.test(text)) resolveExit(EXIT_HOST_FAILED);
        if (!isWorkbenchNoise(text)) process.stdout.write(`${text}\n`);
        if (text.startsWith('FAILED: ') && live.page !== undefined && failuresDescribed < 3) {
          failuresDescribed += 1;
          const shot = join(TEST_OUTPUT, `${pass.name}-failure-${failuresDescribed}.png`);
          void describeWorkbench(live.page, shot).then((state) => process.stdout.write(`the workbench after that failure (${shot}): ${state}\n`));
        }
      },
      onExit: (code) => resolveExit(code),
    }),
  );
  live.page = workbench.page;
  workbench.page.on('crash', () => process.stdout.write('the workbench page crashed (its renderer is gone)\n'));
  let hostEndedAt: number | undefined;
  // The extension host writes its own record too. When it says the suite ended and the workbench has not passed
  // that on within a grace period, the record decides, and the log says the workbench went quiet.
  const hostWatch = setInterval(() => {
    void readFile(progressFile, 'utf8').then((text) => {
      const at = text.lastIndexOf(COUNTS_MARKER);
      if (at < 0 || counts !== undefined) return;
      hostEndedAt ??= Date.now();
      if (Date.now() - hostEndedAt < HOST_RECORD_GRACE_MS) return;
      counts = JSON.parse(text.slice(at + COUNTS_MARKER.length).split('\n')[0] ?? '') as Counts;
      const failures = text.split('\n').filter((line) => / FAILED /.test(line));
      cutOff = [
        `  the workbench passed on nothing for ${HOST_RECORD_GRACE_MS / 1000} s after the extension host's suite ended; its own record was read (last console test: ${running ?? 'none'})`,
        ...failures.map((line) => `  ✗ ${line.replace(/^\S+ FAILED /, '')}`),
      ];
      resolveExit(counts.failed > 0 ? 1 : 0);
    }, () => undefined);
  }, 5_000);
  let code: number;
  try {
    code = await stopwatch.stage('suite', () => withDeadline(exitCode, OVERALL_TIMEOUT_MS, 'the integration suite'));
  } catch (error) {
    const soFar = counts ?? progress;
    counts = { passed: soFar?.passed ?? 0, failed: Math.max(1, soFar?.failed ?? 0), pending: soFar?.pending ?? 0, error: String(error) };
    code = 1;
    // The summary shows ✗ lines: name the test the deadline cut off, and what the extension host itself last wrote
    // (a later line there than the console's means the workbench stopped passing its lines on, not the test).
    const hostRecord = (await readFile(progressFile, 'utf8').catch(() => '')).trim().split('\n').pop() ?? '';
    const state = await Promise.race([
      describeWorkbench(workbench.page, join(TEST_OUTPUT, `${pass.name}-deadline.png`)).catch((reason: unknown) => `not described: ${String(reason)}`),
      new Promise<string>((resolve) => setTimeout(() => resolve('not described: the page did not answer in 15 s'), 15_000)),
    ]);
    cutOff = [
      `  ✗ cut off by the deadline while running: ${running ?? '(no test had started)'}`,
      `    the extension host's last record: ${hostRecord || '(none)'}; load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}`,
      `    the workbench then: ${state}`,
    ];
  } finally {
    clearInterval(hostWatch);
    // What the workbench looked like at the end helps when a test failed.
    await workbench.page.screenshot({ path: join(TEST_OUTPUT, `${pass.name}-final.png`) }).catch(() => undefined);
    await stopwatch.stage('shutdown', () => workbench.close());
    workbenchLog.end();
  }
  return { code, counts, blocked: workbench.blocked, cutOff };
}

async function main(): Promise<number> {
  const stopwatch = new Stopwatch();
  const engines = await stopwatch.stage('engines', prepareEngines);
  const kind = engineKindFromArgs(process.argv.slice(2));
  const pass: Pass = { kind, host: engineHostFor(engines, kind), name: kind === 'podman' ? 'integration-podman' : 'integration' };
  console.log(`${pass.name}: the suite runs against ${kind} at ${pass.host}`);
  await stopwatch.stage('build extension', buildExtension);
  const suiteIndex = await stopwatch.stage('build suite', () => buildIntegrationSuite(pass.name));

  // The stage before this one writes gigabytes (400 MB of output, 150 MB logs, build contexts) that the kernel is
  // still writing back; a first extension host that writes its storage behind them once missed VS Code's 60 s.
  await stopwatch.stage('sync', () => execFileAsync('sync'));
  let result = await runSuiteOnce(stopwatch, suiteIndex, engines, pass, 1);
  if (result.code === EXIT_HOST_FAILED) {
    // The extension host never started, so no test ran: one more try, then report it as a failure. What the server
    // said, and how busy the machine was, go to the console: CI shows nothing else of a run that went wrong.
    const serverLog = await readFile(join(TEST_OUTPUT, `${pass.name}-code-server.log`), 'utf8').catch(() => '');
    const memory = await readFile('/proc/meminfo', 'utf8').catch(() => '');
    const writeback = memory.split('\n').filter((line) => /^(Dirty|Writeback):/.test(line)).join(', ').replace(/\s+/g, ' ');
    console.log(`the extension host did not start (load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}; ${writeback}); the server's last lines:`);
    console.log(serverLog.split('\n').slice(-25).join('\n'));
    console.log('trying once more');
    result = await runSuiteOnce(stopwatch, suiteIndex, engines, pass, 2);
  }
  const { code } = result;
  let counts = result.counts ?? { passed: 0, failed: 1, error: 'the suite reported no counts (it did not load or crashed)' };
  if (code === EXIT_HOST_FAILED) counts = { ...counts, failed: Math.max(1, counts.failed), error: 'the extension host did not start' };
  if (code !== 0 && counts.failed === 0) counts = { ...counts, failed: 1, error: `exit code ${code} with no failed test` };
  await writeFile(join(TEST_OUTPUT, `${pass.name}-counts.json`), `${JSON.stringify(counts)}\n`);
  if (result.blocked.length > 0) console.log(`blocked non-loopback requests: ${result.blocked.join(', ')}`);
  console.log(`${pass.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.pending ?? 0} skipped; exit code ${code}`);
  console.log(stopwatch.report());
  // Last, so that the summary's few last lines of this log carry them.
  for (const line of result.cutOff) console.log(line);
  return code === 0 && counts.failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
