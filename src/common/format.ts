/** Human-readable sizes and ids, as the docker CLI prints them (decimal units). */

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

/** 12 hex characters, without `sha256:`. */
export function shortId(id: string): string {
  return id.replace(/^sha256:/, '').slice(0, 12);
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
