/**
 * The followed logs editor at 1,000,000 lines, inside the real extension host (a phase of extension-host.ts).
 *
 * A container writes 1,000,000 lines, waits, then writes a marked line every MARK_INTERVAL_S. The bench opens its logs
 * in the editor (following, every line asked for), waits until the document holds its capped window, then, for each
 * mark that the engine sends from then on, times three instants: the engine's stamp on the line, the line's arrival
 * on a follow stream of the bench's own (Berth's engine client alone: the floor), and the change event that puts the
 * line's text into the document (the text the editor shows). The event-loop delay of the host is sampled all along
 * by perf_hooks (10 ms resolution), apart for the loading and for the following.
 */
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
// Runs inside the extension host, bundled into extension-host.ts (never run by plain Node).
import * as vscode from 'vscode';
import { EngineClient } from '../src/engine';
import { containerSpec } from '../test/support/containerSpec';
import type { FollowSample, HostPlan, LoopDelay } from './extension-protocol';
import { percentile, summarize } from './stats';

const MARKS = 150;
const MARK_INTERVAL_S = 0.2;
/** Time for the editor to load the backlog before the marks begin; marks that come before it loaded are left out. */
const PAUSE_BEFORE_MARKS_S = 60;
const LOAD_LIMIT_MS = 240_000;
const MARK = /(?:^|\n)(?:(\S+) )?berth-mark (\d+)(?=\n)/g;
const LINE_MARK = /berth-mark (\d+)$/;
const TAIL_LINES_READ = 8;

function loopDelay(histogram: IntervalHistogram): LoopDelay {
  const ms = (ns: number): number => ns / 1e6;
  return { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), samples: histogram.count };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function followedLogs(plan: HostPlan, labels: Record<string, string>, activate: () => Promise<void>): Promise<FollowSample> {
  const client = EngineClient.fromEnvironment({ host: plan.engineHost, env: {} });
  const script = `seq 1 ${plan.logLines}; sleep ${PAUSE_BEFORE_MARKS_S}; i=0; while [ $i -lt ${MARKS} ]; do i=$((i+1)); echo "berth-mark $i"; sleep ${MARK_INTERVAL_S}; done; sleep 600`;
  const { Id: id } = await client.containers.create(containerSpec(plan.image, ['sh', '-c', script], { Labels: labels }), { name: `bench-followed-${process.pid}` });
  const stop = new AbortController();
  const stamped = new Map<number, number>();
  const floor = new Map<number, number>();
  const shown = new Map<number, number>();
  let loadedAt = Number.POSITIVE_INFINITY;
  let raw: Promise<void> | undefined;
  let changes = 0;
  try {
    await client.containers.start(id);
    await activate();
    // The bench's own follow stream: only lines from now on, with the engine's stamps.
    raw = (async () => {
      let rest = '';
      for await (const chunk of client.containers.logs(id, { follow: true, tail: 0, timestamps: true, signal: stop.signal })) {
        const now = Date.now();
        const text = rest + chunk.data.toString('utf8');
        const cut = text.lastIndexOf('\n') + 1;
        rest = text.slice(cut);
        for (const match of `\n${text.slice(0, cut)}`.matchAll(MARK)) {
          const mark = Number(match[2]);
          floor.set(mark, now);
          stamped.set(mark, Date.parse(`${(match[1] ?? '').slice(0, 23)}Z`));
        }
      }
    })().catch(() => undefined);
    const loading = monitorEventLoopDelay({ resolution: 10 });
    const following = monitorEventLoopDelay({ resolution: 10 });
    loading.enable();
    const started = performance.now();
    const opened = await vscode.commands.executeCommand<{ uri: string } | undefined>('berth.openLogsInEditor', id);
    if (!opened) throw new Error('berth.openLogsInEditor returned nothing');
    // VS Code hands a content provider's new text over as minimal edits, which can cut a line anywhere: the
    // document's last lines are read instead (a mark comes every MARK_INTERVAL_S, so a few lines hold every new one).
    const watcher = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document.uri.toString() !== opened.uri) return;
      changes++;
      const now = Date.now();
      const last = event.document.lineCount - 1;
      for (let line = Math.max(0, last - TAIL_LINES_READ); line <= last; line++) {
        const mark = LINE_MARK.exec(event.document.lineAt(line).text);
        if (mark && !shown.has(Number(mark[1]))) shown.set(Number(mark[1]), now);
      }
    });
    try {
      // Loaded once the backlog's last line is in: the capped window is full long before that.
      const lastBacklogLine = String(plan.logLines);
      for (;;) {
        const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened.uri);
        if (document && document.lineCount >= plan.maxLines && endsWithLine(document, lastBacklogLine)) break;
        if (performance.now() - started > LOAD_LIMIT_MS) throw new Error(`the logs document has ${document?.lineCount ?? 0} lines after ${LOAD_LIMIT_MS / 1000} s, without line ${lastBacklogLine}`);
        await sleep(50);
      }
      const loadMs = performance.now() - started;
      loadedAt = Date.now();
      loading.disable();
      following.enable();
      const deadline = Date.now() + (PAUSE_BEFORE_MARKS_S + MARKS * MARK_INTERVAL_S) * 1000 + 60_000;
      while (!shown.has(MARKS) && Date.now() < deadline) await sleep(100);
      following.disable();
      // Only marks the engine stamped after the document had loaded: earlier ones measure the loading, not following.
      const measured = [...shown.keys()].filter((mark) => (stamped.get(mark) ?? 0) > loadedAt);
      const fromStamp = measured.map((mark) => (shown.get(mark) as number) - (stamped.get(mark) as number));
      const fromFloor = measured.filter((mark) => floor.has(mark)).map((mark) => (shown.get(mark) as number) - (floor.get(mark) as number));
      const floorFromStamp = measured.filter((mark) => floor.has(mark)).map((mark) => (floor.get(mark) as number) - (stamped.get(mark) as number));
      const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened.uri);
      const tail = document ? [1, 2, 3].map((back) => document.lineAt(Math.max(0, document.lineCount - back)).text) : [];
      return {
        kind: 'follow',
        lines: plan.logLines,
        maxLines: plan.maxLines,
        marks: MARKS,
        markIntervalMs: MARK_INTERVAL_S * 1000,
        measured: measured.length,
        loadMs,
        lineCount: document?.lineCount ?? 0,
        stampToText: summarize(fromStamp),
        stampToTextP95: percentileOf(fromStamp, 0.95),
        floorToText: summarize(fromFloor),
        floorToTextP95: percentileOf(fromFloor, 0.95),
        stampToFloor: summarize(floorFromStamp),
        loadingLoopDelay: loopDelay(loading),
        followingLoopDelay: loopDelay(following),
        shownMarks: shown.size,
        floorMarks: floor.size,
        documentChanges: changes,
        lastLines: tail,
      };
    } finally {
      watcher.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  } finally {
    stop.abort();
    await raw;
    await client.containers.remove(id, { force: true });
    await client.close();
  }
}

function endsWithLine(document: vscode.TextDocument, text: string): boolean {
  const last = document.lineCount - 1;
  for (let line = Math.max(0, last - TAIL_LINES_READ); line <= last; line++) if (document.lineAt(line).text.endsWith(text)) return true;
  return false;
}

function percentileOf(values: readonly number[], fraction: number): number {
  return percentile([...values].sort((a, b) => a - b), fraction);
}
