/**
 * The Containers tree. The shape lives in ContainerTree (vscode-free); this provider only turns nodes into
 * cached TreeItems and forwards the tree's refresh plan, so one event refreshes one row.
 */
import * as vscode from 'vscode';
import { Disposable, DisposableStore } from '../../common/lifecycle';
import {
  ContainerTree,
  type ContainerNode,
  type ContainerTreeNode,
  type ContainerTreeOptions,
} from '../../model/containerTree';
import { presentContainer, presentGroup } from '../../model/presentation';
import type { ContainerRecord } from '../../model/records';
import type { EngineModel } from '../../model/engineModel';
import type { Ctx } from '../../ctx';
import { toTreeItem } from '../treeItems';

type Change = ContainerTreeNode | ContainerTreeNode[] | undefined;

export class ContainersView extends Disposable implements vscode.TreeDataProvider<ContainerTreeNode> {
  private readonly tree: ContainerTree;
  private readonly view: vscode.TreeView<ContainerTreeNode>;
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<Change>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  /** Items per record object: a record is replaced when its container changes, so the cache never goes stale. */
  private itemCache = new WeakMap<ContainerRecord, vscode.TreeItem>();
  private readonly modelListeners = this._register(new DisposableStore());
  private modelBinding: DisposableStore | undefined;
  private groupBy: ContainerTreeOptions['groupBy'];

  constructor(private readonly ctx: Ctx) {
    super();
    this.groupBy = ctx.settings.groupBy;
    this.tree = new ContainerTree({ showAll: ctx.settings.showAll, groupBy: ctx.settings.groupBy });
    this.view = this._register(
      vscode.window.createTreeView('berth.containers', {
        treeDataProvider: this,
        canSelectMany: true,
        showCollapseAll: true,
      }),
    );
    this.bind(ctx.model);
    this._register(ctx.onDidChangeSession((session) => this.bind(session.model)));
    this._register(
      ctx.onDidChangeSettings((settings) => {
        if (settings.showAll === this.tree.showAll && settings.groupBy === this.groupBy) return;
        this.groupBy = settings.groupBy;
        this.tree.reset(this.ctx.model.containers(), { showAll: settings.showAll, groupBy: settings.groupBy });
        this._onDidChangeTreeData.fire(undefined);
      }),
    );
  }

  get treeView(): vscode.TreeView<ContainerTreeNode> {
    return this.view;
  }

  /** The nodes selected in the view (for multi-select commands invoked by keybinding or palette). */
  get selection(): readonly ContainerTreeNode[] {
    return this.view.selection;
  }

  node(id: string): ContainerNode | undefined {
    return this.tree.node(id);
  }

  getTreeItem(node: ContainerTreeNode): vscode.TreeItem {
    if (node.kind === 'group') {
      return toTreeItem(
        `group:${node.project}`,
        presentGroup(node.project, this.tree.groupCounts(node)),
        vscode.TreeItemCollapsibleState.Expanded,
      );
    }
    let item = this.itemCache.get(node.record);
    if (!item) {
      item = toTreeItem(`container:${node.id}`, presentContainer(node.record, Date.now()));
      this.itemCache.set(node.record, item);
    }
    return item;
  }

  getChildren(node?: ContainerTreeNode): vscode.ProviderResult<ContainerTreeNode[]> {
    const model = this.ctx.model;
    if (node === undefined && model.state === 'connecting') {
      // The first listing is on its way: let the view show its progress bar instead of a false "empty".
      return model.whenConnected().then(
        () => this.children(),
        () => [],
      );
    }
    if (model.state === 'unreachable') return [];
    return this.children(node);
  }

  /** VS Code types children as mutable arrays but only reads them; the tree's cached arrays are handed out as they are. */
  private children(node?: ContainerTreeNode): ContainerTreeNode[] {
    return this.tree.children(node) as ContainerTreeNode[];
  }

  getParent(node: ContainerTreeNode): ContainerTreeNode | undefined {
    return this.tree.parent(node);
  }

  async reveal(id: string): Promise<void> {
    const node = this.tree.node(id);
    if (node?.visible) await this.view.reveal(node, { select: true, focus: false });
  }

  private bind(model: EngineModel): void {
    if (this.modelBinding) this.modelListeners.delete(this.modelBinding);
    const binding = this.modelListeners.add(new DisposableStore());
    this.modelBinding = binding;
    this.itemCache = new WeakMap();
    this.tree.reset(model.containers());
    binding.add(
      model.onDidChange((change) => {
        const plan = this.tree.apply(change, () => model.containers());
        if (plan.all) this._onDidChangeTreeData.fire(undefined);
        else if (plan.nodes.length > 0) this._onDidChangeTreeData.fire([...plan.nodes]);
      }),
    );
    binding.add(model.onDidChangeState((state) => this.onState(state)));
    this.onState(model.state);
    this._onDidChangeTreeData.fire(undefined);
  }

  private onState(state: EngineModel['state']): void {
    // The welcome content cannot show dynamic text, so the endpoint goes into the view's title description.
    this.view.description = state === 'unreachable' ? `unreachable: ${this.ctx.session.endpointDisplay}` : undefined;
    if (state === 'unreachable' || state === 'connected') this._onDidChangeTreeData.fire(undefined);
  }
}
