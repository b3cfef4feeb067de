/** Bounded concurrency: at most `limit` pieces of work at once, so a big batch overlaps without flooding the engine. */

/** Runs `work` on each item with at most `limit` at once, in the order given. `work` must not throw. */
export async function forEachBounded<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
