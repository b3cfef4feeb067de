/**
 * The Containers tree. The shape lives in ContainerTree (vscode-free, one per engine) and EngineForest; this
 * provider only turns nodes into cached TreeItems and forwards each tree's refresh plan, so one event refreshes one row.
 */
import * as vscode from 'vscode';
import { groupProjects } from '../engine';
import { toDisposable, type IDisposable } from '../common/lifecycle';
import type { EngineModel } from '../model/engineModel';
import type { ModelChange } from '../model/modelChange';
import type { ContainerRecord } from '../model/records';
import type { EngineSession } from '../model/session';
import type { ChildRow, ContainerChildRows } from '../views/childRows';
import type { EngineRootNode } from '../views/engineForest';
import { EngineTreeView, type RefreshPlanLike } from '../views/engineTreeView';
import { filterDescription, filterNoticeItem, summedCounts, type FilterableView, type FilterCounts, type FilterNoticeRow } from '../views/filterRows';
import { filterApplies, NO_FILTER, type RowFilter } from '../views/rowFilter';
import { containerTooltip, presentContainer, presentGroup, type GroupPlace } from '../views/presentation';
import { toTreeItem } from '../views/treeItems';
import { ContextKey } from '../workbench/contextKey';
import type { SessionsDeps, SettingsDeps } from '../workbench/deps';
import { ContainerTree, type ContainerNode, type ContainerRowNode, type ContainerTreeNode, type ContainerTreeOptions } from './tree';

/**
 * The view's drag and drop: made before the view (VS Code reads the accepted types once), it hands drops on child
 * rows to their provider once one is set; the view accepts nothing else.
 */
class ChildRowDrops implements vscode.TreeDragAndDropController<ContainerRowNode | EngineRootNode> {
  readonly dragMimeTypes: readonly string[] = [];
  readonly dropMimeTypes: readonly string[] = ['text/uri-list'];
  /** The provider that made each child row on screen: a drop goes to it. */
  readonly owners = new WeakMap<ChildRow, ContainerChildRows>();

  async handleDrop(target: ContainerRowNode | EngineRootNode | undefined, data: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    if (target?.kind === 'child') await this.owners.get(target)?.handleDrop(target, data, token);
  }
}

/** Working dir and config files of a group, from its members' Compose labels. */
function groupPlace(summaries: Parameters<typeof groupProjects>[0]): GroupPlace {
  const project = groupProjects(summaries)[0];
  return { workingDir: project?.workingDir, configFiles: project?.configFiles ?? [] };
}

/** What a feature adds to a container row as it is drawn (live stats, the last health output). */
export interface ContainerRowDecoration {
  /** Appended to the description after ` · `. */
  readonly description?: string | undefined;
  /** Markdown appended to the tooltip. */
  readonly tooltip?: string | undefined;
  /** Appended to the context value, so menus can ask for it (`:ports`: the row has an address to open or copy). */
  readonly contextSuffix?: string | undefined;
}
export type ContainerRowDecorator = (node: ContainerNode) => ContainerRowDecoration | undefined;

const NO_DECORATION: ContainerRowDecoration = {};

/** Which of Show All / Show Running the palette and the view's title offer. */
const showAllContext = new ContextKey<boolean>('berth.containers.showAll');

/** VS Code applies a tree's refresh within a few hundred milliseconds; a reveal that came too early tries again then. */
const REVEAL_RETRY_MS = 500;

export class ContainersView extends EngineTreeView<ContainerRowNode, ContainerTree> implements FilterableView {
  /**
   * Items per record object: a record is replaced when its container changes, and an item whose relative time
   * moved on (`changesAt` passed) is made again, so the cache never goes stale.
   */
  private itemCache = new WeakMap<ContainerRecord, { readonly item: vscode.TreeItem; readonly changesAt: number | undefined }>();
  private options: ContainerTreeOptions;
  private filter: RowFilter = NO_FILTER;
  /** One notice row per engine, so that VS Code keeps one element for it across refreshes. */
  private readonly notices = new Map<string, FilterNoticeRow>();
  /** The features that add to rows as they are drawn (stats, ports), in the order they were set. */
  private readonly decorators: ContainerRowDecorator[] = [];
  /** Compose groups the user collapsed: their members are not on screen. */
  private readonly collapsedGroups = new Set<string>();
  private readonly _onDidChangeRows = this._register(new vscode.EventEmitter<void>());
  /** The rows on screen may have changed: the view was shown or hidden, a group folded, the tree changed. */
  readonly onDidChangeRows = this._onDidChangeRows.event;
  /** The providers of the rows under each container row (Ports, Files), handed over by extension.ts, in order. */
  private readonly childRows: ContainerChildRows[] = [];
  private readonly drops: ChildRowDrops;

