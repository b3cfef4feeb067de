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
