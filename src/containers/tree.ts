/**
 * The shape of the Containers tree: which containers are visible (all, or running only), how they
 * group (by compose project), and in what order. A model change is applied incrementally and answered
 * with the nodes to refresh, so the view re-renders one row instead of the whole list. No `vscode` here.
 */
import { SortedList } from '../common/sortedList';
import type { GroupBy } from '../config';
import type { ModelChange } from '../model/modelChange';
import { containerHealth, isRunningState, type ContainerRecord } from '../model/records';
import type { ChildRow } from '../views/childRows';
import { carryContainerText, containerMatches, filterApplies, type FilterCounts, type FilterNoticeRow, type RowFilter } from '../views/rowFilter';

export type { GroupBy };

export interface ContainerTreeOptions {
  readonly showAll: boolean;
  readonly groupBy: GroupBy;
  /** Only containers whose healthcheck fails (default false). */
  readonly onlyUnhealthy?: boolean | undefined;
  /** The view's filter (text, workspace only): rows that fail it are hidden, and the view counts them. */
  readonly filter?: RowFilter | undefined;
}

/** docker ps's short id. */
const SHORT_ROW_KEY_LENGTH = 12;

export interface ContainerNode {
  readonly kind: 'container';
  /** The engine the container runs on (its session's id). */
  readonly engine: string;
  readonly id: string;
  /**
   * What names its row in the view: the id's first 12 characters (docker ps's short id), or the whole id when another
   * container of this tree holds those. VS Code pays for every character of 5,000 row ids on each listing.
   */
  readonly rowKey: string;
  record: ContainerRecord;
  /** The group holding it while visible and grouped. */
  group: GroupNode | undefined;
  visible: boolean;
}

export interface GroupNode {
  readonly kind: 'group';
  readonly engine: string;
  readonly project: string;
  readonly members: SortedList<ContainerNode>;
}

export type ContainerTreeNode = ContainerNode | GroupNode;

/** A row of the view: the tree's, or one under a container that another feature fills (views/childRows.ts). */
export type ContainerRowNode = ContainerTreeNode | ChildRow | FilterNoticeRow;

