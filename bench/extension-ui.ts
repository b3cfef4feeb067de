/**
 * The explorer as a user meets it, in the real workbench (code-server + headless Chromium), each figure beside
 * what VS Code itself allows, measured in the same run (issue 18):
 *   - idle CPU of the extension host per minute: with no extension (baseline), with Berth's views hidden and
 *     visible, 1,000 containers, nothing changing; and the engine requests Berth made meanwhile (a counting proxy
 *     sits between Berth and the engine);
 *   - open: a click on the view container's icon → the first row in the DOM;
 *   - change: an engine change (the create event's timeNano) → the new row in the DOM. For the floor, the refresh is
 *     asked over a socket at a wall-clock time and the same DOM observer times the row.
 * The DOM times are taken in the page (a MutationObserver) and put on the launcher's clock with a measured offset.
 */
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { EngineClient } from '../src/engine';
import { containerSpec } from '../test/support/containerSpec';
import { launchWorkbench, TEST_OUTPUT, type Workbench } from '../test/vscode/launch';
import { build } from 'esbuild';
import { REPO_ROOT } from '../test/vscode/codeServer';
import { FLOOR_CONTAINER_TITLE, FLOOR_VIEW_TITLE } from './extension-floor';
import type { ProfileSummary } from './extension-profile-host';
import { engineListingShown, savedListingsOf } from './extension-saved-listing';
import { summarize, type Summary } from './stats';

export interface UiLatency {
  /** `Berth before`: Berth built from an earlier commit (BERTH_BENCH_UI_BEFORE), in the same run. */
  readonly subject: 'Berth' | 'floor' | 'Berth before';
  readonly containers: number;
  /** Berth: opens in a window that has the list the last one saved (src/model/savedListing.ts), as a returning user's. */
  readonly open: Summary;
  readonly change: Summary;
  /** Berth: a keystroke in the Containers filter → the view's rows filtered (bench/extension-ui-filter.ts). */
  readonly keystroke?: Summary | undefined;
  /** Berth: the open in a first window, with no saved list: the engine's listing is on the way. */
  readonly firstWindowOpen?: Summary | undefined;
  /** Berth, with a saved list: from the first row to the engine's own listing shown (the view's message gone). */
  readonly engineListingAfterOpen?: Summary | undefined;
}

let launchSequence = 0;

export interface IdleCpu {
  readonly case: string;
  /** Extension host CPU (all threads), ms per minute. */
  readonly cpuMsPerMinute: number;
  readonly windowMs: number;
  /** Engine requests Berth made in the window (undefined without Berth). */
  readonly engineRequests: number | undefined;
  /** Where the time went, from a V8 profile of the 20 s just after the window (ms per minute). */
  readonly profile: ProfileSummary | undefined;
  /** CPU by thread name over the window, ms per minute: the profile sees only the main thread. */
  readonly threads?: Record<string, number> | undefined;
}

/** Berth's third idle window: visible again after the hidden one, when no shown row ages by the second. */
export const STEADY_VISIBLE_CASE = 'Berth, views visible again, no row under a minute old';

/** The profiled window that follows each idle CPU window (its figures are scaled to a minute). */
const PROFILE_WINDOW_MS = 20_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The extension host of a code-server: the descendant whose command line says so. */
function extensionHostPid(serverPid: number): number | undefined {
  const parents = new Map<number, number>();
  const commands = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      commands.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      // gone meanwhile
    }
  }
  const descends = (pid: number): boolean => {
    for (let current = parents.get(pid); current !== undefined && current > 1; current = parents.get(current)) if (current === serverPid) return true;
    return false;
  };
  return [...commands].find(([pid, command]) => /extensionHost/.test(command) && descends(pid))?.[0];
}

/** The extension host starts a while after the workbench renders. */
export async function waitForExtensionHost(serverPid: number): Promise<number> {
  for (let waited = 0; waited < 90_000; waited += 250) {
    const pid = extensionHostPid(serverPid);
    if (pid !== undefined) return pid;
    await sleep(250);
  }
  throw new Error('no extension host process within 90 s');
}

