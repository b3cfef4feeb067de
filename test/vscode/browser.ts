import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { isLoopbackUrl, NON_LOOPBACK_WEBSOCKET } from './ports';

export const CHROMIUM_PATH = process.env.BERTH_CHROMIUM ?? '/usr/bin/chromium';

/** The flags from vscode-testing-notes.md: headless, no sandbox (root), nothing that phones home, DNS only for loopback. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/**
 * A browser context whose every non-loopback request is aborted. `blocked` collects what was refused, so a run can
 * report it (the workbench should not try the internet at all with the settings we give it).
 */
export async function loopbackOnlyContext(
  browser: Browser,
  viewport = { width: 1400, height: 860 },
): Promise<{ context: BrowserContext; blocked: string[] }> {
  // Webviews load their page through the workbench's service worker, so service workers are allowed; what they fetch
  // bypasses `route` below, but Chromium's --host-resolver-rules already resolve nothing but 127.0.0.1.
  const context = await browser.newContext({ viewport, serviceWorkers: 'allow', permissions: ['clipboard-read', 'clipboard-write'] });
  const blocked: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLoopbackUrl(url)) {
      await route.continue();
    } else {
      blocked.push(url);
      await route.abort('blockedbyclient');
    }
  });
  // Only non-loopback websockets are routed, and the pattern must be one Playwright matches itself (a RegExp): a
  // function pattern routes every websocket through Playwright's driver, the workbench's own too, which slowed
  // every message from the extension host by a base64 round trip through the driver and damaged messages larger
  // than 256 KiB ("Expected ',' or ']' after array element in JSON", a refresh that never completed).
  await context.routeWebSocket(NON_LOOPBACK_WEBSOCKET, (socket) => {
    blocked.push(socket.url());
    void socket.close();
  });
  return { context, blocked };
}
