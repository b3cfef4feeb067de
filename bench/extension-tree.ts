/**
 * Tree updates with thousands of containers: the time from an engine event to the Containers view having the
 * changed row, with the real model and tree code (src/model, which does not import vscode) in plain Node.
 *
 * TreeRig stands in for the vscode half of ContainersView: on every model change it applies the tree's refresh
 * plan and renders what VS Code would ask for (getTreeItem of each refreshed node, or getChildren of the root and
 * getTreeItem of every row on a full refresh), with the same per-record item cache. A row is "ready" once it is
 * rendered in its new state.
 */
import { performance } from 'node:perf_hooks';
import type { EngineClient, EngineEvent } from '../src/engine';
import { EngineModel } from '../src/model/engineModel';
import { ContainerTree, type ContainerTreeNode } from '../src/containers/tree';
import { presentContainer, presentGroup, type ItemPresentation } from '../src/views/presentation';
import type { ContainerRecord } from '../src/model/records';
import { timeoutScheduler, type Scheduler } from '../src/model/batcher';
import type { ModelSource } from '../src/model/source';
import { containerId, MemorySource } from './extension-memory-source';
import { summarize, type Summary } from './stats';
import { containerSpec } from '../test/support/containerSpec';

/** Wall clock in ms with sub-ms resolution, comparable with the engine's event `timeNano`. */
export function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

interface RowWaiter {
  readonly id: string;
  /** The state the row must show; undefined: the row must be gone. */
  readonly state: string | undefined;
  readonly resolve: (readyAt: number) => void;
}

export class TreeRig {
  readonly model: EngineModel;
  private readonly tree = new ContainerTree({ showAll: true, groupBy: 'none' });
  private itemCache = new WeakMap<ContainerRecord, ItemPresentation>();
  private readonly waiters: RowWaiter[] = [];
  /** wallMs() when the model's coalescing window last ran out and it started fetching. */
  lastFlushAt = 0;
  /** Rows rendered by the last change (1 when only the changed row was refreshed). */
  lastRendered = 0;

  constructor(source: ModelSource) {
    const scheduler: Scheduler = (run, delayMs) =>
      timeoutScheduler(() => {
        this.lastFlushAt = wallMs();
        run();
      }, delayMs);
    this.model = new EngineModel(source, { scheduler });
    this.model.onDidChange((change) => {
      const plan = this.tree.apply(change, () => this.model.containers());
      this.lastRendered = plan.all ? this.renderAll() : this.render(plan.nodes);
      this.settleWaiters();
    });
  }

  async connect(): Promise<void> {
    this.model.start();
    await this.model.whenConnected();
    this.renderAll();
  }

  /** Resolves with wallMs() at the moment the row is rendered in `state` (or gone, for undefined). */
  whenRow(id: string, state: string | undefined): Promise<number> {
    return new Promise((resolve) => {
      this.waiters.push({ id, state, resolve });
      this.settleWaiters();
    });
  }

  get rowCount(): number {
    return this.tree.children().length;
  }

  dispose(): void {
    this.model.dispose();
    this.itemCache = new WeakMap();
  }

  private renderAll(): number {
    const rows = this.tree.children();
    for (const node of rows) this.item(node);
    return rows.length;
  }

  private render(nodes: readonly ContainerTreeNode[]): number {
    for (const node of nodes) this.item(node);
    return nodes.length;
  }

  /** What getTreeItem computes, cached per record object as ContainersView does. */
  private item(node: ContainerTreeNode): ItemPresentation {
    if (node.kind === 'group') return presentGroup(node.project, this.tree.groupCounts(node));
    let item = this.itemCache.get(node.record);
    if (!item) {
      item = presentContainer(node.record, Date.now());
      this.itemCache.set(node.record, item);
    }
    return item;
  }

  private settleWaiters(): void {
    for (let index = this.waiters.length - 1; index >= 0; index--) {
      const waiter = this.waiters[index] as RowWaiter;
      const node = this.tree.node(waiter.id);
      const ready = waiter.state === undefined ? node === undefined : node?.visible === true && node.record.state === waiter.state && this.itemCache.has(node.record);
      if (!ready) continue;
      this.waiters.splice(index, 1);
      waiter.resolve(wallMs());
    }
  }
}

