/**
 * What the four explorer views share for their filter: the row that says a filter matches nothing (a click clears
 * it), the view's `N of M` description, and what the Filter commands ask of a view.
 */
import * as vscode from 'vscode';
import { filterApplies, filterCountText, type FilterCounts, type RowFilter } from './rowFilter';
import { showViewHeader } from './viewHeader';

export type { FilterCounts, FilterNoticeRow } from './rowFilter';

/** The views that filter, by the name their commands carry (`berth.<name>.filter`). */
export type FilterableViewName = 'containers' | 'images' | 'volumes' | 'networks';

/** What the Filter and Clear Filter commands ask of a view. */
export interface FilterableView {
  setFilter(filter: RowFilter): void;
}

function nothingMatches(view: FilterableViewName, filter: RowFilter): string {
  const text = filter.needle;
  if (text.length === 0) return vscode.l10n.t('No container belongs to this workspace');
  switch (view) {
    case 'containers':
      return vscode.l10n.t('No container matches “{0}”', text);
    case 'images':
      return vscode.l10n.t('No image matches “{0}”', text);
    case 'volumes':
      return vscode.l10n.t('No volume matches “{0}”', text);
    case 'networks':
      return vscode.l10n.t('No network matches “{0}”', text);
  }
}

export function filterNoticeItem(view: FilterableViewName, filter: RowFilter, engine: string): vscode.TreeItem {
  const item = new vscode.TreeItem(nothingMatches(view, filter));
  item.id = `filterNotice:${engine}`;
  item.description = vscode.l10n.t('Clear Filter');
  item.iconPath = new vscode.ThemeIcon('filter');
  item.contextValue = 'berth:filterNotice';
  item.command = { command: `berth.${view}.clearFilter`, title: vscode.l10n.t('Clear Filter') };
  return item;
}

/** Rows shown and rows a view would show unfiltered, summed over TREES (one per engine; a missing one counts none). */
export function summedCounts(trees: Iterable<{ counts(): FilterCounts } | undefined>): FilterCounts {
  let shown = 0;
  let total = 0;
  for (const tree of trees) {
    const counts = tree?.counts();
    shown += counts?.shown ?? 0;
    total += counts?.total ?? 0;
  }
  return { shown, total };
}

/** `N of M` while a filter applies, nothing otherwise. */
export function filterDescription(applies: boolean, counts: FilterCounts): string | undefined {
  return applies ? filterCountText(counts.shown, counts.total) : undefined;
}

/**
 * A filtered view's top rows: the ITEMS that pass FILTER (by MATCHES), each made a row keyed by ROW; the view's
 * description becomes the filter's `N of M` (set only when its text changes). `hiddenAll`: a filter applies and
 * nothing passes it, so the view shows its notice row instead.
 */
export function filteredTopRows<I, N>(
  view: { description?: string | undefined },
  filter: RowFilter,
  items: Iterable<I>,
  matches: (item: I, filter: RowFilter) => boolean,
  row: (item: I) => readonly [key: string, node: N],
): { nodes: Map<string, N>; hiddenAll: boolean } {
  const applies = filterApplies(filter);
  const nodes = new Map<string, N>();
  let total = 0;
  for (const item of items) {
    total++;
    if (!matches(item, filter)) continue;
    const [key, node] = row(item);
    nodes.set(key, node);
  }
  const description = filterDescription(applies, { shown: nodes.size, total });
  showViewHeader(view, { description });
  return { nodes, hiddenAll: applies && nodes.size === 0 };
}
