/**
 * Runs INSIDE the real extension host of code-server (loaded as `extensionTestsPath` by bench/extension-vscode.ts,
 * same contract as a test suite: run() settles when done). It measures what only the extension host can see and
 * prints one `BERTH_BENCH_RESULT <json>` line per phase; the launcher reads them from the host's console.
 *
 * Phases (BERTH_BENCH_PLAN): activation (and, against an engine that never answers, activation alone), idle
 * timers, a 1,000,000-line logs document, and the same document followed (extension-host-follow.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
// With extension-host-follow.ts, the bench code that runs inside the extension host (built by extension-vscode.ts,
// never run by plain Node).
import * as vscode from 'vscode';
import { EngineClient } from '../src/engine';
import { followedLogs } from './extension-host-follow';
import { measureIdle, TimerProbe, type TimerActivity } from './extension-idle-probe';
import { BENCH_RESULT_MARKER, BENCH_STEP_MARKER, type ActivationSample, type HostPlan, type IdleSample, type LogsSample } from './extension-protocol';
import { summarize } from './stats';
import { containerSpec } from '../test/support/containerSpec';

const BENCH_LABELS = { 'berth.bench': '1' };

const EXTENSION_ID = 'berth.berth';
const RUNTIME_EDITOR_READ_MS = 4000;

interface BerthApi {
  whenModelReady(): Promise<void>;
  snapshot(): { state: string; containers: Array<{ id: string; state: string }> };
}

function report(result: unknown): void {
  console.log(`${BENCH_RESULT_MARKER} ${JSON.stringify(result)}`);
}

function step(name: string): void {
  console.log(`${BENCH_STEP_MARKER} ${name}`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function berth(): vscode.Extension<BerthApi> {
  const extension = vscode.extensions.getExtension<BerthApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  return extension;
}

/** Polls the Berth log file until every pattern matched; returns the first capture group of each. */
async function logFigures(patterns: readonly RegExp[], timeoutMs: number): Promise<Array<number | undefined>> {
  const file = await vscode.commands.executeCommand<string>('berth.internal.logFile');
  const end = Date.now() + timeoutMs;
  let figures: Array<number | undefined> = [];
  do {
    const text = await readFile(file, 'utf8').catch(() => '');
    figures = patterns.map((pattern) => {
      const match = pattern.exec(text);
      return match?.[1] === undefined ? undefined : Number(match[1]);
    });
    if (figures.every((figure) => figure !== undefined)) return figures;
    await sleep(100);
  } while (Date.now() < end);
  return figures;
}

const ACTIVATED = /Activated in ([\d.]+) ms/;
const VIEWS_READY = /Views ready ([\d.]+) ms after activation began/;

async function activation(blackhole: boolean): Promise<void> {
  const extension = berth();
  const wasActive = extension.isActive;
  const started = performance.now();
  const api = await extension.activate();
  const activateCallMs = performance.now() - started;
  let readyCallMs: number | undefined;
  let readyWithin: boolean;
  if (blackhole) {
    // The engine accepts the connection and never answers: views must not be ready, activation must be done.
    const ready = api.whenModelReady().then(() => true, () => false);
    readyWithin = await Promise.race([ready, sleep(3000).then(() => false)]);
  } else {
    await api.whenModelReady();
    readyCallMs = performance.now() - started;
    readyWithin = true;
  }
  const [activatedMs, viewsReadyMs] = await logFigures(blackhole ? [ACTIVATED] : [ACTIVATED, VIEWS_READY], 10_000);
  // VS Code's own view of the activation: the Running Extensions editor, read by the launcher from the page.
  await vscode.commands.executeCommand('workbench.action.showRuntimeExtensions').then(undefined, () => undefined);
  const sample: ActivationSample = { kind: blackhole ? 'blackhole' : 'activation', wasActive, activateCallMs, readyCallMs, readyWithin, activatedMs, viewsReadyMs, language: vscode.env.language };
  report(sample);
  step('activation-done');
  // The launcher reads the Running Extensions editor from the page meanwhile; it empties once this host ends.
  await sleep(RUNTIME_EDITOR_READ_MS);
}

