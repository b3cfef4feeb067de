/**
 * The "Changes" row under each container row (views/childRows.ts) and the tree of changed paths below it. A
 * container's changes are read when its row is expanded, shown as they arrive, and read again when the container is
 * touched (an engine event names it) at most once a second, and only while the Containers view is shown: while it is
 * hidden no events are followed and nothing is read.
 */
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import { errorMessage } from '../common/errors';
import { ChangeTree, isEngineError, type ChangeNode } from '../engine';
import type { ChildRow, ContainerChildRows } from '../views/childRows';
import type { LogDeps, SessionsDeps } from '../workbench/deps';
import { changeLetter, changeTooltip, changesRowTooltip, changesSummary } from './presentation';
import { changeUri } from './uris';

/** At most one read of a container's changes a second, however often it is touched. */
export const CHANGES_REFRESH_MS = 1000;

/** The "Changes" row (`node` undefined) or a changed path's row. */
export interface ChangesRow extends ChildRow {
  readonly changesOf: ContainerChanges;
  readonly node: ChangeNode | undefined;
}

export function isChangesRow(value: unknown): value is ChangesRow {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'child' && (value as { changesOf?: unknown }).changesOf !== undefined;
}

/** One container's changes as last read. */
export interface ContainerChanges {
  readonly engine: string;
  readonly containerId: string;
  tree: ChangeTree;
  /** True until the first complete read. */
  reading: boolean;
  /** Why the last read failed (the container was removed, the engine is gone): shown on the row. */
  failure: string | undefined;
  root: ChangesRow | undefined;
  readAt: number;
  pending: ReturnType<typeof setTimeout> | undefined;
  current: Promise<void> | undefined;
}

export interface ChangeRowsView {
  readonly visible: boolean;
  readonly onDidChangeVisibility: vscode.Event<unknown>;
}

export class ChangeRows extends Disposable implements ContainerChildRows {
  readonly dropMimeTypes: readonly string[] = [];
  private readonly _onDidChangeRows = this._register(new vscode.EventEmitter<ChildRow>());
  readonly onDidChangeRows = this._onDidChangeRows.event;
  private readonly containers = new Map<string, ContainerChanges>();
  /** Per engine: the events followed while the view is shown and some container's changes are open. */
  private readonly following = new Map<string, AbortController>();

  constructor(
    private readonly deps: LogDeps & Pick<SessionsDeps, 'sessionFor'>,
    private readonly view: ChangeRowsView,
  ) {
    super();
    this._register(view.onDidChangeVisibility(() => this.visibilityChanged()));
    this._register(
      toDisposable(() => {
        for (const controller of this.following.values()) controller.abort();
        for (const entry of this.containers.values()) clearTimeout(entry.pending);
      }),
    );
  }

  children(parent: ChildRow['parent']): ChildRow[] {
    if (parent.kind === 'volume') return [];
    if (parent.kind === 'container') {
      const entry = this.entryFor(parent.engine, parent.id);
      entry.root ??= { kind: 'child', engine: parent.engine, containerId: parent.id, parent, changesOf: entry, node: undefined };
      if (entry.current === undefined && entry.readAt === 0) this.read(entry);
      this.follow(parent.engine);
      return [entry.root];
    }
    if (!isChangesRow(parent)) return [];
    const node = parent.node ?? parent.changesOf.tree.root;
    return ChangeTree.sortedChildren(node).map((child): ChangesRow => ({ kind: 'child', engine: parent.engine, containerId: parent.containerId, parent, changesOf: parent.changesOf, node: child }));
  }

