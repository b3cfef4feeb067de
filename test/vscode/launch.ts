import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { format } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, loopbackOnlyContext } from './browser';
import { REPO_ROOT, startCodeServer, type CodeServer, type CodeServerOptions } from './codeServer';
import { pollUntil } from './deadline';

/** test-output/ (gitignored); BERTH_TEST_OUTPUT moves it, e.g. for a second run beside a CI run. */
export const TEST_OUTPUT = process.env.BERTH_TEST_OUTPUT ?? join(REPO_ROOT, 'test-output');

export interface WorkbenchOptions extends CodeServerOptions {
  /** Load the extension from this folder (URL payload `extensionDevelopmentPath`). */
  extensionDevelopmentPath?: string;
  /** Run this compiled mocha suite index in the extension host (URL payload `extensionTestsPath`). */
  extensionTestsPath?: string;
  /** Receives every line the extension host logs (mocha's reporter among them). */
  onLog?: (level: string, text: string) => void;
  /** Called with the code the workbench reports when the test suite ends. */
  onExit?: (code: number) => void;
  viewport?: { width: number; height: number };
}

export interface Workbench {
  readonly server: CodeServer;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly url: string;
  /** Non-loopback URLs the browser tried and we refused. */
  readonly blocked: string[];
  /** Closes the browser, then ends code-server by PID. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts code-server offline, opens its workbench in headless Chromium and waits for it to render.
 * When `extensionTestsPath` is set, the workbench runs that suite and reports through `onLog`/`onExit`.
 */
export async function launchWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  await mkdir(TEST_OUTPUT, { recursive: true });
  const server = await startCodeServer(options);
  let browser: Browser | undefined;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await browser?.close().catch(() => undefined);
    await server.stop();
  };
  try {
    browser = await launchChromium();
    const { context, blocked } = await loopbackOnlyContext(browser, options.viewport);
    const page = await context.newPage();
    const onLog = options.onLog;
    const onExit = options.onExit;
    await page.exposeFunction('codeAutomationLog', (level: unknown, args: unknown) => {
      const parts = Array.isArray(args) ? (args as unknown[]) : [args];
      onLog?.(String(level), format(...parts));
    });
    await page.exposeFunction('codeAutomationExit', (code: unknown) => {
      onExit?.(typeof code === 'number' ? code : Number(code));
    });

    const payload: Array<[string, string]> = [];
    if (options.extensionDevelopmentPath) {
      payload.push(['extensionDevelopmentPath', server.remoteUri(options.extensionDevelopmentPath)]);
    }
    if (options.extensionTestsPath) payload.push(['extensionTestsPath', server.remoteUri(options.extensionTestsPath)]);
    const url = server.workbenchUrl(payload);
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await pollUntil(
      async () => ((await page.locator('.monaco-workbench .activitybar').count()) > 0 ? true : undefined),
      60_000,
      'the workbench to render',
    );
    return { server, browser, context, page, url, blocked, close };
  } catch (error) {
    await close();
    throw error;
  }
}
