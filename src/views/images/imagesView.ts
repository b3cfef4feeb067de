/** The Images tree: one row per tag, untagged images once, per engine. Shape in ImageTree and EngineForest (vscode-free). */
import type * as vscode from 'vscode';
import { ImageTree, type ImageNode } from '../../model/imageTree';
import type { EngineRootNode } from '../../model/engineForest';
import type { EngineModel, ModelChange } from '../../model/engineModel';
import { presentImage } from '../../model/presentation';
import type { EngineSession } from '../../model/session';
import type { Ctx } from '../../ctx';
import { toTreeItem } from '../treeItems';
import { EngineTreeView, type RefreshPlanLike } from '../engineTreeView';

export type ImagesViewNode = ImageNode | EngineRootNode;

export class ImagesView extends EngineTreeView<ImageNode, ImageTree> {
  constructor(ctx: Ctx) {
    super(ctx, 'berth.images', { canSelectMany: true, showCollapseAll: false });
    this.start();
  }

  get selection(): readonly ImagesViewNode[] {
    return this.view.selection;
  }

  /** Selects the rows of an image (e.g. one just committed or pulled) in an engine's tree (the current one's by default). */
  async reveal(key: string, engine: string = this.ctx.session.id): Promise<void> {
    const [first] = this.forest.tree(engine)?.nodesOf(key) ?? [];
    if (first) await this.view.reveal(first, { select: true, focus: false });
  }

  protected createTree(engine: string): ImageTree {
    return new ImageTree(engine);
  }

  protected resetTree(tree: ImageTree, model: EngineModel): void {
    tree.reset(model.images());
  }

  protected applyChange(tree: ImageTree, change: ModelChange, model: EngineModel): RefreshPlanLike<ImageNode> {
    return tree.apply(change, () => model.images());
  }

  protected itemFor(node: ImageNode, session: EngineSession): vscode.TreeItem {
    // Not cached: the container count lives outside the record, and image rows are few.
    const presentation = presentImage(node, session.model.containersUsing(node.key), Date.now());
    this.rowClock.track(node, presentation.changesAt);
    return toTreeItem(this.itemId(`image:${node.key}:${node.tag ?? '<untagged>'}`, node.engine), presentation, undefined, 'on hover');
  }

  protected tooltipFor(node: ImageNode, session: EngineSession): string {
    return presentImage(node, session.model.containersUsing(node.key), Date.now()).tooltip;
  }

  protected onLayoutChanged(): void {
    // Nothing cached.
  }
}
