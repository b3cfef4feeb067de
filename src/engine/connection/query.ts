/** Query strings the way the Engine API reads them. */
import type { ListFilters } from './types';

export type QueryValue = string | number | boolean | undefined | null | readonly string[] | ListFilters;

/** `?a=1&b=0&filters=%7B…%7D`: booleans as 1/0, filters as JSON, arrays as repeated keys, undefined left out. */
export function buildQuery(params: Record<string, QueryValue>): string {
  let query = '';
  for (const key in params) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly string[]) query += `${query ? '&' : '?'}${key}=${encodeURIComponent(item)}`;
      continue;
    }
    let text: string;
    if (typeof value === 'boolean') text = value ? '1' : '0';
    else if (typeof value === 'object') text = JSON.stringify(value);
    else text = String(value);
    query += `${query ? '&' : '?'}${key}=${encodeURIComponent(text)}`;
  }
  return query;
}

/** Query parameters whose values are often secrets (build args carry tokens): the log shows their names only. */
const SECRET_PARAMETERS: readonly string[] = ['buildargs'];

/** A request path as the debug log may show it: each secret parameter's values replaced by `***`, its keys kept. */
export function pathForLog(path: string): string {
  const start = path.indexOf('?');
  if (start === -1) return path;
  const params = new URLSearchParams(path.slice(start + 1));
  if (!SECRET_PARAMETERS.some((name) => params.has(name))) return path;
  for (const name of SECRET_PARAMETERS) {
    const value = params.get(name);
    if (value !== null) params.set(name, redactedJsonValues(value));
  }
  return `${path.slice(0, start)}?${params.toString()}`;
}

function redactedJsonValues(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return JSON.stringify(Object.fromEntries(Object.keys(parsed).map((key) => [key, '***'])));
    }
  } catch {
    // Not JSON: nothing of it is shown.
  }
  return '***';
}
