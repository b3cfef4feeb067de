/**
 * The Containers tree. The shape lives in ContainerTree (vscode-free, one per engine) and EngineForest; this
 * provider only turns nodes into cached TreeItems and forwards each tree's refresh plan, so one event refreshes one row.
 */
import * as vscode from 'vscode';
import { toDisposable, type IDisposable } from '../common/lifecycle';
import type { EngineModel } from '../model/engineModel';
import type { ModelChange } from '../model/modelChange';
import type { ContainerRecord } from '../model/records';
import type { EngineSession } from '../model/session';
import { EngineTreeView, type RefreshPlanLike } from '../views/engineTreeView';
import { containerTooltip, presentContainer, presentGroup } from '../views/presentation';
import { toTreeItem } from '../views/treeItems';
import { ContextKey } from '../workbench/contextKey';
import type { SessionsDeps, SettingsDeps } from '../workbench/deps';
import { ContainerTree, type ContainerNode, type ContainerTreeNode, type ContainerTreeOptions } from './tree';

/** What a feature adds to a container row as it is drawn (live stats, the last health output). */
export interface ContainerRowDecoration {
  /** Appended to the description after ` · `. */
  readonly description?: string | undefined;
  /** Markdown appended to the tooltip. */
  readonly tooltip?: string | undefined;
}
export type ContainerRowDecorator = (node: ContainerNode) => ContainerRowDecoration | undefined;

/** Which of Show All / Show Running the palette and the view's title offer. */
const showAllContext = new ContextKey<boolean>('berth.containers.showAll');

export class ContainersView extends EngineTreeView<ContainerTreeNode, ContainerTree> {
  /**
   * Items per record object: a record is replaced when its container changes, and an item whose relative time
   * moved on (`changesAt` passed) is made again, so the cache never goes stale.
   */
  private itemCache = new WeakMap<ContainerRecord, { readonly item: vscode.TreeItem; readonly changesAt: number | undefined }>();
  private options: ContainerTreeOptions;
  private decorator: ContainerRowDecorator | undefined;
  /** Compose groups the user collapsed: their members are not on screen. */
  private readonly collapsedGroups = new Set<string>();
  private readonly _onDidChangeRows = this._register(new vscode.EventEmitter<void>());
  /** The rows on screen may have changed: the view was shown or hidden, a group folded, the tree changed. */
  readonly onDidChangeRows = this._onDidChangeRows.event;

  constructor(protected override readonly deps: SessionsDeps & SettingsDeps) {
    super(deps, 'berth.containers', { canSelectMany: true, showCollapseAll: true });
    this.options = optionsOf(deps.settings);
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
        const next = optionsOf(settings);
        if (next.showAll === this.options.showAll && next.groupBy === this.options.groupBy && next.onlyUnhealthy === this.options.onlyUnhealthy) return;
        this.options = next;
        for (const session of this.deps.engines.all) {
          this.forest.tree(session.id)?.reset(session.model.containers(), this.options);
        }
        this.fire(undefined);
      }),
    );
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

  /** One decorator (the stats feature); its rows are drawn again when it says so with `redraw`. */
  setDecorator(decorator: ContainerRowDecorator): IDisposable {
    this.decorator = decorator;
    this.fire(undefined);
    return toDisposable(() => {
      if (this.decorator !== decorator) return;
      this.decorator = undefined;
      this.fire(undefined);
    });
  }

  /** Draws these rows again, in one refresh. */
  redraw(rows: readonly ContainerNode[]): void {
    if (rows.length > 0) this.fire([...rows]);
  }

  async reveal(id: string, engine: string = this.deps.session.id): Promise<void> {
    const node = this.node(id, engine);
    if (node?.visible) await this.view.reveal(node, { select: true, focus: false });
  }

  protected createTree(engine: string): ContainerTree {
    return new ContainerTree(this.options, engine);
  }

  protected resetTree(tree: ContainerTree, model: EngineModel): void {
    tree.reset(model.containers(), this.options);
  }

  protected applyChange(tree: ContainerTree, change: ModelChange, model: EngineModel): RefreshPlanLike<ContainerTreeNode> {
    return tree.apply(change, () => model.containers());
  }

  protected itemFor(node: ContainerTreeNode, session: EngineSession): vscode.TreeItem {
    if (node.kind === 'group') {
      const tree = this.forest.tree(session.id);
      const counts = tree ? tree.groupCounts(node) : { running: 0, total: 0 };
      return toTreeItem(this.itemId(`group:${node.project}`, node.engine), presentGroup(node.project, counts), vscode.TreeItemCollapsibleState.Expanded);
    }
    const now = Date.now();
    let cached = this.itemCache.get(node.record);
    if (!cached || (cached.changesAt !== undefined && cached.changesAt <= now)) {
      const presentation = presentContainer(node.record, now);
      const item = toTreeItem(this.itemId(`container:${node.id}`, node.engine), presentation, vscode.TreeItemCollapsibleState.None, 'on hover');
      cached = { item, changesAt: presentation.changesAt };
      this.itemCache.set(node.record, cached);
    }
    this.rowClock.track(node, cached.changesAt);
    const decoration = this.decorator?.(node);
    if (decoration?.description === undefined) return cached.item;
    // The cached item stays as the record made it; the live part goes on a copy.
    const decorated = Object.assign(new vscode.TreeItem(cached.item.label ?? ''), cached.item);
    decorated.description = `${typeof cached.item.description === 'string' ? cached.item.description : ''} · ${decoration.description}`;
    return decorated;
  }

  protected tooltipFor(node: ContainerTreeNode, session: EngineSession): string {
    if (node.kind === 'container') {
      const extra = this.decorator?.(node)?.tooltip;
      const base = containerTooltip(node.record, Date.now());
      return extra === undefined ? base : `${base}\n\n${extra}`;
    }
    const counts = this.forest.tree(session.id)?.groupCounts(node) ?? { running: 0, total: 0 };
    return presentGroup(node.project, counts).tooltip;
  }

  protected onLayoutChanged(): void {
    this.itemCache = new WeakMap();
  }
}

function optionsOf(settings: SettingsDeps['settings']): ContainerTreeOptions {
  return { showAll: settings.showAll, groupBy: settings.groupBy, onlyUnhealthy: settings.onlyUnhealthy };
}
