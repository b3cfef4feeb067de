/** Human-readable sizes, ages and ids, as the docker CLI prints them (decimal units). */

const SIZE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '?';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  // parseFloat drops trailing zeros: 5.20 → 5.2, 12.0 → 12.
  return `${parseFloat(value.toFixed(digits))}${SIZE_UNITS[unit]}`;
}

const AGE_STEPS: Array<[limitSeconds: number, unitSeconds: number, unit: string]> = [
  [60 * 60, 60, 'minute'],
  [24 * 60 * 60, 60 * 60, 'hour'],
  [14 * 24 * 60 * 60, 24 * 60 * 60, 'day'],
  [60 * 24 * 60 * 60, 7 * 24 * 60 * 60, 'week'],
  [365 * 24 * 60 * 60, 30 * 24 * 60 * 60, 'month'],
  [Number.POSITIVE_INFINITY, 365 * 24 * 60 * 60, 'year'],
];

/** `createdSeconds` is unix seconds (as the API gives it); `nowMs` a wall clock in ms. */
export function formatAge(createdSeconds: number, nowMs: number): string {
  const elapsed = Math.floor(nowMs / 1000) - createdSeconds;
  if (!Number.isFinite(elapsed) || createdSeconds <= 0) return 'unknown age';
  if (elapsed < 60) return 'just now';
  for (const [limit, unitSeconds, unit] of AGE_STEPS) {
    if (elapsed < limit) {
      const count = Math.max(1, Math.floor(elapsed / unitSeconds));
      return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
    }
  }
  return 'long ago';
}

/** 12 hex characters, without `sha256:`. */
export function shortId(id: string): string {
  return id.replace(/^sha256:/, '').slice(0, 12);
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
