/**
 * What a logs view shows of a container's logs: a filter and a time range, carried in a logs document's URI so that
 * the editor's title says them. No `vscode` here.
 */
import * as l10n from '@vscode/l10n';
import { LineFilter, type LogFilterSpec } from './lineFilter';

export interface LogsViewSpec {
  readonly filter?: LogFilterSpec | undefined;
  /** Unix seconds. */
  readonly since?: number | undefined;
  readonly until?: number | undefined;
}

/** A time for a title: UTC, to the second. */
function shortTime(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

/** Look-alikes for the characters a URI path cannot hold in one segment: the editor's tab shows the title as typed. */
const PATH_LOOK_ALIKES: Readonly<Record<string, string>> = { '/': '\u2215', '\\': '\u29f5', ':': '\u2236', '?': '\uff1f', '#': '\uff03' };

/** TEXT as one segment of a logs document's path: a regular-expression filter's slashes still read as slashes. */
export function titleSegment(text: string): string {
  return text.replace(/[/\\:?#]/g, (character) => PATH_LOOK_ALIKES[character] ?? '_');
}

/** The part of a title after the container's name: ` · "err" · 2026-11-28 06:00:00Z – …`. */
export function viewTitleSuffix(view: LogsViewSpec): string {
  let suffix = '';
  if (view.filter) {
    const made = LineFilter.create(view.filter);
    if (made instanceof LineFilter) suffix += ` · ${made.describe()}`;
  }
  if (view.since !== undefined || view.until !== undefined) {
    suffix += ` · ${view.since === undefined ? '…' : shortTime(view.since)} – ${view.until === undefined ? '…' : shortTime(view.until)}`;
  }
  return suffix;
}

/** The query parameters of a view (added to a logs URI's `id` and `engine`). */
export function viewQuery(view: LogsViewSpec): Record<string, string> {
  const query: Record<string, string> = {};
  if (view.filter) query['filter'] = JSON.stringify(view.filter);
  if (view.since !== undefined) query['since'] = String(view.since);
  if (view.until !== undefined) query['until'] = String(view.until);
  return query;
}

function numberParameter(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** The view a URI's query names; a damaged filter parameter counts as none. */
export function viewOfQuery(query: URLSearchParams): LogsViewSpec {
  let filter: LogFilterSpec | undefined;
  const text = query.get('filter');
  if (text !== null) {
    try {
      const parsed = JSON.parse(text) as Partial<LogFilterSpec>;
      if (typeof parsed.text === 'string') {
        filter = { text: parsed.text, regex: parsed.regex === true, caseSensitive: parsed.caseSensitive === true, invert: parsed.invert === true };
      }
    } catch {
      filter = undefined;
    }
  }
  return { filter, since: numberParameter(query, 'since'), until: numberParameter(query, 'until') };
}

/** Why an until before the since is refused (as it is typed). */
export function rangeError(since: number | undefined, until: number | undefined): string | undefined {
  if (since === undefined || until === undefined || until >= since) return undefined;
  return l10n.t('The end ({0}) is before the start ({1}): give a later end, or leave it empty to keep following.', shortTime(until), shortTime(since));
}

/** Said when a filter keeps no line: the view still follows. */
export function noMatchNotice(filterDescription: string, linesRead: number): string {
  return l10n.t('No line matches {0} yet ({1} lines read); still following.', filterDescription, linesRead);
}
