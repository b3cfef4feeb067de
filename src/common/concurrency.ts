/**
 * Bounded concurrency: the one helper every multi-action uses (stop several, stop all, a Compose group's actions),
 * so slow operations overlap without flooding the engine with one request per selected item.
 */

/** How many operations run at once by default: enough that slow stops overlap, few enough not to flood the engine. */
export const DEFAULT_CONCURRENCY = 8;

/**
 * Runs `work` on each item with at most `limit` at once, starting them in the order given. `work` must not throw
 * (report each failure inside it): one failure must not leave the other items undone. Stops starting new items once
 * `signal` is aborted; the ones under way finish on their own signal.
 */
export async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Waits MS, or less if SIGNAL aborts first; never rejects (a loop that waits checks the signal itself). */
export function pauseUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Starts `start` on up to `ahead` items of `source` at once and yields the results in the source's order, so the work
 * on the next items overlaps the handling of this one (a build context reads its next files while one goes into the
 * tar). A failure surfaces when its turn comes; the items already started are left to settle.
 */
export async function* inOrderAhead<T, R>(source: Iterable<T> | AsyncIterable<T>, ahead: number, start: (item: T) => Promise<R>): AsyncGenerator<R, void, undefined> {
  if (!Number.isInteger(ahead) || ahead < 1) throw new RangeError(`ahead must be a positive integer, got ${ahead}`);
  const started: Array<Promise<R>> = [];
  const take = (): Promise<R> => started.shift() as Promise<R>;
  for await (const item of source) {
    const work = start(item);
    // Awaited in its turn below; until then a rejection must not count as unhandled.
    work.catch(() => undefined);
    started.push(work);
    if (started.length >= ahead) yield await take();
  }
  while (started.length > 0) yield await take();
}