/** What the view must refresh: everything, or just these nodes. */
export interface RefreshPlan {
  readonly all: boolean;
  readonly nodes: readonly ContainerTreeNode[];
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compareContainers(a: ContainerNode, b: ContainerNode): number {
  return collator.compare(a.record.name, b.record.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function compareGroups(a: GroupNode, b: GroupNode): number {
  return collator.compare(a.project, b.project);
}

export class ContainerTree {
  private readonly nodes = new Map<string, ContainerNode>();
  /** Short row keys and the container holding each (see ContainerNode.rowKey). */
  private readonly shortKeys = new Map<string, string>();
  private readonly groups = new Map<string, GroupNode>();
  private readonly groupList = new SortedList<GroupNode>(compareGroups);
  private readonly loose = new SortedList<ContainerNode>(compareContainers);
  private rootCache: readonly ContainerTreeNode[] | undefined;
  /** Kept as rows come and go, so that counting costs nothing per event. */
  private shownCount = 0;
  private unfilteredCount = 0;

  /** `engine` is stamped on every node, so a command invoked on a row knows which engine to ask. */
  constructor(
    private options: ContainerTreeOptions,
    readonly engine = '',
  ) {}

  /** Rebuilds from scratch (a full listing, or changed options). */
  reset(records: Iterable<ContainerRecord>, options: ContainerTreeOptions = this.options): void {
    this.options = options;
    this.nodes.clear();
    this.shortKeys.clear();
    this.groups.clear();
    this.groupList.clear();
    this.loose.clear();
    this.rootCache = undefined;
    this.shownCount = 0;
    this.unfilteredCount = 0;
    const loose: ContainerNode[] = [];
    for (const record of records) {
      const node: ContainerNode = this.containerNode(record);
      this.nodes.set(record.id, node);
      if (!this.isUnfilteredVisible(record)) continue;
      this.unfilteredCount++;
      if (!this.passesFilter(record)) continue;
      node.visible = true;
      this.shownCount++;
      const project = this.projectOf(record);
      if (project === undefined) {
        loose.push(node);
        continue;
      }
      const group = this.groupFor(project);
      group.members.insert(node);
      node.group = group;
    }
    this.loose.reset(loose);
  }

  /** Applies the container part of a model change; `all` lists every record for a full change. */
  apply(change: ModelChange, all: () => Iterable<ContainerRecord>): RefreshPlan {
    if (change.full) {
      this.reset(all());
      return { all: true, nodes: [] };
    }
    const dirty = new Set<ContainerTreeNode>();
    let rootDirty = false;
    const markRoot = (): void => {
      rootDirty = true;
    };
    for (const record of change.containers.removed) {
      const node = this.nodes.get(record.id);
      if (!node) continue;
      this.detach(node, dirty, markRoot);
      this.countUnfiltered(node.record, undefined);
      this.nodes.delete(record.id);
      if (this.shortKeys.get(node.rowKey) === record.id) this.shortKeys.delete(node.rowKey);
    }
    for (const record of change.containers.added) {
      const existing = this.nodes.get(record.id);
      if (existing) this.detach(existing, dirty, markRoot);
      this.countUnfiltered(existing?.record, record);
      const node: ContainerNode = this.containerNode(record);
      this.nodes.set(record.id, node);
      this.attach(node, dirty, markRoot);
    }
    for (const { previous, current } of change.containers.updated) {
      const node = this.nodes.get(current.id);
      if (!node) {
        const created: ContainerNode = this.containerNode(current);
        this.countUnfiltered(undefined, current);
        this.nodes.set(current.id, created);
        this.attach(created, dirty, markRoot);
        continue;
      }
      if (this.options.filter !== undefined) carryContainerText(previous, current);
      this.countUnfiltered(node.record, current);
      const staysInPlace =
        node.visible === this.isVisible(current) &&
        previous.name === current.name &&
        this.projectOf(previous) === this.projectOf(current);
      if (staysInPlace) {
        node.record = current;
        if (node.visible) {
          dirty.add(node);
          // The group's description counts running members.
          if (node.group && previous.state !== current.state) dirty.add(node.group);
        }
        continue;
      }
      this.detach(node, dirty, markRoot);
      node.record = current;
      this.attach(node, dirty, markRoot);
    }
    if (rootDirty) this.rootCache = undefined;
    return rootDirty ? { all: true, nodes: [] } : { all: false, nodes: [...dirty] };
  }

  children(parent?: ContainerTreeNode): readonly ContainerTreeNode[] {
    if (parent?.kind === 'container') return [];
    if (parent?.kind === 'group') return parent.members.view;
    this.rootCache ??= [...this.groupList.view, ...this.loose.view];
    return this.rootCache;
  }

  parent(node: ContainerTreeNode): GroupNode | undefined {
    return node.kind === 'container' ? node.group : undefined;
  }

  node(id: string): ContainerNode | undefined {
    return this.nodes.get(id);
  }

  /** Rows shown, and rows the view would show without its filter. */
  counts(): FilterCounts {
    return { shown: this.shownCount, total: this.unfilteredCount };
  }

  get filtered(): boolean {
    return filterApplies(this.options.filter);
  }

  /** Running and total members of a group. */
  groupCounts(group: GroupNode): { running: number; total: number } {
    let running = 0;
    for (const member of group.members.view) if (isRunningState(member.record.state)) running++;
    return { running, total: group.members.length };
  }

  private containerNode(record: ContainerRecord): ContainerNode {
    return { kind: 'container', engine: this.engine, id: record.id, rowKey: this.rowKeyFor(record.id), record, group: undefined, visible: false };
  }

  /** The short key while no other container holds it (a row keeps its key for as long as it lives), else the id. */
  private rowKeyFor(id: string): string {
    const short = id.slice(0, SHORT_ROW_KEY_LENGTH);
    const holder = this.shortKeys.get(short);
    if (holder === undefined) this.shortKeys.set(short, id);
    return holder === undefined || holder === id ? short : id;
  }

  private isVisible(record: ContainerRecord): boolean {
    return this.isUnfilteredVisible(record) && this.passesFilter(record);
  }

  private isUnfilteredVisible(record: ContainerRecord): boolean {
    if (this.options.onlyUnhealthy === true) return containerHealth(record) === 'unhealthy';
    return this.options.showAll || isRunningState(record.state);
  }

  private passesFilter(record: ContainerRecord): boolean {
    const filter = this.options.filter;
    return filter === undefined || containerMatches(record, filter);
  }

  /** A record replaced by another (either may be undefined: added, removed) in the count of unfiltered rows. */
  private countUnfiltered(before: ContainerRecord | undefined, after: ContainerRecord | undefined): void {
    if (before !== undefined && this.isUnfilteredVisible(before)) this.unfilteredCount--;
    if (after !== undefined && this.isUnfilteredVisible(after)) this.unfilteredCount++;
  }

  private projectOf(record: ContainerRecord): string | undefined {
    return this.options.groupBy === 'composeProject' ? record.composeProject : undefined;
  }

  private groupFor(project: string): GroupNode {
    let group = this.groups.get(project);
    if (!group) {
      group = { kind: 'group', engine: this.engine, project, members: new SortedList(compareContainers) };
      this.groups.set(project, group);
      this.groupList.insert(group);
    }
    return group;
  }

  private attach(node: ContainerNode, dirty: Set<ContainerTreeNode>, markRoot: () => void): void {
    if (!this.isVisible(node.record)) return;
    node.visible = true;
    this.shownCount++;
    const project = this.projectOf(node.record);
    if (project === undefined) {
      this.loose.insert(node);
      markRoot();
      return;
    }
    const isNew = !this.groups.has(project);
    const group = this.groupFor(project);
    group.members.insert(node);
    node.group = group;
    if (isNew) markRoot();
    else dirty.add(group);
  }

  private detach(node: ContainerNode, dirty: Set<ContainerTreeNode>, markRoot: () => void): void {
    dirty.delete(node);
    if (!node.visible) return;
    node.visible = false;
    this.shownCount--;
    const group = node.group;
    node.group = undefined;
    if (!group) {
      this.loose.remove(node);
      markRoot();
      return;
    }
    group.members.remove(node);
    if (group.members.length > 0) {
      dirty.add(group);
      return;
    }
    this.groups.delete(group.project);
    this.groupList.remove(group);
    dirty.delete(group);
    markRoot();
  }
}
