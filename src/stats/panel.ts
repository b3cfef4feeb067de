/**
 * The Container Stats panel: one webview per container or Compose project, with CPU, memory, network and block I/O
 * charts over the last 5 minutes (uPlot, bundled into dist/, drawn in the theme's colours) and the processes from
 * `top`. It streams only while visible: hidden, its streams close and its timers stop; shown again, it goes on from
 * the history it kept. The page may run only its own script (CSP with a nonce) and needs no network.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { Disposable } from '../common/lifecycle';
import { followStats, statsFigures, type StatsFigures } from '../engine';
import type { CoreDeps } from '../workbench/deps';
import type { ContainerRef } from '../workbench/targets';
import { FrameHistory, type ProcessTable } from './frames';
import { PanelStates, REMOVED } from './panelStates';

const TOP_INTERVAL_MS = 2_000;
const FRAME_INTERVAL_MS = 1_000;

export interface StatsPanelDeps extends CoreDeps {
  readonly extensionUri: vscode.Uri;
}

export class StatsPanel extends Disposable {
  readonly title: string;
  private readonly panel: vscode.WebviewPanel;
  private readonly history: FrameHistory;
  private readonly latest = new Map<string, StatsFigures>();
  private readonly states = new PanelStates((at) => new Date(at).toLocaleTimeString());
  /** Everything that runs only while the panel is visible. */
  private live: { readonly stop: AbortController; readonly timers: Array<ReturnType<typeof setInterval>> } | undefined;

  constructor(
    private readonly deps: StatsPanelDeps,
    private readonly refs: readonly ContainerRef[],
    title: string,
  ) {
    super();
    this.title = `Stats: ${title}`;
    this.history = new FrameHistory(refs.map((ref) => ref.name));
    const dist = vscode.Uri.joinPath(deps.extensionUri, 'dist');
    this.panel = vscode.window.createWebviewPanel('berth.containerStats', this.title, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [dist],
    });
    this.panel.webview.html = pageHtml(this.panel.webview, dist, this.title);
    this._register(this.panel.onDidDispose(() => this.dispose()));
    this._register(this.panel.onDidChangeViewState((event) => this.setLive(event.webviewPanel.visible)));
    this._register(
      this.panel.webview.onDidReceiveMessage((message: unknown) => {
        // The page asks for the history when it (re)loads: VS Code drops a hidden webview's page.
        if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'ready') {
          void this.panel.webview.postMessage({ type: 'init', ...this.history.snapshot() });
          this.postStates();
        }
      }),
    );
    // A container that stops or goes away keeps its charts: say so, from the model the views already follow.
    for (const session of new Set(refs.map((ref) => ref.session))) {
      this._register(session.model.onDidChange(() => this.observeStates()));
    }
    this.observeStates();
    this._register({ dispose: () => this.setLive(false) });
    this.setLive(this.panel.visible);
  }

  private observeStates(): void {
    const observed = this.refs
      .filter((ref) => ref.session.model.state === 'connected')
      .map((ref) => ({ id: ref.id, name: ref.name, state: ref.session.model.container(ref.id)?.state ?? REMOVED }));
    if (!this.states.update(observed, Date.now())) return;
    this.postStates();
    // Nothing more can come from containers that are all gone: no streams, no timers.
    if (this.states.allRemoved()) this.setLive(false);
  }

  private postStates(): void {
    void this.panel.webview.postMessage({ type: 'states', notes: this.states.notes(this.refs.map((ref) => ref.id)) });
  }

  private setLive(visible: boolean): void {
    if (visible && this.states.allRemoved()) return;
    if (visible === (this.live !== undefined)) return;
    if (!visible) {
      this.live?.stop.abort();
      for (const timer of this.live?.timers ?? []) clearInterval(timer);
      this.live = undefined;
      return;
    }
    const stop = new AbortController();
    for (const ref of this.refs) {
      const session = ref.session;
      followStats(session.client, ref.id, { signal: stop.signal, onSample: (sample) => this.latest.set(ref.id, statsFigures(sample)) }).then(
        (end) => {
          if (end === 'gone') this.latest.delete(ref.id);
        },
        (error: unknown) => this.deps.log.warn(`Stats of ${ref.name}: ${errorMessage(error)}`),
      );
    }
    const frame = (): void => {
      const added = this.history.add(Date.now(), this.refs.map((ref) => this.latest.get(ref.id)));
      void this.panel.webview.postMessage({ type: 'frame', frame: added });
    };
    const top = (): void => void this.postProcesses(stop.signal);
    this.live = { stop, timers: [setInterval(frame, FRAME_INTERVAL_MS), setInterval(top, TOP_INTERVAL_MS)] };
    top();
  }

  private async postProcesses(signal: AbortSignal): Promise<void> {
    const tables: ProcessTable[] = await Promise.all(
      this.refs.map(async (ref): Promise<ProcessTable> => {
        // A container without a process has no table: its note says why, and the engine is not asked.
        const note = this.states.note(ref.id);
        if (note !== undefined) return { name: ref.name, titles: [], processes: [], error: note };
        try {
          const top = await ref.session.client.containers.top(ref.id, { signal });
          return { name: ref.name, titles: top.Titles, processes: top.Processes ?? [] };
        } catch (error) {
          return { name: ref.name, titles: [], processes: [], error: errorMessage(error) };
        }
      }),
    );
    if (!signal.aborted) void this.panel.webview.postMessage({ type: 'top', tables });
  }
}

function pageHtml(webview: vscode.Webview, dist: vscode.Uri, title: string): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'stats-webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'stats-webview.css'));
  const csp = [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src ${webview.cspSource} 'nonce-${nonce}'`, `img-src ${webview.cspSource} data:`].join('; ');
  const escaped = title.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${escaped}</title>
</head>
<body>
<h1>${escaped}</h1>
<div id="states" class="note" hidden></div>
<div id="charts"></div>
<h2>Processes</h2>
<div id="processes">Reading processes…</div>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