  constructor(
    protected override readonly deps: SessionsDeps & SettingsDeps,
    drops = new ChildRowDrops(),
  ) {
    super(deps, 'berth.containers', { canSelectMany: true, showCollapseAll: true, dragAndDropController: drops });
    this.drops = drops;
    this.options = optionsOf(deps.settings, this.filter);
    showAllContext.set(this.options.showAll);
    this.start();
    this._register(this.view.onDidChangeVisibility(() => this._onDidChangeRows.fire()));
    this._register(this.onDidChangeTreeData(() => this._onDidChangeRows.fire()));
    const fold = (node: unknown, collapsed: boolean): void => {
      if (typeof node !== 'object' || node === null || (node as ContainerTreeNode).kind !== 'group') return;
      const group = node as Extract<ContainerTreeNode, { kind: 'group' }>;
      const key = `${group.engine}/${group.project}`;
      if (collapsed) this.collapsedGroups.add(key);
      else this.collapsedGroups.delete(key);
      this._onDidChangeRows.fire();
    };
    this._register(this.view.onDidCollapseElement((event) => fold(event.element, true)));
    this._register(this.view.onDidExpandElement((event) => fold(event.element, false)));
    this._register(
      deps.onDidChangeSettings((settings) => {
        showAllContext.set(settings.showAll);
        const next = optionsOf(settings, this.filter);
        if (next.showAll === this.options.showAll && next.groupBy === this.options.groupBy && next.onlyUnhealthy === this.options.onlyUnhealthy) return;
        this.options = next;
        for (const session of this.deps.engines.all) {
          this.forest.tree(session.id)?.reset(session.model.containers(), this.options);
        }
        this.fire(undefined);
      }),
    );
  }

  /** Shows only the rows that pass FILTER (NO_FILTER: all), in every engine's tree; new rows from events respect it. */
  setFilter(filter: RowFilter): void {
    this.filter = filter;
    this.options = { ...this.options, filter: filterApplies(filter) ? filter : undefined };
    for (const session of this.deps.engines.all) this.forest.tree(session.id)?.reset(session.model.containers(), this.options);
    this.updateDescription();
    this.fire(undefined);
  }

  /** Rows shown and rows the view would show unfiltered, over every engine. */
  filterCounts(): FilterCounts {
    return summedCounts(this.engineTrees());
  }

  protected override filterDescription(): string | undefined {
    return filterDescription(this.options.filter !== undefined, this.filterCounts());
  }

  protected override filterNotice(engine: string): ContainerRowNode | undefined {
    if (this.options.filter === undefined) return undefined;
    let notice = this.notices.get(engine);
    if (!notice) {
      notice = { kind: 'filterNotice', engine };
      this.notices.set(engine, notice);
    }
    return notice;
  }

  /** A container's node in an engine's tree (the current engine's by default). */
  node(id: string, engine: string = this.deps.session.id): ContainerNode | undefined {
    return this.forest.tree(engine)?.node(id);
  }

  /** The container rows on screen: none while the view is hidden, none inside a folded group. */
  rowsOnScreen(): ContainerNode[] {
    if (!this.view.visible) return [];
    const rows: ContainerNode[] = [];
    for (const session of this.deps.engines.all) {
      const tree = this.forest.tree(session.id);
      if (!tree) continue;
      for (const child of tree.children(undefined)) {
        if (child.kind === 'container') rows.push(child);
        else if (!this.collapsedGroups.has(`${child.engine}/${child.project}`)) rows.push(...(tree.children(child) as ContainerNode[]));
      }
    }
    return rows;
  }

  /** Adds a decorator (the stats and ports features); its rows are drawn again when it says so with `redraw`. */
  setDecorator(decorator: ContainerRowDecorator): IDisposable {
    this.decorators.push(decorator);
    this.fire(undefined);
    return toDisposable(() => {
      const index = this.decorators.indexOf(decorator);
      if (index < 0) return;
      this.decorators.splice(index, 1);
      this.fire(undefined);
    });
  }

