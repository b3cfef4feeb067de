/** A plain JSON-like object (not null, not an array): what every reader of untyped input checks before it indexes. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether A and B hold the same value (===) in each of KEYS: the scalar half of a record's equality. */
export function sameFields<T>(a: T, b: T, keys: ReadonlyArray<keyof T>): boolean {
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}
