/**
 * The shape of the Images tree: one node per tag, one node for an untagged image, tagged first in
 * tag order. Applied incrementally like the containers tree. No `vscode` here.
 */
import { SortedList } from '../common/sortedList';
import type { ModelChange } from '../model/modelChange';
import type { ImageRecord } from '../model/records';
import { untaggedLabel } from '../views/presentation';
import { filterApplies, imageMatches, NO_FILTER, type FilterCounts, type RowFilter } from '../views/rowFilter';

export interface ImageNode {
  readonly kind: 'image';
  /** The engine holding the image (its session's id). */
  readonly engine: string;
  /** The image's key (id without `sha256:`). */
  readonly key: string;
  /** The tag this node stands for; undefined for an untagged image. */
  readonly tag: string | undefined;
  readonly label: string;
  record: ImageRecord;
}

export interface ImageRefreshPlan {
  readonly all: boolean;
  readonly nodes: readonly ImageNode[];
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compareImages(a: ImageNode, b: ImageNode): number {
  if ((a.tag === undefined) !== (b.tag === undefined)) return a.tag === undefined ? 1 : -1;
  return collator.compare(a.label, b.label) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

export class ImageTree {
  private readonly byKey = new Map<string, ImageNode[]>();
  /** The rows shown: those of images that pass the filter. */
  private readonly list = new SortedList<ImageNode>(compareImages);
  /** Rows with and without the filter, kept as images come and go. */
  private unfilteredCount = 0;

  /** `engine` is stamped on every node, so a command invoked on a row knows which engine to ask. */
  constructor(
    readonly engine = '',
    private filter: RowFilter = NO_FILTER,
  ) {}

  reset(records: Iterable<ImageRecord>, filter: RowFilter = this.filter): void {
    this.filter = filter;
    this.byKey.clear();
    this.unfilteredCount = 0;
    const shown: ImageNode[] = [];
    for (const record of records) {
      const nodes = nodesFor(record, this.engine);
      this.byKey.set(record.key, nodes);
      this.unfilteredCount += nodes.length;
      if (imageMatches(record, this.filter)) shown.push(...nodes);
    }
    this.list.reset(shown);
  }

  /** Rows shown, and rows the view would show without its filter. */
  counts(): FilterCounts {
    return { shown: this.list.length, total: this.unfilteredCount };
  }

  get filtered(): boolean {
    return filterApplies(this.filter);
  }

  apply(change: ModelChange, all: () => Iterable<ImageRecord>): ImageRefreshPlan {
    if (change.full) {
      this.reset(all());
      return { all: true, nodes: [] };
    }
    let rootDirty = false;
    const dirty = new Set<ImageNode>();
    for (const record of change.images.removed) rootDirty = this.removeNodes(record.key) || rootDirty;
    for (const record of change.images.added) {
      this.removeNodes(record.key);
      this.addNodes(record);
      rootDirty = true;
    }
    for (const { previous, current } of change.images.updated) {
      const nodes = this.byKey.get(current.key);
      if (nodes && previous.tags.join('\n') === current.tags.join('\n') && imageMatches(previous, this.filter) === imageMatches(current, this.filter)) {
        for (const node of nodes) {
          node.record = current;
          dirty.add(node);
        }
        continue;
      }
      this.removeNodes(current.key);
      this.addNodes(current);
      rootDirty = true;
    }
    for (const key of change.images.usageChanged) for (const node of this.byKey.get(key) ?? []) dirty.add(node);
    return rootDirty ? { all: true, nodes: [] } : { all: false, nodes: [...dirty] };
  }

  children(): readonly ImageNode[] {
    return this.list.view;
  }

  nodesOf(key: string): readonly ImageNode[] {
    return this.byKey.get(key) ?? [];
  }

  private addNodes(record: ImageRecord): void {
    const nodes = nodesFor(record, this.engine);
    this.byKey.set(record.key, nodes);
    this.unfilteredCount += nodes.length;
    if (!imageMatches(record, this.filter)) return;
    for (const node of nodes) this.list.insert(node);
  }

  private removeNodes(key: string): boolean {
    const nodes = this.byKey.get(key);
    if (!nodes) return false;
    this.unfilteredCount -= nodes.length;
    // Rows of a filtered-out image are not in the list: looking for them there would cost a linear search each.
    const shown = nodes[0] !== undefined && imageMatches(nodes[0].record, this.filter);
    if (shown) for (const node of nodes) this.list.remove(node);
    this.byKey.delete(key);
    return true;
  }
}

function nodesFor(record: ImageRecord, engine: string): ImageNode[] {
  if (record.tags.length === 0) {
    return [{ kind: 'image', engine, key: record.key, tag: undefined, label: untaggedLabel(record.id), record }];
  }
  return record.tags.map((tag) => ({ kind: 'image', engine, key: record.key, tag, label: tag, record }));
}