  /** What every decorator adds to NODE, joined. */
  private decorate(node: ContainerNode): ContainerRowDecoration {
    const parts = this.decorators.flatMap((decorator) => decorator(node) ?? []);
    // Most rows have nothing added: no joining for them (thousands of rows are drawn at once).
    if (parts.length === 0) return NO_DECORATION;
    const joined = (values: Array<string | undefined>, separator: string): string | undefined =>
      values.some((value) => value !== undefined) ? values.filter((value) => value !== undefined).join(separator) : undefined;
    return {
      description: joined(parts.map((part) => part.description), ' · '),
      tooltip: joined(parts.map((part) => part.tooltip), '\n\n'),
      contextSuffix: joined(parts.map((part) => part.contextSuffix), ''),
    };
  }

  /** Draws these rows again, in one refresh (a row with an open folder below it waits until that is folded). */
  redraw(rows: readonly ContainerNode[]): void {
    this.refreshRows(rows);
  }

  /** A container row with a folder open below it ("Files" or one of its folders): drawing it lists them again. */
  protected override hasOpenListingsBelow(row: ContainerRowNode, expanded: ReadonlySet<ContainerRowNode | EngineRootNode>): boolean {
    if (row.kind !== 'container') return false;
    for (const open of expanded) if (open.kind === 'child' && open.engine === row.engine && open.containerId === row.id) return true;
    return false;
  }

  /**
   * Hangs PROVIDER's rows under every container row (the Ports feature's "Ports", the Files feature's "Files"), after
   * those of the providers set before it; disposing takes them away.
   */
  setChildRows(provider: ContainerChildRows): IDisposable {
    this.childRows.push(provider);
    const listener = provider.onDidChangeRows((row) => this.fire([row]));
    this.onLayoutChanged();
    this.fire(undefined);
    return toDisposable(() => {
      listener.dispose();
      const index = this.childRows.indexOf(provider);
      if (index >= 0) this.childRows.splice(index, 1);
    });
  }

  override getChildren(node?: ContainerRowNode | EngineRootNode): vscode.ProviderResult<Array<ContainerRowNode | EngineRootNode>> {
    if (node?.kind === 'filterNotice') return [];
    if (node?.kind === 'container' || node?.kind === 'child') return this.childRowsOf(node);
    return super.getChildren(node);
  }

  /** A container's rows from every provider in order; a child row's from the provider that made it. */
  private async childRowsOf(node: ContainerNode | ChildRow): Promise<ChildRow[]> {
    const providers = node.kind === 'child' ? [this.drops.owners.get(node)].filter((owner) => owner !== undefined) : this.childRows;
    const rows: ChildRow[] = [];
    for (const provider of providers) {
      for (const row of await provider.children(node)) {
        this.drops.owners.set(row, provider);
        rows.push(row);
      }
    }
    return rows;
  }

  override getParent(node: ContainerRowNode | EngineRootNode): ContainerRowNode | EngineRootNode | undefined {
    if (node.kind !== 'child') return super.getParent(node);
    const parent = node.parent;
    if (parent.kind === 'child') return parent;
    return parent.kind === 'container' ? this.node(parent.id, node.engine) : undefined;
  }

