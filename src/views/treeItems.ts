/** Turns a vscode-free presentation into a TreeItem. */
import * as vscode from 'vscode';
import type { ItemPresentation } from '../model/presentation';

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
