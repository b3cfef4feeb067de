/** Turns a vscode-free presentation into a TreeItem. */
import * as vscode from 'vscode';
import type { EngineSession } from '../model/session';
import { ownRows } from '../workbench/callOrigin';
import type { ItemPresentation } from './presentation';

/** One row as tests read it (`berth.internal.viewChildren`). */
export interface RowSummary {
  readonly id: string | undefined;
  readonly label: string;
  readonly description: string | undefined;
  readonly contextValue: string | undefined;
  readonly tooltip: string | undefined;
  readonly collapsible: boolean;
}

export function toTreeItem(
  id: string,
  presentation: ItemPresentation,
  collapsibleState: vscode.TreeItemCollapsibleState = vscode.TreeItemCollapsibleState.None,
  tooltip: 'now' | 'on hover' = 'now',
): vscode.TreeItem {
  const item = new vscode.TreeItem(presentation.label, collapsibleState);
  item.id = id;
  item.description = presentation.description;
  item.contextValue = presentation.contextValue;
  // 'on hover': left out so VS Code asks resolveTreeItem, which words the relative times as of the hover.
  if (tooltip === 'now') item.tooltip = markdownTooltip(presentation.tooltip);
  item.iconPath = presentation.icon.color
    ? new vscode.ThemeIcon(presentation.icon.id, new vscode.ThemeColor(presentation.icon.color))
    : new vscode.ThemeIcon(presentation.icon.id);
  return item;
}

export function markdownTooltip(text: string): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString(text);
  tooltip.supportThemeIcons = false;
  return tooltip;
}

/** A tree as tests walk it: children of a node (or the roots) and each node's TreeItem. */
interface WalkableTree<N> {
  getChildren(node?: N): vscode.ProviderResult<N[]>;
  getTreeItem(node: N): vscode.TreeItem;
}

export function labelOf(item: vscode.TreeItem): string {
  const label = item.label;
  return typeof label === 'string' ? label : (label?.label ?? '');
}

/**
 * The rows under a path of labels (`[]` = the roots) with their TreeItems, as VS Code would render them; for the
 * `berth.internal.*Children` commands tests read the views through. `view` names the view in the error.
 */
export async function rowsUnder<N>(tree: WalkableTree<N>, path: readonly string[], view: string): Promise<Array<{ node: N; item: vscode.TreeItem }>> {
  let parent: N | undefined;
  for (const [depth, label] of path.entries()) {
    const children = (await tree.getChildren(parent)) ?? [];
    parent = children.find((child) => labelOf(tree.getTreeItem(child)) === label);
    if (!parent) throw new Error(`${view} has no row "${label}" under ${depth === 0 ? 'its root' : path.slice(0, depth).join(' › ')}`);
  }
  const children = (await tree.getChildren(parent)) ?? [];
  return children.map((node) => ({ node, item: tree.getTreeItem(node) }));
}

/** `rowsUnder` as the tests' `berth.internal.viewChildren` returns it: plain data, the tooltip as text. */
export async function rowSummariesUnder<N>(tree: WalkableTree<N>, path: readonly string[], view: string): Promise<RowSummary[]> {
  const rows = await rowsUnder(tree, path, view);
  return rows.map(({ item }) => ({
    id: item.id,
    label: labelOf(item),
    description: typeof item.description === 'string' ? item.description : undefined,
    contextValue: item.contextValue,
    tooltip: item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : item.tooltip,
    collapsible: item.collapsibleState !== undefined && item.collapsibleState !== vscode.TreeItemCollapsibleState.None,
  }));
}

/**
 * A tree view of the current engine's session: made, bound to the current session, bound again on each switch, and
 * told when it is shown or hidden (work only while visible). What it registers goes on OWNER.
 */
export function sessionTreeView<T>(
  viewId: string,
  provider: vscode.TreeDataProvider<T>,
  deps: { readonly session: EngineSession; readonly onDidChangeSession: vscode.Event<EngineSession> },
  handlers: { bind(session: EngineSession): void; visibilityChanged(): void },
  owner: { add<D extends vscode.Disposable>(item: D): D },
): vscode.TreeView<T> {
  const view = owner.add(vscode.window.createTreeView(viewId, { treeDataProvider: ownRows(provider), canSelectMany: true, showCollapseAll: true }));
  owner.add(deps.onDidChangeSession((session) => handlers.bind(session)));
  owner.add(view.onDidChangeVisibility(() => handlers.visibilityChanged()));
  return view;
}
