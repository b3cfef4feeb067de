/**
 * One engine's volumes, kept current by the engine's volume events while someone looks (start/stop follow the
 * view's visibility: no listing and no event stream while it is hidden). Who uses a volume comes from the containers
 * the engine model already follows (their mounts); sizes only from `/system/df`, which is fetched on demand or when
 * the view is shown and the figures are older than a minute, never on the idle path. No `vscode` here.
 */
import { shortId } from '../common/format';
import { Emitter } from '../common/emitter';
import { isBerthHelper, isEngineError, type ContainerSummary, type DiskUsage, type EngineEvent, type ListFilters, type Volume } from '../engine';
import { FollowedStore, type StoreLog } from '../model/followedStore';

/** The slice of the engine client the store uses; tests may pass an in-memory one. */
export interface VolumeSource {
  listVolumes(options: { filters?: ListFilters; signal?: AbortSignal }): Promise<Volume[]>;
  inspectVolume(name: string, options: { signal?: AbortSignal }): Promise<Volume>;
  diskUsage(options: { signal?: AbortSignal }): Promise<DiskUsage>;
  events(options: { since?: string; filters?: ListFilters; signal?: AbortSignal }): AsyncIterable<EngineEvent>;
}

/** A change of the store: everything, or these volumes' rows. */
export interface VolumeChange {
  readonly all: boolean;
  readonly names: readonly string[];
}

export interface VolumeUser {
  readonly id: string;
  readonly name: string;
}

/** How old disk-usage figures may be before showing the view fetches them again. */
export const DISK_USAGE_MAX_AGE_MS = 60_000;
/** How long a shown Volumes view waits before it asks for disk usage: the listings the user waits for go first. */
export const DISK_USAGE_SHOW_DELAY_MS = 1_000;

export class VolumeStore extends FollowedStore {
  private readonly byName = new Map<string, Volume>();
  private users = new Map<string, VolumeUser[]>();
  private sizes = new Map<string, { size: number; refCount: number }>();
  private _diskUsage: { usage: DiskUsage; at: number } | undefined;
  private diskUsageRequest: Promise<DiskUsage> | undefined;
  private _listed = false;
  private readonly _onDidChange = this._register(new Emitter<VolumeChange>());
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidChangeDiskUsage = this._register(new Emitter<DiskUsage>());
  readonly onDidChangeDiskUsage = this._onDidChangeDiskUsage.event;

  constructor(
    private readonly source: VolumeSource,
    private readonly containers: () => Iterable<ContainerSummary>,
    log: StoreLog,
    now: () => number = Date.now,
  ) {
    super({ type: 'volume', name: 'Volumes', events: (options) => source.events(options) }, log, now);
    this.recomputeUsers();
  }

  get listed(): boolean {
    return this._listed;
  }

  get diskUsageFetchedAt(): number | undefined {
    return this._diskUsage?.at;
  }

  get lastDiskUsage(): DiskUsage | undefined {
    return this._diskUsage?.usage;
  }

  /** Volumes by name. */
  volumes(): Volume[] {
    return [...this.byName.values()].sort((a, b) => a.Name.localeCompare(b.Name));
  }

  volume(name: string): Volume | undefined {
    return this.byName.get(name);
  }

  usersOf(name: string): readonly VolumeUser[] {
    return this.users.get(name) ?? [];
  }

  /** Bytes and reference count from the last disk-usage figures, if any. */
  usageOf(name: string): { size: number; refCount: number } | undefined {
    return this.sizes.get(name);
  }

  /** The containers changed (the engine model said so): who uses which volume may have changed too. */
  containersChanged(): void {
    const before = this.users;
    this.recomputeUsers();
    const changed = new Set<string>();
    for (const name of new Set([...before.keys(), ...this.users.keys()])) {
      if (userKey(before.get(name)) !== userKey(this.users.get(name))) changed.add(name);
    }
    const names = [...changed].filter((name) => this.byName.has(name));
    if (names.length > 0) this._onDidChange.fire({ all: false, names });
  }

  /** Disk usage: the cached figures when younger than `maxAgeMs`, else fetched (one request at a time). */
  async diskUsage(maxAgeMs: number, signal?: AbortSignal): Promise<DiskUsage> {
    const cached = this._diskUsage;
    if (cached && this.now() - cached.at < maxAgeMs) return cached.usage;
    this.diskUsageRequest ??= this.source.diskUsage({ signal }).finally(() => {
      this.diskUsageRequest = undefined;
    });
    const usage = await this.diskUsageRequest;
    this._diskUsage = { usage, at: this.now() };
    this.sizes = new Map();
    for (const volume of usage.Volumes ?? []) {
      if (volume.UsageData) this.sizes.set(volume.Name, { size: volume.UsageData.Size, refCount: volume.UsageData.RefCount });
    }
    this._onDidChangeDiskUsage.fire(usage);
    this._onDidChange.fire({ all: true, names: [] });
    return usage;
  }

  private recomputeUsers(): void {
    const users = new Map<string, VolumeUser[]>();
    for (const container of this.containers()) {
      // Berth's own helpers (a volume's file browser among them) are not users of a volume.
      if (isBerthHelper(container)) continue;
      for (const mount of (container.Mounts ?? []) as Array<{ Type?: unknown; Name?: unknown }>) {
        if (mount.Type !== 'volume' || typeof mount.Name !== 'string') continue;
        const list = users.get(mount.Name) ?? [];
        list.push({ id: container.Id, name: container.Names[0]?.replace(/^\//, '') ?? shortId(container.Id) });
        users.set(mount.Name, list);
      }
    }
    this.users = users;
  }

  protected async list(signal: AbortSignal): Promise<void> {
    const volumes = await this.source.listVolumes({ signal });
    this.byName.clear();
    for (const volume of volumes) this.byName.set(volume.Name, volume);
    this.recomputeUsers();
    this._listed = true;
    this.log('debug', `Listed ${volumes.length} volumes`);
    this._onDidChange.fire({ all: true, names: [] });
  }

  protected async answer(event: EngineEvent, signal: AbortSignal): Promise<void> {
    const action = event.Action ?? '';
    // A prune removes its volumes without one destroy event each (dockerd logs a single `prune`): list again.
    if (action === 'prune') {
      await this.list(signal);
      return;
    }
    // Podman leaves Actor.ID empty and names the volume in the attributes.
    const name = event.Actor?.ID || event.Actor?.Attributes?.['name'];
    if (name === undefined || name === '') return;
    if (action === 'destroy' || action === 'remove') {
      if (this.byName.delete(name)) this._onDidChange.fire({ all: true, names: [] });
      return;
    }
    if (action === 'create' || !this.byName.has(name)) {
      try {
        this.byName.set(name, await this.source.inspectVolume(name, { signal }));
      } catch (error) {
        // Removed again before we asked: its destroy event follows.
        if (!isEngineError(error, 'not-found')) throw error;
        return;
      }
      this._onDidChange.fire({ all: true, names: [] });
      return;
    }
    // mount / unmount: the users come from the containers, which the engine model refreshes on its own events.
    this.recomputeUsers();
    this._onDidChange.fire({ all: false, names: [name] });
  }
}

function userKey(users: readonly VolumeUser[] | undefined): string {
  return users === undefined ? '' : users.map((user) => user.id).join(',');
}
