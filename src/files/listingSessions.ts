/**
 * The listing helpers (src/engine/files/listingSession.ts) the Files provider keeps, one per container whose folders are
 * being opened, each ended after a few idle seconds: expanding folder after folder reuses one helper, and a container
 * nobody browses has none. No `vscode` here.
 */
import { Disposable, toDisposable } from '../common/lifecycle';
import type { EngineClient } from '../engine';
import { type FileEntry, ListingSession } from '../engine/files';

/** How long a helper waits for its next listing before it ends. */
export const LISTING_IDLE_MS = 10_000;

interface Kept {
  readonly session: Promise<ListingSession>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class ListingSessions extends Disposable {
  private readonly kept = new Map<EngineClient, Map<string, Kept>>();

  constructor(
    private readonly idleMs = LISTING_IDLE_MS,
    private readonly open: (client: EngineClient, containerId: string) => Promise<ListingSession> = (client, id) => ListingSession.open(client, id),
  ) {
    super();
    this._register(toDisposable(() => this.closeAll()));
  }

  /** Helpers running now, over every engine. */
  get count(): number {
    let count = 0;
    for (const byId of this.kept.values()) count += byId.size;
    return count;
  }

  /** One level of `dir` through the container's helper, started if it has none. A failed helper is dropped. */
  async list(client: EngineClient, containerId: string, dir: string): Promise<FileEntry[]> {
    if (this.isDisposed) throw new Error('The Files provider was disposed');
    const kept = this.keep(client, containerId);
    if (kept.timer !== undefined) clearTimeout(kept.timer);
    kept.timer = undefined;
    try {
      const session = await kept.session;
      const entries = await session.list(dir);
      if (!session.busy) kept.timer = setTimeout(() => this.close(client, containerId, kept), this.idleMs);
      return entries;
    } catch (error) {
      this.close(client, containerId, kept);
      throw error;
    }
  }

  private keep(client: EngineClient, containerId: string): Kept {
    let byId = this.kept.get(client);
    if (!byId) {
      byId = new Map();
      this.kept.set(client, byId);
    }
    const existing = byId.get(containerId);
    if (existing) return existing;
    const kept: Kept = { session: this.open(client, containerId), timer: undefined };
    // A helper that never started is dropped by the listing that awaited it; nothing else may see it reject unhandled.
    kept.session.catch(() => undefined);
    byId.set(containerId, kept);
    return kept;
  }

  private close(client: EngineClient, containerId: string, kept: Kept): void {
    if (kept.timer !== undefined) clearTimeout(kept.timer);
    const byId = this.kept.get(client);
    if (byId?.get(containerId) === kept) byId.delete(containerId);
    if (byId?.size === 0) this.kept.delete(client);
    void kept.session.then((session) => session.close(), () => undefined);
  }

  private closeAll(): void {
    for (const [client, byId] of [...this.kept]) for (const [id, kept] of [...byId]) this.close(client, id, kept);
  }
}
