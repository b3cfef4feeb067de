/** The Images tree: one row per tag, untagged images once. Shape in ImageTree (vscode-free). */
import * as vscode from 'vscode';
import { Disposable, DisposableStore } from '../../common/lifecycle';
import { ImageTree, type ImageNode } from '../../model/imageTree';
import { presentImage } from '../../model/presentation';
import type { EngineModel } from '../../model/engineModel';
import type { Ctx } from '../../ctx';
import { toTreeItem } from '../treeItems';

type Change = ImageNode | ImageNode[] | undefined;

export class ImagesView extends Disposable implements vscode.TreeDataProvider<ImageNode> {
  private readonly tree = new ImageTree();
  private readonly view: vscode.TreeView<ImageNode>;
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<Change>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly modelListeners = this._register(new DisposableStore());
  private modelBinding: DisposableStore | undefined;

  constructor(private readonly ctx: Ctx) {
    super();
    this.view = this._register(
      vscode.window.createTreeView('berth.images', { treeDataProvider: this, canSelectMany: true }),
    );
    this.bind(ctx.model);
    this._register(ctx.onDidChangeSession((session) => this.bind(session.model)));
  }

  get selection(): readonly ImageNode[] {
    return this.view.selection;
  }

  getTreeItem(node: ImageNode): vscode.TreeItem {
    // Not cached: the container count lives outside the record, and image rows are few.
    return toTreeItem(
      `image:${node.key}:${node.tag ?? '<untagged>'}`,
      presentImage(node, this.ctx.model.containersUsing(node.key), Date.now()),
    );
  }

  getChildren(node?: ImageNode): vscode.ProviderResult<ImageNode[]> {
    if (node) return [];
    const model = this.ctx.model;
    if (model.state === 'connecting') {
      return model.whenConnected().then(
        () => this.children(),
        () => [],
      );
    }
    if (model.state === 'unreachable') return [];
    return this.children();
  }

  /** VS Code types children as mutable arrays but only reads them; the tree's cached arrays are handed out as they are. */
  private children(): ImageNode[] {
    return this.tree.children() as ImageNode[];
  }

  getParent(): undefined {
    return undefined;
  }

  /** Selects the rows of an image (e.g. one just committed or pulled). */
  async reveal(key: string): Promise<void> {
    const [first] = this.tree.nodesOf(key);
    if (first) await this.view.reveal(first, { select: true, focus: false });
  }

  private bind(model: EngineModel): void {
    if (this.modelBinding) this.modelListeners.delete(this.modelBinding);
    const binding = this.modelListeners.add(new DisposableStore());
    this.modelBinding = binding;
    this.tree.reset(model.images());
    binding.add(
      model.onDidChange((change) => {
        const plan = this.tree.apply(change, () => model.images());
        if (plan.all) this._onDidChangeTreeData.fire(undefined);
        else if (plan.nodes.length > 0) this._onDidChangeTreeData.fire([...plan.nodes]);
      }),
    );
    binding.add(model.onDidChangeState((state) => this.onState(state)));
    this.onState(model.state);
    this._onDidChangeTreeData.fire(undefined);
  }

  private onState(state: EngineModel['state']): void {
    this.view.description = state === 'unreachable' ? `unreachable: ${this.ctx.session.endpointDisplay}` : undefined;
    if (state === 'unreachable' || state === 'connected') this._onDidChangeTreeData.fire(undefined);
  }
}
