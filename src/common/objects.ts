/** A plain JSON-like object (not null, not an array): what every reader of untyped input checks before it indexes. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
