/**
 * The Events view: the current engine's events, newest first, followed live while the view is visible. Each engine
 * (`berth.engines`) keeps its own bounded history (`berth.events.maxEntries`), so switching back shows what was seen
 * and the resume fills what happened meanwhile. The view says when the connection drops and when the gap was filled.
 */
import * as vscode from 'vscode';
import { Disposable, DisposableStore } from '../common/lifecycle';
import { sinceBefore } from '../model/reconnect';
import { EventFollower, EventHistory, type FollowState, type HistoryEntry } from '../model/eventHistory';
import type { EngineSession } from '../model/session';
import type { RowSummary } from '../views/engineTreeView';
import { rowSummariesUnder, sessionTreeView, toTreeItem } from '../views/treeItems';
import { showViewHeader } from '../views/viewHeader';
import type { LogDeps, SessionsDeps, SettingsDeps } from '../workbench/deps';
import { filterDescription, matchesFilter, presentEvent } from './presentation';

export interface EventNode {
  readonly kind: 'event';
  readonly engine: string;
  readonly sequence: number;
}

/** What the first connection asks the engine for: what it still holds from the last quarter hour. */
const FIRST_WINDOW_MS = 15 * 60_000;
/** Redraws at most this often, however fast events come: a burst costs one refresh. */
const REDRAW_MS = 250;

class EngineEvents extends Disposable {
  readonly history: EventHistory;
  readonly follower: EventFollower;
  private controller: AbortController | undefined;
  /** Set once the connection dropped, until the next one is live (then the gap was filled). */
  private dropped = false;
  message: string | undefined;

  constructor(
    readonly session: EngineSession,
    maxEntries: number,
    onChange: () => void,
    log: vscode.LogOutputChannel,
  ) {
    super();
    this.history = new EventHistory(maxEntries);
    // The client is asked for on each connection: an engine with an invalid configuration throws from `client`.
    this.follower = new EventFollower({ events: (options) => session.client.system.events(options) }, this.history, {
      firstSince: () => sinceBefore(Date.now(), FIRST_WINDOW_MS),
      onChange,
    });
    this._register(this.follower.onDidChangeState((state) => this.stateChanged(state, onChange, log)));
    this._register({ dispose: () => this.stop() });
  }

  start(): void {
    if (this.controller) return;
    this.controller = new AbortController();
    void this.follower.run(this.controller.signal);
  }

  stop(): void {
    this.controller?.abort();
    this.controller = undefined;
  }

  private stateChanged(state: FollowState, onChange: () => void, log: vscode.LogOutputChannel): void {
    if (state.kind === 'disconnected') {
      this.dropped = true;
      this.message = vscode.l10n.t('Lost the connection to the engine ({0}). Reconnecting; events missed meanwhile will be filled in.', state.reason);
      log.warn(`Events view: ${state.reason}; reconnecting`);
    } else if (state.kind === 'live' && this.dropped) {
      this.dropped = false;
      this.message = vscode.l10n.t('Reconnected at {0}; the events missed while away were filled in.', new Date().toLocaleTimeString());
      log.info('Events view: reconnected, gap filled from the last event seen');
    }
    onChange();
  }
}

export class EventsView extends Disposable implements vscode.TreeDataProvider<EventNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<EventNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  readonly view: vscode.TreeView<EventNode>;
  private readonly perEngine = new Map<string, EngineEvents>();
  private current: EngineSession;
  private filterText = '';
  private redrawTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: SessionsDeps & SettingsDeps & LogDeps) {
    super();
    this.current = deps.session;
    const handlers = { bind: (session: EngineSession) => this.bind(session), visibilityChanged: () => this.followVisibility() };
    this.view = sessionTreeView('berth.events', this, deps, handlers, this._register(new DisposableStore()));
    this._register(deps.onDidChangeSettings((settings) => this.perEngine.forEach((events) => events.history.resize(settings.eventsMaxEntries))));
    this._register(deps.onDidChangeEngines(() => this.forgetRemovedEngines()));
    this._register({
      dispose: () => {
        clearTimeout(this.redrawTimer);
        this.perEngine.forEach((events) => events.dispose());
        this.perEngine.clear();
      },
    });
    this.followVisibility();
  }

  get filter(): string {
    return this.filterText;
  }

  setFilter(text: string): void {
    this.filterText = text.trim();
    this.redrawNow();
  }

  /** The current engine's entries the filter lets through, newest first. */
  shownEntries(): HistoryEntry[] {
    const events = this.perEngine.get(this.current.id);
    if (!events) return [];
    return events.history
      .entries()
      .filter((entry) => matchesFilter(entry.event, this.filterText))
      .reverse();
  }

  entry(node: EventNode): HistoryEntry | undefined {
    return this.perEngine.get(node.engine)?.history.entries().find((entry) => entry.sequence === node.sequence);
  }

  /** Events kept and received so far for the current engine (tests and the benchmark count them). */
  counts(): { kept: number; received: number; duplicates: number } {
    const history = this.perEngine.get(this.current.id)?.history;
    return { kept: history?.size ?? 0, received: history?.total ?? 0, duplicates: history?.duplicates ?? 0 };
  }

  getTreeItem(node: EventNode): vscode.TreeItem {
    const entry = this.entry(node);
    if (!entry) return new vscode.TreeItem(vscode.l10n.t('(no longer kept)'));
    const item = toTreeItem(`event:${node.engine}:${node.sequence}`, presentEvent(entry));
    item.command = { command: 'berth.events.reveal', title: vscode.l10n.t('Show Object'), arguments: [node] };
    return item;
  }

  getChildren(node?: EventNode): EventNode[] {
    if (node !== undefined) return [];
    const total = this.perEngine.get(this.current.id)?.history.size ?? 0;
    const shown = this.shownEntries();
    showViewHeader(this.view, { description: filterDescription(shown.length, total, this.filterText), message: this.perEngine.get(this.current.id)?.message });
    return shown.map((entry) => ({ kind: 'event', engine: this.current.id, sequence: entry.sequence }));
  }

  getParent(): undefined {
    return undefined;
  }

  /** The rows under a path of labels (`[]` = the roots), for tests. */
  async rowsAt(path: readonly string[]): Promise<RowSummary[]> {
    return rowSummariesUnder(this, path, 'The Events view');
  }

  private bind(session: EngineSession): void {
    if (this.current === session) return;
    this.current = session;
    this.followVisibility();
    this.redrawNow();
  }

  private engineEvents(session: EngineSession): EngineEvents {
    let events = this.perEngine.get(session.id);
    if (!events || events.session !== session) {
      events?.dispose();
      events = new EngineEvents(session, this.deps.settings.eventsMaxEntries, () => this.scheduleRedraw(), this.deps.log);
      this.perEngine.set(session.id, events);
    }
    return events;
  }

  /** Work only while visible, and only for the engine shown: the others keep their history and resume later. */
  private followVisibility(): void {
    for (const [id, events] of this.perEngine) if (id !== this.current.id || !this.view.visible) events.stop();
    if (this.view.visible) this.engineEvents(this.current).start();
  }

  private forgetRemovedEngines(): void {
    const ids = new Set(this.deps.engines.all.map((session) => session.id));
    for (const [id, events] of this.perEngine) {
      if (ids.has(id)) continue;
      events.dispose();
      this.perEngine.delete(id);
    }
  }

  private scheduleRedraw(): void {
    this.redrawTimer ??= setTimeout(() => this.redrawNow(), REDRAW_MS);
  }

  private redrawNow(): void {
    clearTimeout(this.redrawTimer);
    this.redrawTimer = undefined;
    this._onDidChangeTreeData.fire(undefined);
  }
}