  item(child: ChildRow): vscode.TreeItem {
    const row = child as ChangesRow;
    const entry = row.changesOf;
    if (row.node === undefined) {
      // No id, as for every row below a container (see FileRows.item).
      const item = new vscode.TreeItem(vscode.l10n.t('Changes'), vscode.TreeItemCollapsibleState.Collapsed);
      item.description = entry.failure ?? (entry.reading && entry.tree.size === 0 ? vscode.l10n.t('reading…') : changesSummary(entry.tree.counts));
      item.tooltip = entry.failure ?? changesRowTooltip(entry.tree.leftOut);
      item.iconPath = new vscode.ThemeIcon('diff');
      item.contextValue = 'berth:changes';
      return item;
    }
    const node = row.node;
    const folder = node.children.size > 0;
    const item = new vscode.TreeItem(changeUri(row.engine, row.containerId, node.path, node.kind), folder ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.label = node.name;
    item.tooltip = changeTooltip(node.path, node.kind);
    const letter = changeLetter(node.kind);
    item.contextValue = letter === undefined ? 'berth:change:parent' : `berth:change:${letter}${folder ? ':folder' : ''}`;
    if (!folder && node.kind !== undefined) item.command = { command: 'berth.changes.openDiff', title: vscode.l10n.t('Open Changes'), arguments: [row] };
    return item;
  }

  handleDrop(): Promise<void> {
    return Promise.resolve(); // Changes accept no drops (dropMimeTypes is empty).
  }

  releaseVolumes(): Promise<void> {
    return Promise.resolve(); // No volume rows.
  }

  /** Reads a container's changes again now (after Revert File), if they are open. */
  async refresh(engine: string, containerId: string): Promise<void> {
    const entry = this.containers.get(`${engine}/${containerId}`);
    if (!entry) return;
    await entry.current;
    this.read(entry);
    await entry.current;
  }

  /** The changes as last read, for tests and commands. */
  changesOf(engine: string, containerId: string): ContainerChanges | undefined {
    return this.containers.get(`${engine}/${containerId}`);
  }

  private entryFor(engine: string, containerId: string): ContainerChanges {
    const key = `${engine}/${containerId}`;
    let entry = this.containers.get(key);
    if (!entry) {
      entry = { engine, containerId, tree: new ChangeTree(), reading: true, failure: undefined, root: undefined, readAt: 0, pending: undefined, current: undefined };
      this.containers.set(key, entry);
    }
    return entry;
  }

  private read(entry: ContainerChanges): void {
    if (entry.current !== undefined) return;
    entry.readAt = Date.now();
    entry.current = this.readNow(entry).finally(() => {
      entry.current = undefined;
    });
  }

  private async readNow(entry: ContainerChanges): Promise<void> {
    const tree = new ChangeTree();
    let shownEarly = false;
    try {
      const client = this.deps.sessionFor(entry.engine).client;
      for await (const batch of client.containers.changes(entry.containerId)) {
        tree.addAll(batch);
        // The first rows are shown before the rest is read; the complete list replaces them at the end.
        if (!shownEarly && entry.tree.size === 0) {
          shownEarly = true;
          entry.tree = tree;
          this.changed(entry);
        }
      }
      entry.tree = tree;
      entry.failure = undefined;
    } catch (error) {
      entry.tree = new ChangeTree();
      entry.failure = isEngineError(error, 'not-found') ? vscode.l10n.t('The container is gone: {0}', errorMessage(error)) : errorMessage(error);
      this.deps.log.warn(`Reading the changes of ${entry.containerId.slice(0, 12)}: ${errorMessage(error)}`);
    }
    entry.reading = false;
    this.changed(entry);
  }

  private changed(entry: ContainerChanges): void {
    if (entry.root) this._onDidChangeRows.fire(entry.root);
  }

  /** A container was touched: read it again, at once if the last read is a second old, else when it will be. */
  private touched(entry: ContainerChanges): void {
    if (!this.view.visible || entry.pending !== undefined) return;
    const wait = Math.max(0, entry.readAt + CHANGES_REFRESH_MS - Date.now());
    entry.pending = setTimeout(() => {
      entry.pending = undefined;
      if (!this.view.visible) return;
      if (entry.current !== undefined) {
        // A read is under way: it may have missed this touch, so one more follows it.
        void entry.current.then(() => this.touched(entry));
        return;
      }
      this.read(entry);
    }, wait);
  }

  private follow(engine: string): void {
    if (!this.view.visible || this.following.has(engine)) return;
    const controller = new AbortController();
    this.following.set(engine, controller);
    void this.followEvents(engine, controller).finally(() => {
      if (this.following.get(engine) === controller) this.following.delete(engine);
    });
  }

  private async followEvents(engine: string, controller: AbortController): Promise<void> {
    try {
      const client = this.deps.sessionFor(engine).client;
      const since = Math.floor(Date.now() / 1000);
      for await (const event of client.system.events({ since, filters: { type: ['container'] }, signal: controller.signal })) {
        const entry = this.containers.get(`${engine}/${event.Actor.ID}`);
        if (entry) this.touched(entry);
      }
    } catch (error) {
      if (!controller.signal.aborted) this.deps.log.warn(`Following events for the Changes rows of ${engine}: ${errorMessage(error)}`);
    }
  }

  private visibilityChanged(): void {
    if (!this.view.visible) {
      for (const controller of this.following.values()) controller.abort();
      this.following.clear();
      for (const entry of this.containers.values()) {
        clearTimeout(entry.pending);
        entry.pending = undefined;
      }
      return;
    }
    // Nothing was followed while hidden: what is open is read again once, and followed from now on.
    for (const entry of this.containers.values()) {
      this.touched(entry);
      this.follow(entry.engine);
    }
  }
}
