/** The Images tree: one row per tag, untagged images once, per engine. Shape in ImageTree and EngineForest (vscode-free). */
import * as vscode from 'vscode';
import type { EngineModel } from '../model/engineModel';
import type { ModelChange } from '../model/modelChange';
import type { EngineSession } from '../model/session';
import { isEngineRoot, type EngineRootNode } from '../views/engineForest';
import { EngineTreeView, type RefreshPlanLike } from '../views/engineTreeView';
import { filterDescription, filterNoticeItem, summedCounts, type FilterableView } from '../views/filterRows';
import { filterApplies, imageMatches, NO_FILTER, type FilterNoticeRow, type RowFilter } from '../views/rowFilter';
import { presentImage, type ImageUsage } from '../views/presentation';
import { toTreeItem } from '../views/treeItems';
import type { SessionsDeps } from '../workbench/deps';
import type { ImageLayersCache } from '../engine';
import { ImageLayerRows, isImageChildRow, type ImageChildRow } from './layerRows';
import { ImageTree, type ImageNode } from './tree';

function usageOf(node: ImageNode, session: EngineSession): ImageUsage {
  const image = session.model.containersUsing(node.key);
  return { row: node.tag === undefined ? image : session.model.containersUsingTag(node.key, node.tag), image };
}

/** A row of the view: an image's, one below it (its Layers), or the one saying the filter hides them all. */
export type ImageRowNode = ImageNode | FilterNoticeRow | ImageChildRow;

export class ImagesView extends EngineTreeView<ImageRowNode, ImageTree> implements FilterableView {
  private filter: RowFilter = NO_FILTER;
  /** One notice row per engine, so that VS Code keeps one element for it across refreshes. */
  private readonly notices = new Map<string, FilterNoticeRow>();
  private readonly layers: ImageLayerRows;

  constructor(deps: SessionsDeps, layerCache: ImageLayersCache) {
    super(deps, 'berth.images', { canSelectMany: true, showCollapseAll: false });
    this.layers = new ImageLayerRows(deps, layerCache, (row) => this.fire(row));
    this._register(this.view.onDidExpandElement(({ element }) => {
      if (!isEngineRoot(element) && isImageChildRow(element)) this.layers.expanded(element);
    }));
    this.start();
  }

  override getChildren(node?: ImageRowNode | EngineRootNode): vscode.ProviderResult<Array<ImageRowNode | EngineRootNode>> {
    if (node?.kind === 'image') return [this.layers.layersRowOf(node)];
    if (node !== undefined && !isEngineRoot(node) && isImageChildRow(node)) return this.layers.children(node);
    return super.getChildren(node);
  }

  override getParent(node: ImageRowNode | EngineRootNode): ImageRowNode | EngineRootNode | undefined {
    if (!isEngineRoot(node) && isImageChildRow(node)) return node.parent;
    return super.getParent(node);
  }

  /** Selects the rows of an image (e.g. one just committed or pulled) in an engine's tree (the current one's by default). */
  async reveal(key: string, engine: string = this.deps.session.id): Promise<void> {
    const [first] = this.forest.tree(engine)?.nodesOf(key) ?? [];
    // A row the filter hides is not in the view: there is nothing to select.
    if (first && imageMatches(first.record, this.filter)) await this.revealRow(first);
  }

  /** Shows only the rows that pass FILTER (NO_FILTER: all), in every engine's tree; new rows from events respect it. */
  setFilter(filter: RowFilter): void {
    this.filter = filter;
    for (const session of this.deps.engines.all) this.forest.tree(session.id)?.reset(session.model.images(), filter);
    this.updateDescription();
    this.fire(undefined);
  }

  protected override filterDescription(): string | undefined {
    return filterDescription(filterApplies(this.filter), summedCounts(this.engineTrees()));
  }

  protected override filterNotice(engine: string): ImageRowNode | undefined {
    if (!filterApplies(this.filter)) return undefined;
    let notice = this.notices.get(engine);
    if (!notice) {
      notice = { kind: 'filterNotice', engine };
      this.notices.set(engine, notice);
    }
    return notice;
  }

  protected createTree(engine: string): ImageTree {
    return new ImageTree(engine, this.filter);
  }

  protected resetTree(tree: ImageTree, model: EngineModel): void {
    tree.reset(model.images(), this.filter);
  }

  protected applyChange(tree: ImageTree, change: ModelChange, model: EngineModel): RefreshPlanLike<ImageRowNode> {
    return tree.apply(change, () => model.images());
  }

  protected itemFor(node: ImageRowNode, session: EngineSession): vscode.TreeItem {
    if (node.kind === 'filterNotice') return filterNoticeItem('images', this.filter, node.engine);
    if (isImageChildRow(node)) return this.layers.item(node);
    // Not cached: the container count lives outside the record, and image rows are few.
    const presentation = presentImage(node, usageOf(node, session), Date.now());
    this.rowClock.track(node, presentation.changesAt);
    return toTreeItem(this.itemId(`image:${node.key}:${node.tag ?? '<untagged>'}`, node.engine), presentation, vscode.TreeItemCollapsibleState.Collapsed, 'on hover');
  }

  protected tooltipFor(node: ImageRowNode, session: EngineSession): string {
    if (node.kind === 'filterNotice' || isImageChildRow(node)) return '';
    return presentImage(node, usageOf(node, session), Date.now()).tooltip;
  }

  protected onLayoutChanged(): void {
    // Nothing cached.
  }
}