/** CPU time of each live thread of a process, ns, by thread id (schedstat: precise, unlike the 10 ms ticks of /proc/PID/stat). */
function threadCpuNs(pid: number): Map<string, number> {
  const threads = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(task, Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // the thread ended
    }
  }
  return threads;
}

/** Each thread's name (`comm`, such as `node`, `V8Worker`, `libuv-worker`) by thread id. */
function threadNames(pid: number, tids: Iterable<string>): Map<string, string> {
  const names = new Map<string, string>();
  for (const tid of tids) {
    try {
      names.set(tid, readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim());
    } catch {
      // the thread ended
    }
  }
  return names;
}

/**
 * CPU of a process's threads between two readings, ms, summed by thread name (the main thread is the one whose id is
 * the process's). Threads that started or ended in between count from zero or are left out.
 */
function threadCpuDelta(pid: number, before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const names = threadNames(pid, after.keys());
  const byName: Record<string, number> = {};
  for (const [tid, ns] of after) {
    const name = tid === String(pid) ? 'main' : (names.get(tid) ?? '?');
    byName[name] = (byName[name] ?? 0) + (ns - (before.get(tid) ?? 0)) / 1e6;
  }
  return byName;
}

/** A unix socket in front of the engine that counts the HTTP requests passing through. */
export async function countingProxy(engineSocket: string): Promise<{ host: string; requests(): number; close(): Promise<void> }> {
  const path = join(tmpdir(), `berth-bench-proxy-${process.pid}.sock`);
  rmSync(path, { force: true });
  let requests = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(engineSocket);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      requests += chunk.toString('latin1').match(/(?:^|\r\n)(?:GET|HEAD|POST|PUT|DELETE) \/\S* HTTP\/1\.1\r\n/g)?.length ?? 0;
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  return {
    host: `unix://${path}`,
    requests: () => requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(path, { force: true });
    },
  };
}

