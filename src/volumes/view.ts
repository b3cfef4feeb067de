/**
 * The Volumes view of the current engine: a Disk Usage row on top, then one row per volume, each expanding to the
 * containers that mount it (a click reveals the container). It follows the engine only while it is visible; when it
 * is shown with disk-usage figures older than a minute it asks for new ones (sizes come only from `/system/df`).
 */
import * as vscode from 'vscode';
import { Disposable, DisposableStore, MutableDisposable, toDisposable, type IDisposable } from '../common/lifecycle';
import { errorMessage } from '../common/errors';
import type { ContainerSummary } from '../engine';
import type { EngineSession } from '../model/session';
import type { ChildRow, ContainerChildRows } from '../views/childRows';
import type { RowSummary } from '../views/engineTreeView';
import { filteredTopRows, filterNoticeItem, type FilterableView } from '../views/filterRows';
import { filterApplies, NO_FILTER, volumeMatches, type FilterNoticeRow, type RowFilter } from '../views/rowFilter';
import { ROW_REFRESH_GAP_MS, RowRefreshScheduler } from '../views/rowRefreshScheduler';
import { rowSummariesUnder, sessionTreeView, toTreeItem } from '../views/treeItems';
import { showViewHeader } from '../views/viewHeader';
import type { LogDeps, SessionsDeps } from '../workbench/deps';
import { presentDiskUsage, presentVolume, presentVolumeUser } from './presentation';
import { DISK_USAGE_MAX_AGE_MS, DISK_USAGE_SHOW_DELAY_MS, VolumeStore, type VolumeChange, type VolumeSource } from './store';

export type VolumeTreeNode =
  | ChildRow
  | FilterNoticeRow
  | { readonly kind: 'diskUsage' }
  | { readonly kind: 'volume'; readonly name: string }
  | { readonly kind: 'volumeUser'; readonly volume: string; readonly id: string; readonly name: string };

type VolumeNode = Extract<VolumeTreeNode, { kind: 'volume' }>;

const DISK_USAGE_NODE: VolumeTreeNode = { kind: 'diskUsage' };

export interface VolumesViewDeps extends SessionsDeps, LogDeps {
  readonly revealContainer: (id: string, engine: string) => Promise<void>;
}

/** The current engine's store and what ties it to the view. */
class Binding extends Disposable {
  readonly volumes: VolumeStore;
  constructor(readonly session: EngineSession, log: vscode.LogOutputChannel) {
    super();
    const summaries = function* (): Iterable<ContainerSummary> {
      for (const record of session.model.containers()) yield record.summary;
    };
    // The client is asked for on each call: an engine whose configuration is invalid throws from `client`, and that
    // must surface in the view's own work, not in the session switch that made this binding.
    const source: VolumeSource = {
      listVolumes: (options) => session.client.volumes.list(options),
      inspectVolume: (name, options) => session.client.volumes.inspect(name, options),
      diskUsage: (options) => session.client.system.df(options),
      events: (options) => session.client.system.events(options),
    };
    this.volumes = this._register(new VolumeStore(source, summaries, (level, message) => log[level](message)));
    this._register(session.model.onDidChange(() => this.volumes.containersChanged()));
  }
}

export class VolumesView extends Disposable implements vscode.TreeDataProvider<VolumeTreeNode>, FilterableView {
  private filter: RowFilter = NO_FILTER;
  private readonly notice: FilterNoticeRow = { kind: 'filterNotice', engine: '' };
  private readonly binding = this._register(new MutableDisposable<Binding>());
  private readonly bindingListeners = this._register(new MutableDisposable<DisposableStore>());
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<VolumeTreeNode | VolumeTreeNode[] | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  readonly view: vscode.TreeView<VolumeTreeNode>;
  /** One node object per volume, so a change refreshes exactly its row. */
  private nodes = new Map<string, VolumeNode>();
  /** The Files row under each volume (from the Files feature, through extension.ts); none until then. */
  private childRows: ContainerChildRows | undefined;
  private readonly _onDidChangeRows = this._register(new vscode.EventEmitter<VolumeChange>());
  /** The disk-usage fetch that waits for the view's first second to pass; cleared when the view is hidden. */
  private readonly pendingDiskUsage = this._register(new MutableDisposable());
  /** For tests and benches: the rows changed (after the tree was told). */
  readonly onDidChangeRows = this._onDidChangeRows.event;
  /** Volume rows whose age ("5 seconds ago") moves, refreshed when their text changes, as the Containers view does. */
  private readonly rowClock = this._register(new RowRefreshScheduler<VolumeNode>((rows) => this._onDidChangeTreeData.fire(rows), undefined, ROW_REFRESH_GAP_MS));

