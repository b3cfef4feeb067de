/**
 * What the Containers and Images views share: one per-engine tree per engine session, laid out by an
 * EngineForest (no extra level with one engine, one root node per engine with several), each tree kept
 * current by its own model's changes, and the engine root nodes showing each engine's status.
 */
import * as vscode from 'vscode';
import { Disposable, DisposableMap } from '../common/lifecycle';
import type { EngineModel } from '../model/engineModel';
import type { ModelChange } from '../model/modelChange';
import type { EngineSession } from '../model/session';
import { ownRows } from '../workbench/callOrigin';
import type { SessionsDeps } from '../workbench/deps';
import { EngineForest, isEngineRoot, type EngineRootNode, type PerEngineTree } from './engineForest';
import { engineRootItem, viewStatus } from './engineViewStatus';
import { ROW_REFRESH_GAP_MS, RowRefreshScheduler } from './rowRefreshScheduler';
import { showViewHeader } from './viewHeader';
import { labelOf, markdownTooltip, rowsUnder, type RowSummary } from './treeItems';

export type { RowSummary } from './treeItems';

export interface RefreshPlanLike<N> {
  readonly all: boolean;
  readonly nodes: readonly N[];
}

type Change<N> = N | EngineRootNode | Array<N | EngineRootNode> | undefined;

