/**
 * The Containers tree. The shape lives in ContainerTree (vscode-free, one per engine) and EngineForest; this
 * provider only turns nodes into cached TreeItems and forwards each tree's refresh plan, so one event refreshes one row.
 */
import * as vscode from 'vscode';
import { groupProjects } from '../engine';
import type { EngineModel } from '../model/engineModel';
import type { ModelChange } from '../model/modelChange';
import type { ContainerRecord } from '../model/records';
import type { EngineSession } from '../model/session';
import { EngineTreeView, type RefreshPlanLike } from '../views/engineTreeView';
import { containerTooltip, presentContainer, presentGroup, type GroupPlace } from '../views/presentation';
import { toTreeItem } from '../views/treeItems';
import { ContextKey } from '../workbench/contextKey';
import type { SessionsDeps, SettingsDeps } from '../workbench/deps';
import { ContainerTree, type ContainerNode, type ContainerTreeNode, type ContainerTreeOptions } from './tree';

/** Working dir and config files of a group, from its members' Compose labels. */
function groupPlace(summaries: Parameters<typeof groupProjects>[0]): GroupPlace {
  const project = groupProjects(summaries)[0];
  return { workingDir: project?.workingDir, configFiles: project?.configFiles ?? [] };
}

/** Which of Show All / Show Running the palette and the view's title offer. */
const showAllContext = new ContextKey<boolean>('berth.containers.showAll');

export class ContainersView extends EngineTreeView<ContainerTreeNode, ContainerTree> {
  /**
   * Items per record object: a record is replaced when its container changes, and an item whose relative time
   * moved on (`changesAt` passed) is made again, so the cache never goes stale.
   */
  private itemCache = new WeakMap<ContainerRecord, { readonly item: vscode.TreeItem; readonly changesAt: number | undefined }>();
  private options: ContainerTreeOptions;

  constructor(protected override readonly deps: SessionsDeps & SettingsDeps) {
    super(deps, 'berth.containers', { canSelectMany: true, showCollapseAll: true });
    this.options = { showAll: deps.settings.showAll, groupBy: deps.settings.groupBy };
    showAllContext.set(this.options.showAll);
    this.start();
    this._register(
      deps.onDidChangeSettings((settings) => {
        showAllContext.set(settings.showAll);
        if (settings.showAll === this.options.showAll && settings.groupBy === this.options.groupBy) return;
        this.options = { showAll: settings.showAll, groupBy: settings.groupBy };
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
      return toTreeItem(this.itemId(`group:${node.project}`, node.engine), presentGroup(node.project, counts), vscode.TreeItemCollapsibleState.Expanded, 'on hover');
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
    return presentGroup(node.project, counts, groupPlace(node.members.view.map((member) => member.record.summary))).tooltip;
  }

  protected onLayoutChanged(): void {
    this.itemCache = new WeakMap();
  }
}