export interface TreeUpdateResult {
  /** `in-memory engine` or `real dockerd`. */
  readonly source: string;
  readonly containers: number;
  readonly event: string;
  /** Event (engine timestamp, or the moment the in-memory engine sent it) → row rendered, ms. */
  readonly total: Summary;
  /**
   * After the 4 ms coalescing window ran out → row rendered: fetching the one container and rendering it, ms.
   * Only in memory: on a real engine a stop is two events (kill, die) and the work starts with the first.
   */
  readonly afterWindow: Summary | undefined;
  /** Rows rendered per event (median). */
  readonly rowsRendered: number;
}

export interface TreeHeapResult {
  readonly source: string;
  readonly containers: number;
  /** Heap used by the model, tree and rendered rows after the first listing (after GC), bytes. */
  readonly afterListing: number;
  /** Heap growth over the measured events after a warm-up (after GC), bytes. */
  readonly overEvents: number;
  /** Events over which the growth was measured. */
  readonly events: number;
}

/** Cycles before the heap baseline of the event loop (caches and JIT settle). */
const ENGINE_WARMUP_CYCLES = 3;

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run the extension benchmark with node --expose-gc (npm run bench:extension does)');
  collect();
  collect();
}

function heapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

class Samples {
  readonly total: number[] = [];
  readonly afterWindow: number[] = [];
  readonly rows: number[] = [];

  add(eventAt: number, readyAt: number, rig: TreeRig): void {
    this.total.push(readyAt - eventAt);
    this.afterWindow.push(readyAt - rig.lastFlushAt);
    this.rows.push(rig.lastRendered);
  }

  result(source: string, containers: number, event: string, withWindow: boolean): TreeUpdateResult {
    return { source, containers, event, total: summarize(this.total), afterWindow: withWindow ? summarize(this.afterWindow) : undefined, rowsRendered: summarize(this.rows).median };
  }
}

/** The model and tree alone, fed by the in-memory engine: Berth's own cost per event. */
export async function measureMemoryTree(count: number, cycles: number): Promise<{ updates: TreeUpdateResult[]; heap: TreeHeapResult }> {
  const before = heapUsed();
  const source = new MemorySource(count);
  const rig = new TreeRig(source);
  await rig.connect();
  if (rig.rowCount !== count) throw new Error(`the tree shows ${rig.rowCount} rows, expected ${count}`);
  const afterListing = heapUsed() - before;
  const startStop = { start: new Samples(), die: new Samples() };
  const addRemove = { create: new Samples(), destroy: new Samples() };
  const step = Math.max(1, Math.floor(count / cycles));
  const warmup = Math.ceil(cycles / 10);
  let heapAfterWarmup = 0;
  for (let cycle = 0; cycle < cycles; cycle++) {
    if (cycle === warmup) heapAfterWarmup = heapUsed();
    const id = containerId(1 + ((cycle * step) % count));
    for (const [action, state] of [['start', 'running'], ['die', 'exited']] as const) {
      await rig.model.whenIdle();
      const ready = rig.whenRow(id, state);
      const sentAt = wallMs();
      source.change(id, action);
      startStop[action].add(sentAt, await ready, rig);
    }
    const extra = containerId(count + 1 + cycle);
    for (const [action, state] of [['create', 'created'], ['destroy', undefined]] as const) {
      await rig.model.whenIdle();
      const ready = rig.whenRow(extra, state);
      const sentAt = wallMs();
      source.change(extra, action, `bench-new-${cycle}`);
      addRemove[action].add(sentAt, await ready, rig);
    }
  }
  await rig.model.whenIdle();
  const growth = heapUsed() - heapAfterWarmup;
  rig.dispose();
  const label = 'in-memory engine';
  return {
    updates: [
      startStop.start.result(label, count, 'start', true),
      startStop.die.result(label, count, 'die (stop)', true),
      addRemove.create.result(label, count, 'create (adds a row)', true),
      addRemove.destroy.result(label, count, 'destroy (removes a row)', true),
    ],
    heap: { source: label, containers: count, afterListing, overEvents: growth, events: (cycles - warmup) * 4 },
  };
}

