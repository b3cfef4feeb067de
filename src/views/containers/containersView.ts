/**
 * The Containers tree. The shape lives in ContainerTree (vscode-free, one per engine) and EngineForest; this
 * provider only turns nodes into cached TreeItems and forwards each tree's refresh plan, so one event refreshes one row.
 */
import * as vscode from 'vscode';
import { ContainerTree, type ContainerNode, type ContainerTreeNode, type ContainerTreeOptions } from '../../model/containerTree';
import type { EngineRootNode } from '../../model/engineForest';
import type { EngineModel, ModelChange } from '../../model/engineModel';
import { containerTooltip, presentContainer, presentGroup } from '../../model/presentation';
import type { ContainerRecord } from '../../model/records';
import type { EngineSession } from '../../model/session';
import type { Ctx } from '../../ctx';
import { toTreeItem } from '../treeItems';
import { EngineTreeView, type RefreshPlanLike } from '../engineTreeView';

export type ContainersViewNode = ContainerTreeNode | EngineRootNode;

export class ContainersView extends EngineTreeView<ContainerTreeNode, ContainerTree> {
  /**
   * Items per record object: a record is replaced when its container changes, and an item whose relative time
   * moved on (`changesAt` passed) is made again, so the cache never goes stale.
   */
  private itemCache = new WeakMap<ContainerRecord, { readonly item: vscode.TreeItem; readonly changesAt: number | undefined }>();
  private options: ContainerTreeOptions;

  constructor(ctx: Ctx) {
    super(ctx, 'berth.containers', { canSelectMany: true, showCollapseAll: true });
    this.options = { showAll: ctx.settings.showAll, groupBy: ctx.settings.groupBy };
    this.start();
    this._register(
      ctx.onDidChangeSettings((settings) => {
        if (settings.showAll === this.options.showAll && settings.groupBy === this.options.groupBy) return;
        this.options = { showAll: settings.showAll, groupBy: settings.groupBy };
        for (const session of this.ctx.engines.all) {
          this.forest.tree(session.id)?.reset(session.model.containers(), this.options);
        }
        this.fire(undefined);
      }),
    );
  }

  /** The nodes selected in the view (for multi-select commands invoked by keybinding or palette). */
  get selection(): readonly ContainersViewNode[] {
    return this.view.selection;
  }

  /** A container's node in an engine's tree (the current engine's by default). */
  node(id: string, engine: string = this.ctx.session.id): ContainerNode | undefined {
    return this.forest.tree(engine)?.node(id);
  }

  async reveal(id: string, engine: string = this.ctx.session.id): Promise<void> {
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
    return cached.item;
  }

  protected tooltipFor(node: ContainerTreeNode, session: EngineSession): string {
    if (node.kind === 'container') return containerTooltip(node.record, Date.now());
    const counts = this.forest.tree(session.id)?.groupCounts(node) ?? { running: 0, total: 0 };
    return presentGroup(node.project, counts).tooltip;
  }

  protected onLayoutChanged(): void {
    this.itemCache = new WeakMap();
  }
}