  constructor(private readonly deps: VolumesViewDeps) {
    super();
    const owner = this._register(new DisposableStore());
    this.view = sessionTreeView('berth.volumes', this, deps, { bind: (session) => this.bind(session), visibilityChanged: () => this.followVisibility() }, owner);
    this.rowClock.setVisible(this.view.visible);
    this.bind(deps.session);
  }

  get volumes(): VolumeStore | undefined {
    return this.binding.value?.volumes;
  }

  get session(): EngineSession | undefined {
    return this.binding.value?.session;
  }

  /** Hangs PROVIDER's "Files" row under every volume row; disposing takes it away. */
  setChildRows(provider: ContainerChildRows): IDisposable {
    this.childRows = provider;
    this._onDidChangeTreeData.fire(undefined);
    return toDisposable(() => {
      if (this.childRows === provider) this.childRows = undefined;
      void provider.releaseVolumes();
    });
  }

  /** Fetches disk usage now (the user asked), or only when the figures are older than `maxAgeMs`. */
  async refreshDiskUsage(maxAgeMs = 0, signal?: AbortSignal): Promise<void> {
    await this.volumes?.diskUsage(maxAgeMs, signal);
  }

  /** Shows only the volumes that pass FILTER (NO_FILTER: all); new rows from events respect it. */
  setFilter(filter: RowFilter): void {
    this.filter = filter;
    if (!filterApplies(filter)) showViewHeader(this.view, { description: undefined });
    this._onDidChangeTreeData.fire(undefined);
  }

  getTreeItem(node: VolumeTreeNode): vscode.TreeItem {
    if (node.kind === 'filterNotice') return filterNoticeItem('volumes', this.filter, this.session?.id ?? '');
    if (node.kind === 'child') return this.childRows?.item(node) ?? new vscode.TreeItem('');
    const store = this.volumes;
    const now = Date.now();
    if (node.kind === 'diskUsage') {
      const item = toTreeItem('diskUsage', presentDiskUsage(store?.lastDiskUsage, store?.diskUsageFetchedAt, now));
      item.command = { command: 'berth.diskUsage.refresh', title: vscode.l10n.t('Refresh Disk Usage') };
      return item;
    }
    if (node.kind === 'volumeUser') {
      const item = toTreeItem(`volume:${node.volume}/container:${node.id}`, presentVolumeUser(node));
      item.command = { command: 'berth.volumes.revealContainer', title: vscode.l10n.t('Show Container'), arguments: [node] };
      return item;
    }
    const volume = store?.volume(node.name);
    if (!store || !volume) return new vscode.TreeItem(node.name);
    const users = store.usersOf(node.name);
    const collapsible = users.length > 0 || this.childRows ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
    const presentation = presentVolume(volume, users, store.usageOf(node.name), now);
    this.rowClock.track(node, presentation.changesAt);
    return toTreeItem(`volume:${node.name}`, presentation, collapsible);
  }

  async getChildren(node?: VolumeTreeNode): Promise<VolumeTreeNode[]> {
    const session = this.session;
    if (node?.kind === 'child') return (await this.childRows?.children(node)) ?? [];
    if (node?.kind === 'volume' && this.childRows && session) {
      const files = await this.childRows.children({ kind: 'volume', engine: session.id, name: node.name });
      return [...files, ...this.childrenOf(node)];
    }
    return this.childrenOf(node);
  }

