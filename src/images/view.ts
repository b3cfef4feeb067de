/** The Images tree: one row per tag, untagged images once, per engine. Shape in ImageTree and EngineForest (vscode-free). */
import type * as vscode from 'vscode';
import type { EngineModel } from '../model/engineModel';
import type { ModelChange } from '../model/modelChange';
import type { EngineSession } from '../model/session';
import { EngineTreeView, type RefreshPlanLike } from '../views/engineTreeView';
import { presentImage, type ImageUsage } from '../views/presentation';
import { toTreeItem } from '../views/treeItems';
import type { SessionsDeps } from '../workbench/deps';
import { ImageTree, type ImageNode } from './tree';

function usageOf(node: ImageNode, session: EngineSession): ImageUsage {
  const image = session.model.containersUsing(node.key);
  return { row: node.tag === undefined ? image : session.model.containersUsingTag(node.key, node.tag), image };
}

export class ImagesView extends EngineTreeView<ImageNode, ImageTree> {
  constructor(deps: SessionsDeps) {
    super(deps, 'berth.images', { canSelectMany: true, showCollapseAll: false });
    this.start();
  }

  /** Selects the rows of an image (e.g. one just committed or pulled) in an engine's tree (the current one's by default). */
  async reveal(key: string, engine: string = this.deps.session.id): Promise<void> {
    const [first] = this.forest.tree(engine)?.nodesOf(key) ?? [];
    if (first) await this.revealRow(first);
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
    const presentation = presentImage(node, usageOf(node, session), Date.now());
    this.rowClock.track(node, presentation.changesAt);
    return toTreeItem(this.itemId(`image:${node.key}:${node.tag ?? '<untagged>'}`, node.engine), presentation, undefined, 'on hover');
  }

  protected tooltipFor(node: ImageNode, session: EngineSession): string {
    return presentImage(node, usageOf(node, session), Date.now()).tooltip;
  }

  protected onLayoutChanged(): void {
    // Nothing cached.
  }
}
