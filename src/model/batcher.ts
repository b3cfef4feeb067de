/**
 * Coalesces a burst of engine events into one unit of work. `docker run` alone emits create, attach,
 * start within a few milliseconds; they become one fetch of that container. A flush is armed only when
 * an event arrives, so nothing fires while the engine is quiet. Flushes never overlap: events that
 * arrive during one are gathered for the next.
 */
import type { EngineEvent } from '../engine';
import { toDisposable, type IDisposable } from '../common/lifecycle';
import { committedImage, containerEffect, imageNeedsRefetch, isCommitEvent } from './actions';

export type ContainerWork = 'refetch' | 'remove';

const STRENGTH: Record<ContainerWork, number> = { refetch: 0, remove: 1 };

export interface PendingWork {
  /** Container id → what to do; the strongest wins (remove over refetch). */
  readonly containers: Map<string, ContainerWork>;
  /** Image ids or references to fetch. */
  readonly images: Set<string>;
  /** A commit whose event names no image (Podman's), and no image event follows: list the images once. */
  relistImages: boolean;
}

export type Scheduler = (run: () => void, delayMs: number) => IDisposable;

export const timeoutScheduler: Scheduler = (run, delayMs) => {
  const handle = setTimeout(run, delayMs);
  return toDisposable(() => clearTimeout(handle));
};

/** Short enough to stay far under the 50 ms event-to-tree budget, long enough to merge a burst. */
export const DEFAULT_WINDOW_MS = 4;

export class EventBatcher implements IDisposable {
  private pending: PendingWork = emptyWork();
  private armed: IDisposable | undefined;
  private running: Promise<void> | undefined;
  private pausedCount = 0;
  private disposed = false;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    private readonly processWork: (work: PendingWork) => Promise<void>,
    private readonly onError: (error: unknown) => void,
    private readonly scheduler: Scheduler = timeoutScheduler,
    private readonly windowMs: number = DEFAULT_WINDOW_MS,
  ) {}

  /** Records what an event asks for; returns whether it asked for anything. */
  add(event: EngineEvent): boolean {
    const id = event.Actor?.ID;
    let wanted = false;
    if (event.Type === 'container' && id) {
      const effect = containerEffect(event.Action);
      if (effect !== 'ignore') {
        const previous = this.pending.containers.get(id);
        if (previous === undefined || STRENGTH[effect] > STRENGTH[previous]) this.pending.containers.set(id, effect);
        wanted = true;
      }
      const image = committedImage(event);
      if (image) {
        this.pending.images.add(image);
        wanted = true;
      } else if (isCommitEvent(event)) {
        this.pending.relistImages = true;
        wanted = true;
      }
    } else if (event.Type === 'image' && id && imageNeedsRefetch(event.Action)) {
      this.pending.images.add(id);
      wanted = true;
    }
    if (wanted) this.arm();
    return wanted;
  }

  /** Holds flushes back (while a full listing is in flight, so older list data never overwrites newer). */
  pause(): IDisposable {
    this.pausedCount++;
    let released = false;
    return {
      dispose: () => {
        if (released) return;
        released = true;
        this.pausedCount--;
        this.arm();
      },
    };
  }

  /** Drops what is pending (a full listing is about to replace everything anyway). */
  clear(): void {
    this.pending = emptyWork();
    this.armed?.dispose();
    this.armed = undefined;
    this.notifyIfIdle();
  }

  get isIdle(): boolean {
    return !this.running && !this.armed && isEmpty(this.pending);
  }

  /** Resolves once nothing is pending or running. */
  whenIdle(): Promise<void> {
    if (this.isIdle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  dispose(): void {
    this.disposed = true;
    this.armed?.dispose();
    this.armed = undefined;
    this.pending = emptyWork();
    this.notifyIfIdle();
  }

  private arm(): void {
    if (this.disposed || this.armed || this.running || this.pausedCount > 0 || isEmpty(this.pending)) {
      this.notifyIfIdle();
      return;
    }
    this.armed = this.scheduler(() => {
      this.armed = undefined;
      this.flush();
    }, this.windowMs);
  }

  private flush(): void {
    if (this.disposed || this.pausedCount > 0 || isEmpty(this.pending)) {
      this.notifyIfIdle();
      return;
    }
    const work = this.pending;
    this.pending = emptyWork();
    this.running = this.processWork(work)
      .catch((error: unknown) => this.onError(error))
      .finally(() => {
        this.running = undefined;
        this.arm();
      });
  }

  private notifyIfIdle(): void {
    if (!this.isIdle && !(this.disposed && !this.running)) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}

function emptyWork(): PendingWork {
  return { containers: new Map(), images: new Set(), relistImages: false };
}

function isEmpty(work: PendingWork): boolean {
  return work.containers.size === 0 && work.images.size === 0 && !work.relistImages;
}