  private childrenOf(node?: VolumeTreeNode): VolumeTreeNode[] {
    const store = this.volumes;
    if (!store) return [];
    if (node === undefined) {
      const { nodes, hiddenAll } = filteredTopRows(this.view, this.filter, store.volumes(), volumeMatches, (volume): [string, VolumeNode] => [
        volume.Name,
        this.nodes.get(volume.Name) ?? { kind: 'volume', name: volume.Name },
      ]);
      this.nodes = nodes;
      return hiddenAll ? [DISK_USAGE_NODE, this.notice] : [DISK_USAGE_NODE, ...nodes.values()];
    }
    if (node.kind !== 'volume') return [];
    return store.usersOf(node.name).map((user) => ({ kind: 'volumeUser', volume: node.name, id: user.id, name: user.name }));
  }

  getParent(node: VolumeTreeNode): VolumeTreeNode | undefined {
    if (node.kind === 'child') return node.parent.kind === 'child' ? node.parent : node.parent.kind === 'volume' ? this.nodes.get(node.parent.name) : undefined;
    return node.kind === 'volumeUser' ? this.nodes.get(node.volume) : undefined;
  }

  /** The rows under a path of labels (`[]` = the roots), for tests. */
  async rowsAt(path: readonly string[]): Promise<RowSummary[]> {
    return rowSummariesUnder(this, path, 'The Volumes view');
  }

  private bind(session: EngineSession): void {
    if (this.binding.value?.session === session) return;
    const binding = new Binding(session, this.deps.log);
    this.binding.value = binding;
    this.nodes = new Map();
    this.rowClock.forgetAll();
    const listeners = new DisposableStore();
    listeners.add(binding.volumes.onDidChange((change) => this.onStoreChange(change)));
    this.bindingListeners.value = listeners;
    this._onDidChangeTreeData.fire(undefined);
    this.followVisibility();
  }

  private onStoreChange(change: VolumeChange): void {
    if (change.all) {
      // The rows drawn again report their next change again.
      this.rowClock.forgetAll();
      this._onDidChangeTreeData.fire(undefined);
    } else {
      const nodes = change.names.map((name) => this.nodes.get(name)).filter((node): node is VolumeNode => node !== undefined);
      if (nodes.length > 0) this._onDidChangeTreeData.fire(nodes);
    }
    this._onDidChangeRows.fire(change);
  }

  /** Work only while visible: follow the engine when shown, stop when hidden; stale sizes are fetched on showing. */
  private followVisibility(): void {
    this.rowClock.setVisible(this.view.visible);
    const store = this.volumes;
    if (!store) return;
    if (!this.view.visible) {
      this.pendingDiskUsage.clear();
      store.stop();
      // The helper containers that served the volumes' files go with the view.
      void this.childRows?.releaseVolumes().then(() => this._onDidChangeTreeData.fire(undefined));
      return;
    }
    store.start();
    // `/system/df` makes the engine size every container and volume. Asked for while Berth's views open, it competes
    // for the engine and the CPU with the container rows the user is waiting for: with thousands of containers, with
    // the listing itself. So the figures follow a second after the engine's first listing is in, if the view is still
    // shown. Hiding the view before that cancels the request.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const ask = (): void => {
      if (cancelled) return;
      timer = setTimeout(() => {
        this.pendingDiskUsage.clear();
        store.diskUsage(DISK_USAGE_MAX_AGE_MS).catch((error: unknown) => this.deps.log.warn(`Disk usage: ${errorMessage(error)}`));
      }, DISK_USAGE_SHOW_DELAY_MS);
    };
    // An unreachable engine has no figures to give: the row keeps "click to compute".
    this.binding.value?.session.model.whenConnected().then(ask, () => undefined);
    this.pendingDiskUsage.value = toDisposable(() => {
      cancelled = true;
      clearTimeout(timer);
    });
  }
}
