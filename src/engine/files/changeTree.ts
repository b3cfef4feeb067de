/**
 * A container's changes as a tree of paths, for views: each listed path is a node with its kind, and a parent the
 * engine did not list is a node without one. Adding a change walks its path once (linear in the bytes of all paths),
 * and past `maxNodes` nodes further changes are only counted (bounded), so a container that wrote millions of files
 * cannot exhaust the extension host.
 */
import type { ChangeKind, ContainerChange } from '../api';

export const DEFAULT_MAX_CHANGE_NODES = 100_000;

export interface ChangeNode {
  /** The last segment of the path ('' for the root). */
  readonly name: string;
  /** The absolute path, without empty segments ('/' for the root). */
  readonly path: string;
  /** Undefined for a directory that is only the parent of listed paths. */
  kind: ChangeKind | undefined;
  readonly children: Map<string, ChangeNode>;
}

export interface ChangeCounts {
  added: number;
  changed: number;
  deleted: number;
}

export class ChangeTree {
  readonly root: ChangeNode = { name: '', path: '/', kind: undefined, children: new Map() };
  readonly counts: ChangeCounts = { added: 0, changed: 0, deleted: 0 };
  private nodeCount = 0;
  /** Changes counted but left out of the tree because it reached its bound. */
  private leftOutCount = 0;
  private readonly byPath = new Map<string, ChangeNode>([['/', this.root]]);

  constructor(private readonly maxNodes = DEFAULT_MAX_CHANGE_NODES) {}

  get size(): number {
    return this.nodeCount;
  }

  get leftOut(): number {
    return this.leftOutCount;
  }

  add(change: ContainerChange): void {
    if (change.Kind === 0) this.counts.changed++;
    else if (change.Kind === 1) this.counts.added++;
    else this.counts.deleted++;
    const segments = change.Path.split('/').filter((segment) => segment !== '');
    const existing = this.byPath.get(`/${segments.join('/')}`);
    if (existing) {
      if (existing !== this.root) existing.kind = change.Kind;
      return;
    }
    if (this.nodeCount + segments.length > this.maxNodes) {
      this.leftOutCount++;
      return;
    }
    let node = this.root;
    let path = '';
    for (const segment of segments) {
      path += `/${segment}`;
      let child = node.children.get(segment);
      if (!child) {
        child = { name: segment, path, kind: undefined, children: new Map() };
        node.children.set(segment, child);
        this.byPath.set(path, child);
        this.nodeCount++;
      }
      node = child;
    }
    if (node !== this.root) node.kind = change.Kind;
  }

  addAll(changes: Iterable<ContainerChange>): void {
    for (const change of changes) this.add(change);
  }

  node(path: string): ChangeNode | undefined {
    return this.byPath.get(path);
  }

  /** A node's children, folders first, then by name (the order of a file explorer, stable whatever the engine's order). */
  static sortedChildren(node: ChangeNode): ChangeNode[] {
    return [...node.children.values()].sort((a, b) => {
      const folderFirst = Number(b.children.size > 0) - Number(a.children.size > 0);
      return folderFirst !== 0 ? folderFirst : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    });
  }
}
