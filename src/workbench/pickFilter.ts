/**
 * What a QuickPick's filter leaves on top, for the multi-pick's Enter: VS Code does not highlight anything in a
 * checkbox pick once the user types, so Enter alone would take nothing. The first item whose label (then
 * description) contains the typed text, ignoring case, is one the workbench's own fuzzy filter also keeps (a
 * substring is a fuzzy match). No `vscode` here.
 */
export interface FilterableItem {
  readonly label: string;
  readonly description?: string | undefined;
}

export function firstFilterMatch<T extends FilterableItem>(items: readonly T[], typed: string): T | undefined {
  const needle = typed.trim().toLowerCase();
  if (needle === '') return items[0];
  return items.find((item) => item.label.toLowerCase().includes(needle)) ?? items.find((item) => item.description?.toLowerCase().includes(needle) === true);
}
