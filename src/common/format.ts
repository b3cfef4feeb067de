/** Human-readable sizes, durations and ids, as the docker CLI prints them (decimal units). */

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

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** go-units' HumanDuration, as the engines word `Status` and docker prints CREATED: `Less than a second`, `About a minute`, `3 weeks`. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / SECOND);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.floor(ms / MINUTE);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.round(ms / HOUR);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.floor(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.floor(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24 / 30)} months`;
  return `${Math.floor(ms / HOUR / 24 / 365)} years`;
}

/** A 64-hex id (optionally `sha256:`-prefixed) shortened to the 12 characters docker shows. */
export function shortId(id: string): string {
  return id.replace(/^sha256:/, '').slice(0, 12);
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** A past moment as a clock time (`14:02` in the user's locale), with its date when it was not today. */
export function momentWords(atMs: number, nowMs: number): string {
  const at = new Date(atMs);
  return at.toDateString() === new Date(nowMs).toDateString()
    ? at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : at.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
}