/** Bundles the in-host profiler (bench/extension-profile-host.ts) to out/bench/. */
export async function buildProfileHost(): Promise<string> {
  const outfile = join(REPO_ROOT, 'out', 'bench', 'extension-profile-host.js');
  await build({ entryPoints: [join(REPO_ROOT, 'bench', 'extension-profile-host.ts')], outfile, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning' });
  return outfile;
}

/** A unix socket an extension host opens when it gets to it (slowly, on a loaded machine). */
async function connectWithRetry(path: string): Promise<Socket> {
  for (let waited = 0; ; waited += 250) {
    try {
      const socket = connect(path);
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      return socket;
    } catch (error) {
      if (waited > 180_000) throw new Error(`nothing listened on ${path} within 180 s: ${String(error)}`);
      await sleep(250);
    }
  }
}

/** The launcher's end of the in-host profiler: one JSON line answers each command. */
class ProfilerLink {
  private constructor(private readonly socket: Socket) {}

  static async connect(path: string): Promise<ProfilerLink> {
    return new ProfilerLink(await connectWithRetry(path));
  }

  async ask<T>(command: 'start' | 'stop' | 'done'): Promise<T> {
    const answer = new Promise<string>((resolve) => {
      let text = '';
      const onData = (chunk: Buffer): void => {
        text += chunk.toString('utf8');
        if (!text.includes('\n')) return;
        this.socket.off('data', onData);
        resolve(text.trim());
      };
      this.socket.on('data', onData);
    });
    this.socket.write(`${command}\n`);
    return JSON.parse(await answer) as T;
  }

  close(): void {
    this.socket.destroy();
  }
}

/** page time (timeOrigin + now) minus launcher time, from the middle of a round trip. */
export async function pageClockOffset(page: Page): Promise<number> {
  let best = { span: Number.POSITIVE_INFINITY, offset: 0 };
  for (let round = 0; round < 5; round++) {
    const before = Date.now();
    const pageTime = await page.evaluate<number>('performance.timeOrigin + performance.now()');
    const after = Date.now();
    if (after - before < best.span) best = { span: after - before, offset: pageTime - (before + after) / 2 };
  }
  return best.offset;
}

/**
 * Arms an observer in the page for a row of the pane titled `pane` whose text contains `text` (any row if empty),
 * and, with `clickFrom`, records the mousedown on the view container's icon. Resolves both on the launcher's clock.
 */
/**
 * In-page script (plain JS: this project compiles without the DOM library). Arms a MutationObserver for a row of
 * the pane titled PANE containing TEXT (any row if empty); with CLICK, also notes the first mousedown.
 */
const WATCH_SCRIPT = `(() => {
  const state = {};
  window[KEY] = state;
  if (CLICK) document.addEventListener('mousedown', () => { state.clickedAt ??= performance.timeOrigin + performance.now(); }, { capture: true, once: true });
  const present = () => {
    for (const section of document.querySelectorAll('.pane')) {
      const title = section.querySelector('.pane-header h3.title');
      if (!title || title.textContent.trim().toLowerCase() !== PANE.toLowerCase()) continue;
      for (const row of section.querySelectorAll('.pane-body .monaco-list-row')) if (!TEXT || row.textContent.includes(TEXT)) return true;
    }
    return false;
  };
  state.done = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!present()) return;
      state.shownAt = performance.timeOrigin + performance.now();
      observer.disconnect();
      resolve();
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
})()`;

/** In-page predicate: no row of the pane titled PANE contains TEXT any more. */
const GONE_SCRIPT = `(() => {
  for (const section of document.querySelectorAll('.pane')) {
    const title = section.querySelector('.pane-header h3.title');
    if (!title || title.textContent.trim().toLowerCase() !== PANE.toLowerCase()) continue;
    for (const row of section.querySelectorAll('.pane-body .monaco-list-row')) if (row.textContent.includes(TEXT)) return false;
  }
  return true;
})()`;

/**
 * Waits until the pane no longer shows the row. With thousands of rows a removal's refresh takes longer than the pause
 * between changes, and the next change's refresh would queue behind it: the floor removes nothing, so that wait
 * would be Berth's alone.
 */
async function waitForRowGone(page: Page, pane: string, text: string): Promise<boolean> {
  const expression = withValues(GONE_SCRIPT, { KEY: '', PANE: pane, TEXT: text, CLICK: false });
  return page.waitForFunction(expression, undefined, { timeout: 30_000, polling: 50 }).then(
    () => true,
    () => false,
  );
}

const RESULT_SCRIPT = `(async () => {
  const state = window[KEY];
  await Promise.race([state && state.done, new Promise((resolve) => setTimeout(resolve, 90000))]);
  return { clickedAt: state && state.clickedAt, shownAt: state && state.shownAt };
})()`;

function withValues(script: string, values: Record<string, unknown>): string {
  return script.replace(/\b(KEY|PANE|TEXT|CLICK)\b/g, (name) => JSON.stringify(values[name]));
}

/** Arms the page's row observer now; the returned function resolves its times on the launcher's clock. */
async function armRowWatch(page: Page, pane: string, text: string, clickFrom: boolean): Promise<() => Promise<{ clickedAt: number | undefined; shownAt: number }>> {
  const values = { KEY: `berthWatch${Math.random().toString(36).slice(2)}`, PANE: pane, TEXT: text, CLICK: clickFrom };
  await page.evaluate(withValues(WATCH_SCRIPT, values));
  return async () => {
    const times = await page.evaluate<{ clickedAt?: number; shownAt?: number }>(withValues(RESULT_SCRIPT, values));
    if (times.shownAt === undefined) throw new Error(`no row ${JSON.stringify(text)} in ${pane} within 90 s`);
    const offset = await pageClockOffset(page);
    return { clickedAt: times.clickedAt === undefined ? undefined : times.clickedAt - offset, shownAt: times.shownAt - offset };
  };
}

async function openView(page: Page, container: string, pane: string): Promise<number> {
  const entry = page.locator(`.activitybar a[aria-label^="${container}"]`).first();
  try {
    await entry.waitFor({ state: 'visible', timeout: 90_000 });
  } catch (error) {
    await page.screenshot({ path: join(TEST_OUTPUT, `bench-no-${container.toLowerCase()}-entry.png`) }).catch(() => undefined);
    throw error;
  }
  // Let the workbench settle after start-up (extensions scanned, the explorer drawn) before the click is timed.
  await sleep(3000);
  const watch = await armRowWatch(page, pane, '', true);
  await entry.click();
  const { clickedAt, shownAt } = await watch();
  if (clickedAt === undefined) throw new Error('the click was not seen');
  return shownAt - clickedAt;
}

/** The icon of the Explorer: shows another view container, which hides Berth's. */
async function showExplorer(page: Page): Promise<void> {
  await page.locator('.activitybar a[aria-label^="Explorer"]').first().click();
}

export interface UiLaunchOptions {
  readonly extensionDir: string;
  /** The in-host profiler's bundle (buildProfileHost), for the idle windows. */
  readonly profileHost?: string | undefined;
  readonly settings: Record<string, unknown>;
  readonly env?: Record<string, string>;
  readonly log: (line: string) => void;
  /** Files put in the fresh user-data dir before start (relative path → content): a saved listing. */
  readonly userDataFiles?: Readonly<Record<string, string>> | undefined;
  /** Receives the saved listings the launch left (relative path → content), read just before it closes. */
  readonly keepSavedListings?: ((files: Record<string, string>) => void) | undefined;
}

interface Idler {
  /** CPU ms per minute over a window (by thread too), and a profile of the 20 s just after it. */
  window(windowMs: number): Promise<{ cpuMsPerMinute: number; profile: ProfileSummary | undefined; threads: Record<string, number> }>;
  startProfile(): Promise<() => Promise<ProfileSummary | undefined>>;
}

/** A workbench with the in-host profiler loaded beside the extension (when `profileHost` is given). */
async function withWorkbench<T>(options: UiLaunchOptions, body: (workbench: Workbench, idler: Idler) => Promise<T>): Promise<T> {
  const socketPath = join(tmpdir(), `berth-bench-profile-${process.pid}.sock`);
  rmSync(socketPath, { force: true });
  // The workbench's console and code-server's log, kept for a post-mortem (a change whose row never showed).
  const launch = `${Date.now()}`;
  mkdirSync(join(TEST_OUTPUT, 'bench-ui'), { recursive: true });
  const workbench = await launchWorkbench({
    extensionDevelopmentPath: options.extensionDir,
    extensionTestsPath: options.profileHost,
    // code-server has a tunnel provider, so `remote.autoForwardPorts: false` alone leaves its port finder on: every
    // few seconds the extension host runs `ps -F -A -l` and `ls -l /proc/*/fd/*` through a shell, about 1 s of its CPU
    // a minute with the test engines' processes around, more than the idle budgets. Asking for ports found in output
    // only stops that scan. Every subject (baseline, floor, Berth) gets it.
    settings: { 'remote.autoForwardPortsSource': 'output', ...options.settings },
    env: { ...options.env, BERTH_PROFILE_SOCKET: socketPath },
    logFile: join(TEST_OUTPUT, 'bench-ui', `code-server-${launch}.log`),
    userDataFiles: options.userDataFiles,
    onLog: (level, text) => appendFileSync(join(TEST_OUTPUT, 'bench-ui', `workbench-${launch}.log`), `[${level}] ${text}\n`),
  });
  let link: ProfilerLink | undefined;
  const idler: Idler = {
    startProfile: async () => {
      await waitForExtensionHost(workbench.server.pid);
      link ??= await ProfilerLink.connect(socketPath);
      await link.ask('start');
      return async () => link?.ask<ProfileSummary>('stop');
    },
    window: async (windowMs) => {
      const pid = await waitForExtensionHost(workbench.server.pid);
      // On an overloaded machine the profiler may not come up; the CPU figure does not need it.
      if (options.profileHost && !link) link = await ProfilerLink.connect(socketPath).catch((error: unknown) => {
        options.log(`no profile for this window: ${String(error)}`);
        return undefined;
      });
      // The CPU window runs without the profiler: its sampling thread (v8:ProfEvntProc) alone took 1.2-1.4 s of CPU
      // a minute, more than everything else in an idle extension host, and varied by more than the goals.
      const threadsBefore = threadCpuNs(pid);
      await sleep(windowMs);
      const threads = threadCpuDelta(pid, threadsBefore, threadCpuNs(pid));
      const perMinute = 60_000 / windowMs;
      const cpuMs = Object.values(threads).reduce((sum, ms) => sum + ms, 0);
      options.log(`window: ${(cpuMs * perMinute).toFixed(0)} ms CPU per minute; by thread: ${Object.entries(threads).sort((a, b) => b[1] - a[1]).map(([name, ms]) => `${name} ${(ms * perMinute).toFixed(0)}`).join(', ')}`);
      // Where the time goes, from a shorter window of its own just after, with the profiler on.
      let profile: ProfileSummary | undefined;
      if (link) {
        const profileMs = Math.min(windowMs, PROFILE_WINDOW_MS);
        await link.ask('start');
        await sleep(profileMs);
        profile = await link.ask<ProfileSummary>('stop');
        const scale = 60_000 / profileMs;
        profile = {
          inclusiveMs: profile.inclusiveMs * scale,
          selfByScript: Object.fromEntries(Object.entries(profile.selfByScript).map(([script, ms]) => [script, ms * scale])),
          topInclusive: profile.topInclusive.map((entry) => ({ frame: entry.frame, ms: entry.ms * scale })),
          ...(profile.topAllocations ? { topAllocations: profile.topAllocations.map((entry) => ({ frame: entry.frame, kb: entry.kb * scale })) } : {}),
          ...(profile.berthAllocatedKb !== undefined ? { berthAllocatedKb: profile.berthAllocatedKb * scale } : {}),
        };
      }
      return { cpuMsPerMinute: cpuMs * perMinute, profile, threads: Object.fromEntries(Object.entries(threads).map(([name, ms]) => [name, ms * perMinute])) };
    },
  };
  try {
    return await body(workbench, idler);
  } finally {
    await link?.ask('done').catch(() => undefined);
    link?.close();
    if (options.keepSavedListings) options.keepSavedListings(savedListingsOf(workbench.server.userDataDir));
    // The extension host's own logs (a refresh VS Code refused, an unresponsive host) and Berth's output channel.
    try {
      cpSync(join(workbench.server.userDataDir, 'logs'), join(TEST_OUTPUT, 'bench-ui', `logs-${launch}`), { recursive: true });
    } catch {
      // No logs folder yet: nothing to keep.
    }
    await workbench.close();
    rmSync(socketPath, { force: true });
  }
}

/** An extension host with no extension of ours: the baseline every idle figure is compared with. */
export async function baselineIdle(options: UiLaunchOptions, settleMs: number, windowMs: number): Promise<IdleCpu> {
  return withWorkbench(options, async (workbench, idler) => {
    await waitForExtensionHost(workbench.server.pid);
    await sleep(settleMs);
    return { case: 'extension host, no extension', ...(await idler.window(windowMs)), windowMs, engineRequests: undefined };
  });
}

export interface BerthRun {
  readonly open: number;
  /** From the first row to the engine's own listing shown, when the view opened on a saved list. */
  readonly engineListingAfterOpen: number | undefined;
  readonly changes: number[];
  /** What `afterChanges` resolved (the filter's keystrokes), ms. */
  readonly keystrokes: number[];
  /** Changes whose row never showed (within 90 s). */
  readonly missing: string[];
  readonly idle: IdleCpu[];
}

/**
 * One Berth launch: open the Containers view (timed), `changes` engine changes (timed), then optionally the idle
 * windows: visible, then hidden (the Explorer shown instead).
 */
export async function berthLaunch(
  options: UiLaunchOptions & { readonly client: EngineClient; readonly image: string; readonly requests: () => number; readonly changes: number; readonly idle?: { settleMs: number; windowMs: number; beforeIdle: () => Promise<void> }; readonly afterChanges?: ((page: Page) => Promise<number[]>) | undefined },
): Promise<BerthRun> {
  return withWorkbench(options, async ({ page, server }, idler) => {
    const profiling = process.env.BERTH_BENCH_PROFILE_OPEN === '1' ? await idler.startProfile() : undefined;
    const open = await openView(page, 'Berth', 'Containers');
    if (profiling) options.log(`OPEN PROFILE ${JSON.stringify(await profiling())}`);
    // Changes are timed against the engine's own listing, never against a saved list still showing.
    const engineListingAfterOpen = await engineListingShown(page);
    const sequence = ++launchSequence;
    const changes: number[] = [];
    const missing: string[] = [];
    for (let round = 0; round < options.changes; round++) {
      // `000-…` sorts first, so the new row is drawn inside the viewport of the virtual list.
      // Named per launch too: a saved list from an earlier launch may hold an earlier launch's row.
      const name = `000-bench-change-${process.pid}-${sequence}-${round}`;
      const watch = await armRowWatch(page, 'Containers', name, false);
      const since = Math.floor(Date.now() / 1000) - 1;
      const { Id } = await options.client.containers.create(containerSpec(options.image, ['true'], { Labels: { 'berth.bench': '1' } }), { name });
      // `since` replays the create event, whenever the subscription gets there.
      const events = options.client.system.events({ since, filters: { type: ['container'], event: ['create'], container: [Id] }, signal: AbortSignal.timeout(60_000) });
      const event = (await events.next()).value;
      await events.return(undefined);
      const changedAt = event?.timeNano !== undefined ? event.timeNano / 1e6 : Number.NaN;
      try {
        const { shownAt } = await watch();
        changes.push(shownAt - changedAt);
      } catch (error) {
        // Counted and shown in the results, with a picture of what the view showed instead.
        missing.push(`${name}: ${(error as Error).message}`);
        await page.screenshot({ path: join(TEST_OUTPUT, `bench-missing-${name}.png`) }).catch(() => undefined);
      }
      await options.client.containers.remove(Id, { force: true });
      if (!(await waitForRowGone(page, 'Containers', name))) options.log(`${name}: the removed row still showed after 30 s`);
      await sleep(300);
    }
    // BERTH_BENCH_PROFILE_KEYSTROKES=1: how much of the keystrokes' time the extension host spent in Berth's code.
    const profilingKeystrokes = options.afterChanges && process.env.BERTH_BENCH_PROFILE_KEYSTROKES === '1' ? await idler.startProfile() : undefined;
    const keystrokes = options.afterChanges ? await options.afterChanges(page) : [];
    if (profilingKeystrokes) options.log(`KEYSTROKES PROFILE (${keystrokes.length} keystrokes) ${JSON.stringify(await profilingKeystrokes())}`);
    const idle: IdleCpu[] = [];
    if (options.idle) {
      await options.idle.beforeIdle();
      // BERTH_BENCH_UI_HIDDEN_FIRST=1 measures the hidden window first: whether a window's garbage collection belongs to
      // what came just before it (the open and the changes) rather than to the views' state.
      const order = process.env.BERTH_BENCH_UI_HIDDEN_FIRST === '1' ? [false, true] : [true, false];
      const { settleMs, windowMs } = options.idle;
      const measure = async (name: string): Promise<void> => {
        options.log(`idle CPU, ${name}: ${settleMs / 1000} s to settle, ${windowMs / 1000} s measured`);
        await sleep(settleMs);
        const requestsBefore = options.requests();
        const measured = await idler.window(windowMs);
        idle.push({ case: name, ...measured, windowMs, engineRequests: options.requests() - requestsBefore });
      };
      for (const visible of order) {
        if (!visible) await showExplorer(page);
        else if (order[0] === false) await openView(page, 'Berth', 'Containers');
        await measure(`Berth, views ${visible ? 'visible' : 'hidden'}`);
      }
      // The issue's own case: visible with nothing changing, no row under a minute old (the aging rows are past their
      // second boundaries by now: minute boundaries only, as in a view left open on a quiet engine).
      if (order[1] === false) {
        await openView(page, 'Berth', 'Containers');
        await measure(STEADY_VISIBLE_CASE);
      }
    }
    // The next launch opens on what this one saved: wait for the save (it follows the last change by 10 s).
    if (options.keepSavedListings) {
      const deadline = Date.now() + 30_000;
      while (Object.keys(savedListingsOf(server.userDataDir)).length === 0 && Date.now() < deadline) await sleep(250);
    }
    return { open, engineListingAfterOpen, changes, keystrokes, idle, missing };
  });
}

/** One floor launch: open its view (timed), then `changes` root refreshes adding one item (timed). */
export async function floorLaunch(
  options: UiLaunchOptions & { readonly socket: string; readonly changes: number; readonly idle?: { settleMs: number; windowMs: number; agingRows: number }; readonly afterChanges?: ((page: Page) => Promise<number[]>) | undefined },
): Promise<{ open: number; changes: number[]; keystrokes: number[]; idle: IdleCpu | undefined }> {
  return withWorkbench(options, async ({ page }, idler) => {
    const open = await openView(page, FLOOR_CONTAINER_TITLE, FLOOR_VIEW_TITLE);
    const socket = await connectWithRetry(options.socket);
    const changes: number[] = [];
    try {
      for (let round = 0; round < options.changes; round++) {
        const name = `000-floor-change-${round}`;
        const watch = await armRowWatch(page, FLOOR_VIEW_TITLE, name, false);
        const answered = new Promise((resolve) => socket.once('data', resolve));
        const askedAt = Date.now();
        socket.write(`add ${name}\n`);
        await answered;
        const { shownAt } = await watch();
        changes.push(shownAt - askedAt);
        await sleep(300);
      }
      const keystrokes = options.afterChanges ? await options.afterChanges(page) : [];
      // VS Code's own cost of a visible tree of prebuilt items, as many of them aging as Berth's window has (the same
      // moment: Berth's exit just before its settling time): what Berth's visible idle compares with.
      let idle: IdleCpu | undefined;
      if (options.idle) {
        const { agingRows, settleMs, windowMs } = options.idle;
        if (agingRows > 0) {
          const answered = new Promise((resolve) => socket.once('data', resolve));
          socket.write(`age ${agingRows}\n`);
          await answered;
        }
        options.log(`idle CPU, the floor's view visible: ${settleMs / 1000} s to settle, ${windowMs / 1000} s measured`);
        await sleep(settleMs);
        const items = Number(options.env?.BERTH_FLOOR_ITEMS ?? 1000).toLocaleString('en');
        idle = { case: `floor extension (${items} prebuilt tree items, ${agingRows} aging), view visible`, ...(await idler.window(windowMs)), windowMs, engineRequests: undefined };
      }
      return { open, changes, keystrokes, idle };
    } finally {
      socket.destroy();
    }
  });
}

export function latencyRow(
  subject: UiLatency['subject'],
  containers: number,
  opens: number[],
  changes: number[],
  extra: { firstWindowOpens?: number[]; engineListingAfterOpen?: number[]; keystrokes?: number[] } = {},
): UiLatency {
  const maybe = (values: number[] | undefined): Summary | undefined => (values && values.length > 0 ? summarize(values) : undefined);
  return { subject, containers, open: summarize(opens), change: summarize(changes), keystroke: maybe(extra.keystrokes), firstWindowOpen: maybe(extra.firstWindowOpens), engineListingAfterOpen: maybe(extra.engineListingAfterOpen) };
}
