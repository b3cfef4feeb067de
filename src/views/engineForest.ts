/**
 * The tree shape across engines. With one engine, a view shows that engine's tree as it is (no extra level).
 * With several, each engine is a root node and its tree hangs below it; a change that re-renders a whole
 * engine's tree then refreshes only that engine's root node. No `vscode` here.
 */
export interface EngineRootNode {
  readonly kind: 'engine';
  readonly engine: string;
}

/** What a per-engine tree offers: the container tree and the image tree both fit. */
export interface PerEngineTree<N> {
  children(parent?: N): readonly N[];
  parent?(node: N): N | undefined;
}

export class EngineForest<N extends { readonly engine: string }, T extends PerEngineTree<N>> {
  private readonly entries = new Map<string, { readonly root: EngineRootNode; readonly tree: T }>();
  private order: EngineRootNode[] = [];

  constructor(private readonly createTree: (engine: string) => T) {}

  /** More than one engine: roots are engine nodes. */
  get isMulti(): boolean {
    return this.order.length > 1;
  }

  roots(): readonly EngineRootNode[] {
    return this.order;
  }

  /** Sets the engines in display order. An engine that stays keeps its tree and root node (so its rows keep their state). */
  setEngines(engines: readonly string[]): { readonly added: readonly string[]; readonly removed: readonly string[] } {
    const wanted = new Set(engines);
    const removed = [...this.entries.keys()].filter((engine) => !wanted.has(engine));
    for (const engine of removed) this.entries.delete(engine);
    const added: string[] = [];
    for (const engine of engines) {
      if (this.entries.has(engine)) continue;
      this.entries.set(engine, { root: { kind: 'engine', engine }, tree: this.createTree(engine) });
      added.push(engine);
    }
    this.order = [...wanted].map((engine) => this.entries.get(engine)!.root);
    return { added, removed };
  }

  tree(engine: string): T | undefined {
    return this.entries.get(engine)?.tree;
  }

  root(engine: string): EngineRootNode | undefined {
    return this.entries.get(engine)?.root;
  }

  children(parent?: N | EngineRootNode): ReadonlyArray<N | EngineRootNode> {
    if (parent === undefined) {
      if (this.isMulti) return this.order;
      const only = this.order[0];
      return only ? this.entries.get(only.engine)!.tree.children() : [];
    }
    const tree = this.entries.get(parent.engine)?.tree;
    if (!tree) return [];
    return isEngineRoot(parent) ? tree.children() : tree.children(parent);
  }

  parent(node: N | EngineRootNode): N | EngineRootNode | undefined {
    if (isEngineRoot(node)) return undefined;
    const inTree = this.entries.get(node.engine)?.tree.parent?.(node);
    if (inTree) return inTree;
    return this.isMulti ? this.root(node.engine) : undefined;
  }

  /**
   * What to refresh when an engine's whole tree changed: the engine's root node with several engines,
   * everything (undefined) with one.
   */
  refreshTargetFor(engine: string): EngineRootNode | undefined {
    return this.isMulti ? this.root(engine) : undefined;
  }
}

export function isEngineRoot(node: unknown): node is EngineRootNode {
  return typeof node === 'object' && node !== null && (node as { kind?: unknown }).kind === 'engine';
}
