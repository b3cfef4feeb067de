// Counts the work a stream splitter does, without a clock: while `run` runs, the primitives a splitter moves bytes
// and elements with are wrapped and charged for the size they touch. Bytes copied (Buffer.concat, copy, from),
// decoded (toString), scanned (indexOf: up to the match, or to the end), elements moved (shift, splice) and strings
// re-read (endsWith over a joined string, split) and parsed (JSON.parse). A linear splitter charges a bounded amount per input byte; one that
// re-joins or re-scans what it holds charges more for each byte as its input grows.

type Wrapped = [target: object, key: string, original: unknown];

export function countOperations(run: () => void): number {
  let count = 0;
  const wrapped: Wrapped[] = [];
  const wrap = (target: object, key: string, charge: (self: unknown, args: readonly unknown[], result: unknown) => number): void => {
    const slots = target as Record<string, unknown>;
    const original = slots[key] as (...args: unknown[]) => unknown;
    wrapped.push([target, key, original]);
    slots[key] = function (this: unknown, ...args: unknown[]): unknown {
      const result = original.apply(this, args);
      count += charge(this, args, result);
      return result;
    };
  };
  const bufferProto = Buffer.prototype as unknown as object;
  const length = (value: unknown): number => (value as { length: number }).length;
  wrap(Buffer, 'concat', (_self, _args, result) => length(result));
  wrap(Buffer, 'from', (_self, args, result) => (typeof args[0] === 'string' || args[0] instanceof Uint8Array ? length(result) : 0));
  wrap(bufferProto, 'copy', (_self, _args, result) => result as number);
  wrap(bufferProto, 'toString', (_self, _args, result) => length(result));
  wrap(bufferProto, 'indexOf', (self, args, result) => {
    const from = typeof args[1] === 'number' ? args[1] : 0;
    return Math.max(1, ((result as number) === -1 ? length(self) : (result as number)) - from);
  });
  wrap(Array.prototype, 'shift', (self) => length(self) + 1);
  wrap(Array.prototype, 'splice', (self) => length(self) + 1);
  wrap(String.prototype, 'endsWith', (self) => String(self).length);
  wrap(String.prototype, 'split', (self) => String(self).length);
  wrap(JSON, 'parse', (_self, args) => String(args[0]).length);
  try {
    run();
  } finally {
    for (const [target, key, original] of wrapped.reverse()) (target as Record<string, unknown>)[key] = original;
  }
  return count;
}

/** Asserts that four times the input costs at most eight times the operations (linear, with slack; quadratic is 16×). */
export function assertLinear(name: string, feed: (scale: number) => void, scale: number): { small: number; large: number } {
  const small = countOperations(() => feed(scale));
  const large = countOperations(() => feed(scale * 4));
  if (small <= 0) throw new Error(`${name}: no operation counted; the counter does not see this splitter`);
  if (large > small * 8) throw new Error(`${name}: 4× the input cost ${(large / small).toFixed(1)}× the operations (${small} → ${large})`);
  return { small, large };
}