interface SeenEvent {
  readonly timeNanoMs: number;
  readonly receivedAt: number;
}

/** The engine client as the model's source, noting when each container event was stamped and received. */
function tappedSource(client: EngineClient, seen: Map<string, SeenEvent>): ModelSource {
  return {
    listContainers: (options) => client.containers.list(options),
    listImages: (options) => client.images.list(options),
    inspectImage: (name, options) => client.images.inspect(name, options),
    inspectContainer: (id, options) => client.containers.inspect(id, options),
    events: async function* (options) {
      for await (const event of client.system.events(options)) {
        const receivedAt = wallMs();
        const id = event.Actor?.ID;
        if (event.Type === 'container' && id) seen.set(`${id}:${event.Action}`, { timeNanoMs: eventTimeMs(event), receivedAt });
        yield event;
      }
    },
  };
}

function eventTimeMs(event: EngineEvent): number {
  return event.timeNano !== undefined ? event.timeNano / 1e6 : (event.time ?? 0) * 1000;
}

async function eventSeen(seen: Map<string, SeenEvent>, key: string): Promise<SeenEvent> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const found = seen.get(key);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`the engine never sent ${key}`);
}

/**
 * The same against a real dockerd holding `count` containers: a probe container is started and killed `cycles`
 * times from outside (another client), as `docker start` / `docker kill` would.
 */
export async function measureEngineTree(host: string, admin: EngineClient, probeId: string, count: number, cycles: number, makeClient: (host: string) => EngineClient): Promise<{ updates: TreeUpdateResult[]; heap: TreeHeapResult; berthReceive: Summary }> {
  const before = heapUsed();
  const client = makeClient(host);
  const seen = new Map<string, SeenEvent>();
  const rig = new TreeRig(tappedSource(client, seen));
  try {
    await rig.connect();
    if (rig.rowCount !== count) throw new Error(`the tree shows ${rig.rowCount} rows, expected ${count}`);
    const afterListing = heapUsed() - before;
    const start = new Samples();
    const die = new Samples();
    const delivery: number[] = [];
    let heapAfterWarmup = 0;
    for (let cycle = 0; cycle < cycles; cycle++) {
      if (cycle === ENGINE_WARMUP_CYCLES) heapAfterWarmup = heapUsed();
      seen.clear();
      // Nothing of the previous change may still be in flight: its fetch could pick up this one's state.
      await rig.model.whenIdle();
      const running = rig.whenRow(probeId, 'running');
      await admin.containers.start(probeId);
      const startedAt = await running;
      const startEvent = await eventSeen(seen, `${probeId}:start`);
      start.add(startEvent.timeNanoMs, startedAt, rig);
      delivery.push(startEvent.receivedAt - startEvent.timeNanoMs);

      await rig.model.whenIdle();
      const exited = rig.whenRow(probeId, 'exited');
      await admin.containers.kill(probeId);
      const exitedAt = await exited;
      const dieEvent = await eventSeen(seen, `${probeId}:die`);
      die.add(dieEvent.timeNanoMs, exitedAt, rig);
      delivery.push(dieEvent.receivedAt - dieEvent.timeNanoMs);
    }
    await rig.model.whenIdle();
    const growth = heapUsed() - heapAfterWarmup;
    const label = 'real dockerd';
    return {
      updates: [start.result(label, count, 'start', false), die.result(label, count, 'die (kill)', false)],
      heap: { source: label, containers: count, afterListing, overEvents: growth, events: (cycles - ENGINE_WARMUP_CYCLES) * 2 },
      berthReceive: summarize(delivery),
    };
  } finally {
    rig.dispose();
    await client.close();
  }
}

/** A container that runs until killed (busybox sleep as PID 1 ignores SIGTERM, so kill, never stop). */
export async function createProbeContainer(admin: EngineClient, image: string, labels: Record<string, string>): Promise<string> {
  const { Id } = await admin.containers.create(containerSpec(image, ['sleep', '3600'], { Labels: labels }), { name: 'bench-probe' });
  return Id;
}