async function idle(plan: HostPlan): Promise<void> {
  const extension = berth();
  const bundlePath = join(extension.extensionPath, 'dist', 'extension.js');
  const client = EngineClient.fromEnvironment({ host: plan.engineHost, env: {} });
  const api = extension.exports;
  // The aftermath of one change: every timer the extension runs from an engine event until it is quiet again.
  const probe = new TimerProbe(bundlePath);
  let aftermath: TimerActivity;
  let id = '';
  try {
    probe.start();
    ({ Id: id } = await client.containers.create(containerSpec(plan.image, ['true'], { Labels: BENCH_LABELS })));
    while (!api.snapshot().containers.some((container) => container.id === id)) await sleep(20);
    await sleep(plan.aftermathMs);
  } finally {
    aftermath = probe.stop();
  }
  // Its removal is a change too: remove it before the quiet period the idle window waits for.
  await client.containers.remove(id, { force: true });
  await client.close();
  const result = await measureIdle({ bundlePath, socketPath: plan.engineHost.replace(/^unix:\/\//, ''), windowMs: 3000, quietBeforeMs: plan.quietBeforeMs, deadlineMs: plan.quietBeforeMs + 30_000 });
  const sample: IdleSample = {
    kind: 'idle',
    aftermathMs: plan.aftermathMs,
    aftermath: { scheduled: aftermath.scheduled, fired: aftermath.fired, sources: aftermath.sources },
    quiet: result.quiet,
    windowMs: 3000,
    quietBeforeMs: plan.quietBeforeMs,
    window: { scheduled: result.activity.scheduled, fired: result.activity.fired, sources: result.activity.sources },
  };
  report(sample);
}

/** VmRSS and VmHWM of this process (the extension host), bytes. */
async function memory(): Promise<{ rss: number; peak: number }> {
  const status = await readFile('/proc/self/status', 'utf8');
  const kib = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/** Round trips to the workbench (setContext runs in the renderer) and this host's event-loop delay, until stopped. */
function responsiveness(): { stop(): Promise<{ roundTrips: number[]; loopDelays: number[] }> } {
  const roundTrips: number[] = [];
  const loopDelays: number[] = [];
  let running = true;
  const loop = (async () => {
    for (let index = 0; running; index++) {
      const started = performance.now();
      await vscode.commands.executeCommand('setContext', 'berthBench.ping', index);
      roundTrips.push(performance.now() - started);
      const slept = performance.now();
      await sleep(50);
      loopDelays.push(performance.now() - slept - 50);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { roundTrips, loopDelays };
    },
  };
}

async function logs(plan: HostPlan): Promise<void> {
  const client = EngineClient.fromEnvironment({ host: plan.engineHost, env: {} });
  const { Id: id } = await client.containers.create(containerSpec(plan.image, ['seq', '1', String(plan.logLines)], { Labels: BENCH_LABELS }), {
    name: `bench-million-lines-${process.pid}`,
  });
  try {
    const { result } = await client.containers.wait(id, { condition: 'next-exit' });
    await client.containers.start(id);
    await result;
    // In a launch of its own, nothing has activated Berth yet.
    const api = await berth().activate();
    await api.whenModelReady();
    while (!api.snapshot().containers.some((container) => container.id === id && container.state === 'exited')) await sleep(20);
    // The floor: the engine reading the whole log, decoded by Berth's client alone, before the document asks.
    const readStarted = performance.now();
    let logBytes = 0;
    for await (const chunk of client.containers.logs(id, { stdout: true, stderr: true, tail: 'all' })) logBytes += chunk.data.length;
    const engineReadMs = performance.now() - readStarted;
    await sleep(500);
    // Peak RSS from here on (writing 5 to clear_refs resets VmHWM).
    await writeFile('/proc/self/clear_refs', '5').catch(() => undefined);
    const before = await memory();
    const heapBefore = process.memoryUsage().heapUsed;
    const probe = responsiveness();
    step('logs-start');
    const started = performance.now();
    const opened = await vscode.commands.executeCommand<{ uri: string } | undefined>('berth.openLogsInEditor', id);
    const openedMs = performance.now() - started;
    if (!opened) throw new Error('berth.openLogsInEditor returned nothing');
    let document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened.uri);
    const wanted = Math.min(plan.logLines, plan.maxLines) + 1;
    while (!document || document.lineCount < wanted) {
      if (performance.now() - started > 120_000) throw new Error(`the logs document has ${document?.lineCount ?? 0} lines after 120 s`);
      await sleep(5);
      document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened.uri);
    }
    const contentMs = performance.now() - started;
    const visible = vscode.window.visibleTextEditors.some((editor) => editor.document.uri.toString() === opened.uri);
    // Let the cap notification show, and the host settle, before the figures after loading.
    await sleep(1500);
    step('logs-loaded');
    const { roundTrips, loopDelays } = await probe.stop();
    const after = await memory();
    const heapAfter = process.memoryUsage().heapUsed;
    const lastLine = document.lineAt(document.lineCount - 1).text || document.lineAt(document.lineCount - 2).text;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await sleep(2000);
    const closed = await memory();
    const sample: LogsSample = {
      kind: 'logs',
      lines: plan.logLines,
      logBytes,
      engineReadMs,
      maxLines: plan.maxLines,
      openedMs,
      contentMs,
      visible,
      lineCount: document.lineCount,
      firstLine: document.lineAt(0).text,
      lastLine,
      rssBefore: before.rss,
      rssAfter: after.rss,
      rssPeak: after.peak,
      rssAfterClose: closed.rss,
      heapBefore,
      heapAfter,
      roundTrip: summarize(roundTrips),
      roundTripMax: Math.max(...roundTrips),
      loopDelay: summarize(loopDelays),
      loopDelayMax: Math.max(...loopDelays),
    };
    report(sample);
  } finally {
    await client.containers.remove(id, { force: true });
    await client.close();
  }
}

export async function run(): Promise<void> {
  const plan = JSON.parse(process.env.BERTH_BENCH_PLAN ?? '{}') as HostPlan;
  try {
    for (const phase of plan.phases) {
      if (phase === 'activation' || phase === 'blackhole') await activation(phase === 'blackhole');
      else if (phase === 'idle') await idle(plan);
      else if (phase === 'follow') {
        report(await followedLogs(plan, BENCH_LABELS, async () => {
          const api = await berth().activate();
          await api.whenModelReady();
        }));
      } else await logs(plan);
    }
  } catch (error) {
    report({ kind: 'error', message: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) });
    throw error;
  }
}