export abstract class EngineTreeView<N extends { readonly engine: string }, T extends PerEngineTree<N>>
  extends Disposable
  implements vscode.TreeDataProvider<N | EngineRootNode>
{
  protected readonly forest: EngineForest<N, T>;
  protected readonly view: vscode.TreeView<N | EngineRootNode>;
  /** This provider as VS Code gets it: the rows it hands out count as Berth's own when passed back to a command. */
  private readonly served: vscode.TreeDataProvider<N | EngineRootNode>;
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<Change<N>>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  /** One lifetime per session object for the listeners on its model: a session replaced for the same engine (new endpoint) gets a fresh one. */
  private readonly sessionBindings = this._register(new DisposableMap<EngineSession>());
  /** Reveals waiting for VS Code to be handed the top-level rows (see revealRow); none on the usual path. */
  private readonly rootWaiters = new Set<() => void>();
  /** Whether VS Code has been handed the top-level rows since the layout (one engine or several) last changed. */
  private rootsServed = false;
  /**
   * Rows whose relative times move on, refreshed when their text changes while the view is visible. Rows aging each
   * second (docker's "5 seconds ago") fall due at their own moments, each due refresh a trip through VS Code's tree
   * to the page; refreshes at least a second apart batch them into one, each row at most that late (the cost of
   * each gap is in docs/benchmarks.md).
   */
  protected readonly rowClock = this._register(new RowRefreshScheduler<N>((rows) => this.refreshRows(rows), undefined, ROW_REFRESH_GAP_MS));
  /**
   * Expanded rows, and those among them whose text went stale while open. VS Code lists every open row below a
   * refreshed row again, so aging a container (or drawing its live figures) each second would read its open folders
   * through the engine each second, and a listing in flight when its container's row is refreshed leaves VS Code
   * refusing the next one ("Element with id … is already registered"). Such a row is drawn again once nothing below
   * it that lists through the engine is open.
   */
  private readonly expanded = new Set<N | EngineRootNode>();
  private readonly agedWhileExpanded = new Set<N>();
  /**
   * Whether VS Code has asked for the top-level rows yet, and how many of its asks wait for the engine. A refresh of
   * the whole view before the first ask, or while an ask waits, is not sent: the answer will hold the rows as they
   * are then. Sent anyway, VS Code drops the answer it is reading and asks again: a large view would make the whole
   * trip to the page twice.
   */
  private rootAsked = false;
  private rootAsksWaiting = 0;

  protected constructor(
    protected readonly deps: SessionsDeps,
    viewId: string,
    options: { canSelectMany: boolean; showCollapseAll: boolean; dragAndDropController?: vscode.TreeDragAndDropController<N | EngineRootNode> },
  ) {
    super();
    this.forest = new EngineForest<N, T>((engine) => this.createTree(engine));
    this.served = ownRows<N | EngineRootNode>(this);
    this.view = this._register(vscode.window.createTreeView(viewId, { treeDataProvider: this.served, ...options }));
    this.rowClock.setVisible(this.view.visible);
    deps.engines.setViewShown(viewId, this.view.visible);
    this._register(
      this.view.onDidChangeVisibility((event) => {
        this.rowClock.setVisible(event.visible);
        deps.engines.setViewShown(viewId, event.visible);
      }),
    );
    this._register(this.view.onDidExpandElement((event) => this.expanded.add(event.element)));
    this._register(
      this.view.onDidCollapseElement((event) => {
        this.expanded.delete(event.element);
        const due = [...this.agedWhileExpanded].filter((row) => !this.holdsOpenListings(row));
        for (const row of due) this.agedWhileExpanded.delete(row);
        if (due.length > 0) this.fire(due);
      }),
    );
  }

  /** Open rows below ROW (among EXPANDED) that VS Code would list again through the engine if ROW were drawn again. */
  protected hasOpenListingsBelow(_row: N, _expanded: ReadonlySet<N | EngineRootNode>): boolean {
    return false;
  }

  private holdsOpenListings(row: N): boolean {
    return this.expanded.has(row) && this.hasOpenListingsBelow(row, this.expanded);
  }

  /** Draws ROWS again now, except those holding open listings: they are drawn once those are folded. */
  protected refreshRows(rows: readonly N[]): void {
    const now = rows.filter((row) => {
      if (!this.holdsOpenListings(row)) return true;
      this.agedWhileExpanded.add(row);
      return false;
    });
    if (now.length > 0) this.fire(now);
  }

  /** Call at the end of the subclass constructor, once its own fields exist. */
  protected start(): void {
    this.syncEngines();
    this._register(this.deps.onDidChangeEngines(() => this.syncEngines()));
    this._register(
      this.deps.onDidChangeSession(() => {
        this.updateDescription();
        // The roots say which engine is current.
        if (this.forest.isMulti) this.fire(undefined);
      }),
    );
  }

  protected abstract createTree(engine: string): T;
  /** Rebuilds an engine's tree from its model. */
  protected abstract resetTree(tree: T, model: EngineModel): void;
  protected abstract applyChange(tree: T, change: ModelChange, model: EngineModel): RefreshPlanLike<N>;
  /** The row's item; rows with relative times report their next change to `rowClock`. */
  protected abstract itemFor(node: N, session: EngineSession): vscode.TreeItem;
  /** The row's tooltip markdown as of now (asked for on hover). */
  protected abstract tooltipFor(node: N, session: EngineSession): string;
  /** What the row's tooltip must wait for first: a row the model has only part of (see ContainersView). */
  protected tooltipReady(_node: N, _session: EngineSession): Promise<void> | undefined {
    return undefined;
  }
  /** The engine layout changed between one and several: ids of items change, so caches go. */
  protected abstract onLayoutChanged(): void;
  /** The row that stands for an engine's rows when a filter hides all of them; undefined while some show. */
  protected filterNotice(_engine: string): N | undefined {
    return undefined;
  }
  /** The view's description while a filter applies (`N of M`). */
  protected filterDescription(): string | undefined {
    return undefined;
  }

  /** Each engine's tree, in the engines' order (undefined for an engine the forest has not laid out yet). */
  protected engineTrees(): Array<T | undefined> {
    return this.deps.engines.all.map((session) => this.forest.tree(session.id));
  }

  get treeView(): vscode.TreeView<N | EngineRootNode> {
    return this.view;
  }

  getTreeItem(node: N | EngineRootNode): vscode.TreeItem {
    const session = this.deps.engines.find(node.engine);
    if (isEngineRoot(node)) return engineRootItem(node, session, session === this.deps.session);
    if (!session) return new vscode.TreeItem('(engine removed)');
    return this.itemFor(node, session);
  }

  getChildren(node?: N | EngineRootNode): vscode.ProviderResult<Array<N | EngineRootNode>> {
    let children = this.childrenOf(node);
    if (node === undefined) {
      this.rootAsked = true;
      if (children instanceof Promise) {
        this.rootAsksWaiting++;
        children = children.finally(() => this.rootAsksWaiting--);
      }
    }
    if (node !== undefined) return children;
    const waiters = [...this.rootWaiters];
    this.rootWaiters.clear();
    const served = (): void => {
      this.rootsServed = true;
      for (const waiter of waiters) waiter();
    };
    if (!(children instanceof Promise) && waiters.length === 0) {
      served();
      return children;
    }
    return Promise.resolve(children).then((rows) => {
      served();
      return rows;
    });
  }

  /**
   * Shows a row selected. VS Code's reveal opens a hidden or folded view, but the view asks for its rows only then,
   * so that first reveal finds nothing to select: select once more when the rows have been served.
   */
  protected async revealRow(node: N): Promise<void> {
    const options = { select: true, focus: false };
    if (this.view.visible) return this.view.reveal(node, options);
    const served = this.whenRootsServed();
    await this.view.reveal(node, options);
    await served;
    await this.view.reveal(node, options);
  }

  private childrenOf(node: N | EngineRootNode | undefined): vscode.ProviderResult<Array<N | EngineRootNode>> {
    if (node === undefined && this.forest.isMulti) return this.mutable(this.forest.children());
    const engine = node === undefined ? this.forest.roots()[0]?.engine : node.engine;
    const model = engine === undefined ? undefined : this.deps.engines.find(engine)?.model;
    if (!model || engine === undefined) return [];
    if (node === undefined || isEngineRoot(node)) {
      if (model.state === 'connecting' && model.savedListingAt === undefined) {
        // The first listing is on its way: let the view show its progress bar instead of a false "empty" (or the
        // saved listing, if it is read first: savedListing.ts).
        return model.whenRowsKnown().then(
          () => this.withNotice(engine, this.forest.children(node)),
          () => [],
        );
      }
      if (model.state === 'unreachable') return [];
      return this.withNotice(engine, this.forest.children(node));
    }
    return this.mutable(this.forest.children(node));
  }

  /** An engine's top rows, or the filter's notice when it hides them all. */
  private withNotice(engine: string, rows: ReadonlyArray<N | EngineRootNode>): Array<N | EngineRootNode> {
    const notice = rows.length === 0 ? this.filterNotice(engine) : undefined;
    return notice ? [notice] : this.mutable(rows);
  }

  /**
   * Tooltips are worded when hovered. The item itself may be cached across renders, so the tooltip goes on a copy:
   * VS Code reads only `tooltip` and `command` from what this returns.
   */
  resolveTreeItem(item: vscode.TreeItem, node: N | EngineRootNode): vscode.TreeItem | Promise<vscode.TreeItem> {
    const session = this.deps.engines.find(node.engine);
    if (isEngineRoot(node) || !session || item.tooltip !== undefined) return item;
    const resolve = (): vscode.TreeItem => {
      const resolved = new vscode.TreeItem(item.label ?? '', item.collapsibleState);
      resolved.command = item.command;
      resolved.tooltip = markdownTooltip(this.tooltipFor(node, session));
      return resolved;
    };
    const ready = this.tooltipReady(node, session);
    return ready ? ready.then(resolve) : resolve();
  }

  getParent(node: N | EngineRootNode): N | EngineRootNode | undefined {
    return this.forest.parent(node);
  }

  /**
   * Scrolls to an engine's row and selects it (Add Engine: the new row may sit below a long list of another engine's
   * containers). Undefined when the view has no row for it: with one engine there are no engine rows. Callers need
   * not wait for it: VS Code settles it once the view has rendered, which a hidden view may not do soon.
   */
  revealEngine(engine: string): Promise<boolean> | undefined {
    const root = this.forest.isMulti ? this.forest.root(engine) : undefined;
    if (!root) return undefined;
    // VS Code resolves a row only once it has listed it: a reveal sent before it asks for the roots of the new
    // layout fails ("Cannot resolve tree item"). So the roots are served first, then the row is revealed.
    const options = { select: true, focus: false, expand: false };
    const reveal = async (): Promise<boolean> => {
      if (!this.rootsServed) {
        const served = this.whenRootsServed();
        // A hidden view asks for its rows only once shown, and a reveal is what shows it; this one may fail.
        if (!this.view.visible) void Promise.resolve(this.view.reveal(root, options)).catch(() => undefined);
        await served;
      }
      await this.view.reveal(root, options);
      return this.view.selection.includes(root);
    };
    return reveal();
  }

  /** Resolves once VS Code has been handed the top-level rows, or after 5 s (a view that stays hidden never asks). */
  private whenRootsServed(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.rootWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, 5_000);
      this.rootWaiters.add(done);
    });
  }

  /** The rows under a path of labels as VS Code is handed them, for tests that pass a row to a command as a click does. */
  async rowNodesAt(path: readonly string[]): Promise<Array<{ label: string; node: N | EngineRootNode }>> {
    const served = { getChildren: (node?: N | EngineRootNode) => this.served.getChildren(node), getTreeItem: (node: N | EngineRootNode) => this.getTreeItem(node) };
    const rows = await rowsUnder(served, path, 'The view');
    return rows.map(({ node, item }) => ({ label: labelOf(item), node }));
  }

  /** The rows under a path of labels (`[]` = the roots), as VS Code would render them. */
  async rowsAt(path: readonly string[]): Promise<RowSummary[]> {
    const rows = await rowsUnder(this, path, 'The view');
    return Promise.all(rows.map(async ({ node, item }) => {
      // The tooltip as a hover gets it.
      const tooltip = (await this.resolveTreeItem(item, node)).tooltip;
      return {
        id: item.id,
        label: labelOf(item),
        description: typeof item.description === 'string' ? item.description : undefined,
        contextValue: item.contextValue,
        tooltip: typeof tooltip === 'string' ? tooltip : tooltip?.value,
        collapsible: item.collapsibleState !== undefined && item.collapsibleState !== vscode.TreeItemCollapsibleState.None,
      };
    }));
  }

  /** Item ids stay as documented with one engine; with several, each engine's ids are prefixed so they never collide. */
  protected itemId(base: string, engine: string): string {
    return this.forest.isMulti ? `engine:${engine}/${base}` : base;
  }

  protected fire(change: Change<N>): void {
    // A full refresh renders the visible rows again, and they report their next change again.
    if (change === undefined) {
      this.rowClock.forgetAll();
      this.agedWhileExpanded.clear();
      if (!this.rootAsked || this.rootAsksWaiting > 0) return;
    }
    this._onDidChangeTreeData.fire(change);
  }

  /** VS Code types children as mutable arrays but only reads them; the trees' cached arrays are handed out as they are. */
  private mutable(nodes: ReadonlyArray<N | EngineRootNode>): Array<N | EngineRootNode> {
    return nodes as Array<N | EngineRootNode>;
  }

  private syncEngines(): void {
    const sessions = this.deps.engines.all;
    const wasMulti = this.forest.isMulti;
    this.forest.setEngines(sessions.map((session) => session.id));
    for (const session of [...this.sessionBindings.keys()]) {
      if (!sessions.includes(session)) this.sessionBindings.delete(session);
    }
    for (const session of sessions) {
      if (this.sessionBindings.has(session)) continue;
      const tree = this.forest.tree(session.id);
      if (tree) this.bind(session, tree);
    }
    if (wasMulti !== this.forest.isMulti) {
      this.rootsServed = false;
      this.onLayoutChanged();
    }
    this.updateDescription();
    this.fire(undefined);
  }

  private bind(session: EngineSession, tree: T): void {
    const binding = this.sessionBindings.lifetimeOf(session);
    const model = session.model;
    this.resetTree(tree, model);
    binding.add(
      model.onDidChange((change) => {
        // The view's message says when rows are a saved listing, and goes when the engine's own arrives.
        if (change.full || change.relisted) this.updateDescription();
        const plan = this.applyChange(tree, change, model);
        if (this.filterDescription() !== undefined) this.updateDescription();
        if (plan.all) this.fire(this.forest.refreshTargetFor(session.id));
        else if (plan.nodes.length > 0) this.fire([...plan.nodes]);
      }),
    );
    binding.add(
      model.onDidChangeState((state) => {
        this.updateDescription();
        // Connected follows the listing, whose change has just refreshed the rows (a second refresh would make VS Code
        // fetch them all again); an engine row's status redraws through onDidChangeStatus.
        if (state === 'unreachable') this.fire(this.forest.refreshTargetFor(session.id));
      }),
    );
    // Version info arrives after connecting: only the root row shows it.
    binding.add(
      session.onDidChangeStatus(() => {
        const root = this.forest.isMulti ? this.forest.root(session.id) : undefined;
        if (root) this.fire(root);
      }),
    );
  }

  /** Says again how many rows the filter shows; the description is sent to the workbench only when its text changes. */
  protected updateDescription(): void {
    const only = this.forest.isMulti ? undefined : this.deps.engines.all[0];
    showViewHeader(this.view, viewStatus(only, () => this.filterDescription(), Date.now()));
  }
}
