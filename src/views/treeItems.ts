/** Turns a vscode-free presentation into a TreeItem. */
import * as vscode from 'vscode';
import type { ItemPresentation } from './presentation';

export function toTreeItem(
  id: string,
  presentation: ItemPresentation,
  collapsibleState: vscode.TreeItemCollapsibleState = vscode.TreeItemCollapsibleState.None,
): vscode.TreeItem {
  const item = new vscode.TreeItem(presentation.label, collapsibleState);
  item.id = id;
  item.description = presentation.description;
  item.contextValue = presentation.contextValue;
  const tooltip = new vscode.MarkdownString(presentation.tooltip);
  tooltip.supportThemeIcons = false;
  item.tooltip = tooltip;
  item.iconPath = presentation.icon.color
    ? new vscode.ThemeIcon(presentation.icon.id, new vscode.ThemeColor(presentation.icon.color))
    : new vscode.ThemeIcon(presentation.icon.id);
  return item;
}
