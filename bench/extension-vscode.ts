/**
 * The launcher of the extension-host benchmarks: starts code-server offline with headless Chromium through the
 * test harness (test/vscode/launch.ts), loads the staged production extension and runs bench/extension-host.ts in
 * its extension host. Each launch is a fresh server, user-data dir and extension host, so every activation is cold.
 * From the page it also reads what the workbench shows: VS Code's Running Extensions editor, the notifications, and
 * how quickly the renderer answers while a big logs document loads.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../test/vscode/codeServer';
import { withDeadline } from '../test/vscode/deadline';
import { launchWorkbench } from '../test/vscode/launch';
import { BENCH_RESULT_MARKER, BENCH_STEP_MARKER, type HostPlan, type HostResult } from './extension-protocol';
import { summarize, type Summary } from './stats';

/** The workbench gives up on an extension host that did not start (seen on an overloaded machine). */
const EXTENSION_HOST_FAILED = /took longer than \d+s to send its ready message|Extension host terminated unexpectedly/;
export const EXIT_HOST_FAILED = 70;

/** Bundles extension-host.ts into out/bench/ (npm packages stay external and load from the repo's node_modules). */
export async function buildHostModule(): Promise<string> {
  const outfile = join(REPO_ROOT, 'out', 'bench', 'extension-host.js');
  await build({
    entryPoints: [join(REPO_ROOT, 'bench', 'extension-host.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    external: ['vscode'],
    logLevel: 'warning',
  });
  return outfile;
}

export interface LaunchOutcome {
  readonly exitCode: number;
  readonly results: HostResult[];
  /** The Berth row of VS Code's Running Extensions editor, as text (undefined when it did not show). */
  readonly runtimeRow: string | undefined;
  /** Notification texts on screen once the logs document loaded. */
  readonly notifications: string[];
  /** Page round trips (evaluate in the renderer) while the logs document loaded, ms. */
  readonly rendererRoundTrip: Summary | undefined;
  readonly rendererRoundTripMax: number | undefined;
}

export interface LaunchOptions {
  readonly extensionDir: string;
  readonly hostModule: string;
  readonly plan: HostPlan;
  readonly settings: Record<string, unknown>;
  /** The display language and the user-data files that make it available (test/vscode/germanLocale.ts). */
  readonly language?: { readonly locale: string; readonly userDataFiles: Readonly<Record<string, string>> } | undefined;
  readonly log: (line: string) => void;
  /** Every line the workbench and the extension host log goes here (for a post-mortem). */
  readonly transcript: (line: string) => void;
  readonly deadlineMs: number;
}

/** Page.evaluate round trips every 50 ms until stopped: the renderer's main thread answering. */
function rendererProbe(page: Page): { stop(): Promise<number[]> } {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await page.evaluate(() => 0).catch(() => undefined);
      samples.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return samples;
    },
  };
}

async function runtimeExtensionsRow(page: Page): Promise<string | undefined> {
  const row = page.locator('.runtime-extensions-editor .monaco-list-row').filter({ hasText: 'Berth' }).first();
  try {
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    return (await row.innerText()).replace(/\s+/g, ' ').trim();
  } catch {
    if (process.env.BERTH_BENCH_DEBUG) await page.screenshot({ path: join(tmpdir(), 'berth-bench-runtime.png') });
    return undefined;
  }
}

async function notificationTexts(page: Page): Promise<string[]> {
  const messages = page.locator('.notifications-toasts .notification-list-item-message');
  return (await messages.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
}

export async function runLaunch(options: LaunchOptions): Promise<LaunchOutcome> {
  const results: HostResult[] = [];
  let page: Page | undefined;
  let resolvePage: (page: Page) => void = () => undefined;
  const pageReady = new Promise<Page>((resolve) => (resolvePage = resolve));
  let runtimeRow: Promise<string | undefined> = Promise.resolve(undefined);
  let probe: { stop(): Promise<number[]> } | undefined;
  let rendererDone: Promise<number[]> | undefined;
  let notifications: Promise<string[]> = Promise.resolve([]);
  let resolveExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  const onStep = (name: string): void => {
    // The host keeps the Running Extensions editor open a few seconds after this step: read it now.
    if (name === 'activation-done') runtimeRow = pageReady.then(runtimeExtensionsRow);
    if (name === 'logs-start' && page) probe = rendererProbe(page);
    if (name === 'logs-loaded' && page) {
      notifications = notificationTexts(page).catch(() => []);
      rendererDone = probe?.stop();
      probe = undefined;
    }
  };
  const workbench = await launchWorkbench({
    extensionDevelopmentPath: options.extensionDir,
    extensionTestsPath: options.hostModule,
    settings: options.settings,
    ...(options.language ?? {}),
    env: { BERTH_BENCH_PLAN: JSON.stringify(options.plan) },
    onLog: (level, text) => {
      options.transcript(`[${level}] ${text}`);
      if (EXTENSION_HOST_FAILED.test(text)) resolveExit(EXIT_HOST_FAILED);
      const result = text.indexOf(BENCH_RESULT_MARKER);
      if (result >= 0) {
        const parsed = JSON.parse(text.slice(result + BENCH_RESULT_MARKER.length)) as HostResult;
        results.push(parsed);
        if (parsed.kind === 'error') options.log(`extension host: ${parsed.message}`);
      }
      const stepAt = text.indexOf(BENCH_STEP_MARKER);
      if (stepAt >= 0) onStep(text.slice(stepAt + BENCH_STEP_MARKER.length).trim());
    },
    onExit: (code) => resolveExit(code),
  });
  try {
    page = workbench.page;
    resolvePage(workbench.page);
    const exitCode = await withDeadline(exited, options.deadlineMs, 'the extension-host benchmark');
    const rendererSamples = await (rendererDone ?? probe?.stop());
    return {
      exitCode,
      results,
      runtimeRow: await runtimeRow,
      notifications: await notifications,
      rendererRoundTrip: rendererSamples && rendererSamples.length > 0 ? summarize(rendererSamples) : undefined,
      rendererRoundTripMax: rendererSamples && rendererSamples.length > 0 ? Math.max(...rendererSamples) : undefined,
    };
  } finally {
    // A run that broke while the logs document loaded left the renderer probe polling.
    await probe?.stop();
    await workbench.close();
  }
}

/** A unix socket that accepts connections and never answers: an engine that hangs. */
export async function blackholeEngine(): Promise<{ host: string; close(): Promise<void> }> {
  const path = join(tmpdir(), `berth-bench-blackhole-${process.pid}.sock`);
  rmSync(path, { force: true });
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  return {
    host: `unix://${path}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(path, { force: true });
    },
  };
}