  /**
   * Selects a container's row. VS Code finds the row among the children it was last handed, so a row added a
   * moment ago may not be there yet ("Cannot resolve tree item"): one more try once that refresh has gone through.
   */
  async reveal(id: string, engine: string = this.deps.session.id): Promise<void> {
    const options = { select: true, focus: false };
    const node = this.node(id, engine);
    if (!node?.visible) return;
    try {
      await this.view.reveal(node, options);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, REVEAL_RETRY_MS));
      const again = this.node(id, engine);
      if (again?.visible) await this.view.reveal(again, options);
    }
  }

  protected createTree(engine: string): ContainerTree {
    return new ContainerTree(this.options, engine);
  }

  protected resetTree(tree: ContainerTree, model: EngineModel): void {
    tree.reset(model.containers(), this.options);
  }

  protected applyChange(tree: ContainerTree, change: ModelChange, model: EngineModel): RefreshPlanLike<ContainerRowNode> {
    const plan = tree.apply(change, () => model.containers());
    if (plan.all) return plan;
    // A row shown from its create event and completed by its inspect usually reads the same. Drawing it again would
    // make VS Code list the rows below it again (Ports, and Files through the engine) while the user may be opening
    // them, and fold what was opened meanwhile (those rows have no ids: see FileRows.item). Its tooltip waited for
    // the inspect, so not drawing it leaves nothing stale.
    const now = Date.now();
    const unchanged = new Set(
      change.containers.updated
        // The engine's listing over a saved one (listingDiff.ts) reports every row; most read as they did.
        .filter(({ previous, current }) => (change.relisted === true || model.isFromCreateEvent(previous)) && sameRow(previous, current, now))
        .map(({ current }) => current.id),
    );
    if (unchanged.size === 0) return plan;
    return { all: false, nodes: plan.nodes.filter((node) => node.kind !== 'container' || !unchanged.has(node.id)) };
  }

  protected itemFor(node: ContainerRowNode, session: EngineSession): vscode.TreeItem {
    if (node.kind === 'filterNotice') return filterNoticeItem('containers', this.filter, node.engine);
    if (node.kind === 'child') return this.drops.owners.get(node)?.item(node) ?? new vscode.TreeItem('');
    if (node.kind === 'group') {
      const tree = this.forest.tree(session.id);
      const counts = tree ? tree.groupCounts(node) : { running: 0, total: 0 };
      return toTreeItem(this.itemId(`group:${node.project}`, node.engine), presentGroup(node.project, counts), vscode.TreeItemCollapsibleState.Expanded, 'on hover');
    }
    const now = Date.now();
    let cached = this.itemCache.get(node.record);
    if (!cached || (cached.changesAt !== undefined && cached.changesAt <= now)) {
      const presentation = presentContainer(node.record, now);
      const collapsible = this.childRows.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
      const item = toTreeItem(this.itemId(`container:${node.rowKey}`, node.engine), presentation, collapsible, 'on hover');
      cached = { item, changesAt: presentation.changesAt };
      this.itemCache.set(node.record, cached);
    }
    this.rowClock.track(node, cached.changesAt);
    const decoration = this.decorate(node);
    if (decoration.description === undefined && decoration.contextSuffix === undefined) return cached.item;
    // The cached item stays as the record made it; the live part goes on a copy.
    const decorated = Object.assign(new vscode.TreeItem(cached.item.label ?? ''), cached.item);
    if (decoration.description !== undefined) {
      decorated.description = `${typeof cached.item.description === 'string' ? cached.item.description : ''} · ${decoration.description}`;
    }
    if (decoration.contextSuffix !== undefined) decorated.contextValue = `${cached.item.contextValue ?? ''}${decoration.contextSuffix}`;
    return decorated;
  }

  /** A row shown from its create event has no command or mounts yet: its tooltip waits the moment for its inspect. */
  protected override tooltipReady(node: ContainerRowNode, session: EngineSession): Promise<void> | undefined {
    return node.kind === 'container' ? session.model.whenInspected(node.id) : undefined;
  }

  protected tooltipFor(node: ContainerRowNode, session: EngineSession): string {
    if (node.kind === 'container') {
      const extra = this.decorate(node).tooltip;
      const base = containerTooltip(node.record, Date.now());
      return extra === undefined ? base : `${base}\n\n${extra}`;
    }
    if (node.kind === 'child' || node.kind === 'filterNotice') return '';
    const counts = this.forest.tree(session.id)?.groupCounts(node) ?? { running: 0, total: 0 };
    return presentGroup(node.project, counts, groupPlace(node.members.view.map((member) => member.record.summary))).tooltip;
  }

  protected onLayoutChanged(): void {
    this.itemCache = new WeakMap();
  }
}

/** Whether two records of a container draw the same row (label, description, icon, context value). */
function sameRow(a: ContainerRecord, b: ContainerRecord, now: number): boolean {
  const [first, second] = [presentContainer(a, now), presentContainer(b, now)];
  return (
    first.label === second.label &&
    first.description === second.description &&
    first.contextValue === second.contextValue &&
    first.icon.id === second.icon.id &&
    first.icon.color === second.icon.color
  );
}

function optionsOf(settings: SettingsDeps['settings'], filter: RowFilter): ContainerTreeOptions {
  return { showAll: settings.showAll, groupBy: settings.groupBy, onlyUnhealthy: settings.onlyUnhealthy, filter: filterApplies(filter) ? filter : undefined };
}
