/**
 * Issue 13's event figure: the time from a volume event to its row, with N volumes listed. The real store
 * (src/volumes/store.ts, the one the Volumes view binds) follows a real engine over its own client; a stand-in for the
 * vscode half renders what VS Code asks for after the store's change (a full refresh: every row through the real
 * `presentVolume`, sorted as `getChildren` returns them). The clock starts at the engine's event timestamp
 * (`timeNano`, same host clock) and stops when the changed row has been rendered (or is gone). Another client makes
 * the volumes, as another tool would.
 */
import type { ContainerSummary, EngineClient } from '../src/engine';
import { presentVolume } from '../src/volumes/presentation';
import { VolumeStore } from '../src/volumes/store';
import { wallMs } from './extension-tree';
import { summarize, type Summary } from './stats';

export interface VolumeEventResult {
  readonly event: 'create' | 'destroy';
  readonly volumes: number;
  readonly total: Summary;
  readonly rowsRendered: number;
}

interface Waiter {
  readonly name: string;
  /** true: the row must be shown; false: it must be gone. */
  readonly present: boolean;
  readonly resolve: (renderedAt: number) => void;
}

/** Renders the view as VS Code would after each change of the store, and tells waiters when their row is right. */
class VolumeRig {
  readonly store: VolumeStore;
  private readonly waiters: Waiter[] = [];
  /** Rows rendered by the last refresh. */
  rowsRendered = 0;

  constructor(client: EngineClient, containers: () => Iterable<ContainerSummary>) {
    this.store = new VolumeStore(
      {
        listVolumes: (options) => client.volumes.list(options),
        inspectVolume: (name, options) => client.volumes.inspect(name, options),
        diskUsage: (options) => client.system.df(options),
        events: (options) => client.system.events(options),
      },
      containers,
      () => undefined,
    );
    this.store.onDidChange(() => this.render());
  }

  waitFor(name: string, present: boolean): Promise<number> {
    return new Promise((resolve) => this.waiters.push({ name, present, resolve }));
  }

  private render(): void {
    const now = Date.now();
    const shown = new Set<string>();
    let rendered = 0;
    for (const volume of this.store.volumes()) {
      presentVolume(volume, this.store.usersOf(volume.Name), this.store.usageOf(volume.Name), now);
      shown.add(volume.Name);
      rendered++;
    }
    this.rowsRendered = rendered;
    const at = wallMs();
    for (let index = this.waiters.length - 1; index >= 0; index--) {
      const waiter = this.waiters[index];
      if (waiter && shown.has(waiter.name) === waiter.present) {
        this.waiters.splice(index, 1);
        waiter.resolve(at);
      }
    }
  }
}

/**
 * Each volume event's engine timestamp (wall-clock ms) by `name:action`, from the admin client's own stream. No label
 * filter: volume events carry only the driver in their attributes.
 */
async function eventTimes(admin: EngineClient, signal: AbortSignal, seen: Map<string, number>): Promise<void> {
  try {
    for await (const event of admin.system.events({ filters: { type: ['volume'] }, signal })) {
      const name = event.Actor?.ID || event.Actor?.Attributes?.['name'];
      const nano = Number(event.timeNano ?? (event.time ?? 0) * 1e9);
      if (name) seen.set(`${name}:${event.Action ?? ''}`, nano / 1e6);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

async function eventTime(seen: Map<string, number>, key: string): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const at = seen.get(key);
    if (at !== undefined) return at;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`No ${key} event within 2 s`);
}

/**
 * With the store following `viewClient` and `count` volumes already on the engine: `cycles` volumes are created and
 * destroyed from `admin`, one at a time, and each event → row time is taken. Volumes carry `labels`.
 */
export async function measureVolumeEvents(viewClient: EngineClient, admin: EngineClient, options: { count: number; cycles: number; prefix: string; labels: Record<string, string>; containers: () => Iterable<ContainerSummary> }): Promise<VolumeEventResult[]> {
  const rig = new VolumeRig(viewClient, options.containers);
  const stopEvents = new AbortController();
  const seen = new Map<string, number>();
  const watching = eventTimes(admin, stopEvents.signal, seen);
  const created: number[] = [];
  const destroyed: number[] = [];
  try {
    rig.store.start();
    while (!rig.store.listed) await new Promise((resolve) => setTimeout(resolve, 10));
    if (rig.store.volumes().length < options.count) throw new Error(`The store listed ${rig.store.volumes().length} volumes, fewer than ${options.count}`);
    // The store's event stream opens after its listing: give it a moment, then warm up with one cycle.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let cycle = -1; cycle < options.cycles; cycle++) {
      const name = `${options.prefix}-event-${cycle + 1}`;
      const shown = rig.waitFor(name, true);
      await admin.volumes.create({ Name: name, Labels: options.labels });
      const shownAt = await shown;
      const createdAt = await eventTime(seen, `${name}:create`);
      const gone = rig.waitFor(name, false);
      await admin.volumes.remove(name);
      const goneAt = await gone;
      const destroyedAt = await eventTime(seen, `${name}:destroy`);
      if (cycle < 0) continue;
      created.push(shownAt - createdAt);
      destroyed.push(goneAt - destroyedAt);
    }
  } finally {
    stopEvents.abort();
    await watching;
    rig.store.dispose();
  }
  return [
    { event: 'create', volumes: options.count, total: summarize(created), rowsRendered: rig.rowsRendered },
    { event: 'destroy', volumes: options.count, total: summarize(destroyed), rowsRendered: rig.rowsRendered },
  ];
}

