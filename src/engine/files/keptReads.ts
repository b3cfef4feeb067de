/**
 * Reads kept by key, for results that never go stale (what an image id names never changes): the first caller
 * starts the read, every caller while it runs shares it, and the result is kept, at most `maxEntries` of them and
 * `maxBytes` in all, the least recently used going first. A failed read is forgotten, so the next call tries again.
 *
 * A shared read runs under a signal of its own, not any caller's: a caller that cancels only stops waiting (its
 * promise rejects with `cancelled()`), and the read itself is aborted only once every caller waiting for it has gone.
 */
export interface KeptReadsOptions<T> {
  readonly maxEntries: number;
  readonly maxBytes?: number | undefined;
  /** Bytes a result holds, for `maxBytes`. */
  readonly sizeOf?: ((value: T) => number) | undefined;
}

interface Kept<T> {
  readonly promise: Promise<T>;
  readonly controller: AbortController;
  waiters: number;
  settled: boolean;
  size: number;
}

export class KeptReads<T> {
  private readonly kept = new Map<string, Kept<T>>();
  private keptBytes = 0;

  constructor(private readonly options: KeptReadsOptions<T>) {}

  /**
   * The result under `key`: kept, shared with a read under way, or read now by `read(signal)`. `signal` is this
   * caller's: when it aborts, this call rejects with `cancelled(reason)`.
   */
  get(key: string, read: (signal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined, cancelled: (reason: unknown) => Error): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(cancelled(signal.reason));
    let entry = this.kept.get(key);
    if (entry !== undefined) {
      this.kept.delete(key);
      this.kept.set(key, entry);
    } else {
      entry = this.start(key, read);
    }
    return this.wait(key, entry, signal, cancelled);
  }

  /** The result under `key` if it was read (or is being read), without reading. */
  peek(key: string): Promise<T> | undefined {
    return this.kept.get(key)?.promise;
  }

  /** Bytes of the results kept now (reads under way count once they end). */
  get bytes(): number {
    return this.keptBytes;
  }

  /** Reads under way (nobody waiting for a read means it was aborted). */
  get reading(): number {
    let count = 0;
    for (const entry of this.kept.values()) if (!entry.settled) count++;
    return count;
  }

  private start(key: string, read: (signal: AbortSignal) => Promise<T>): Kept<T> {
    const controller = new AbortController();
    const entry: Kept<T> = { promise: read(controller.signal), controller, waiters: 0, settled: false, size: 0 };
    this.kept.set(key, entry);
    entry.promise.then(
      (value) => {
        entry.settled = true;
        if (this.kept.get(key) !== entry) return;
        entry.size = this.options.sizeOf?.(value) ?? 0;
        this.keptBytes += entry.size;
        this.trim();
      },
      () => {
        entry.settled = true;
        if (this.kept.get(key) === entry) this.kept.delete(key);
      },
    );
    this.trim();
    return entry;
  }

  private wait(key: string, entry: Kept<T>, signal: AbortSignal | undefined, cancelled: (reason: unknown) => Error): Promise<T> {
    if (signal === undefined || entry.settled) {
      // A caller that cannot cancel waits for good.
      if (!entry.settled) entry.waiters++;
      return entry.promise;
    }
    entry.waiters++;
    return new Promise<T>((resolve, reject) => {
      const leave = (): void => {
        entry.waiters--;
        reject(cancelled(signal.reason));
        if (entry.waiters > 0 || entry.settled) return;
        if (this.kept.get(key) === entry) this.kept.delete(key);
        entry.controller.abort(signal.reason);
      };
      signal.addEventListener('abort', leave, { once: true });
      entry.promise.then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  private trim(): void {
    const maxBytes = this.options.maxBytes ?? Number.POSITIVE_INFINITY;
    while (this.kept.size > this.options.maxEntries || (this.keptBytes > maxBytes && this.kept.size > 0)) {
      const [oldestKey, oldest] = this.kept.entries().next().value as [string, Kept<T>];
      this.kept.delete(oldestKey);
      this.keptBytes -= oldest.size;
    }
  }
}
