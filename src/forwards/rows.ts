/**
 * The "Forwarded" row under a container with port forwards, and one row per forward below it (views/childRows.ts):
 * `127.0.0.1:LOCAL → PORT`, with Open in Browser, Copy Address and Stop on it.
 */
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { ChildRow, ContainerChildRows } from '../views/childRows';
import type { ActiveForward, ActiveForwards } from './active';

/** The "Forwarded" row (`active` undefined) or one forward's row. */
export interface ForwardRow extends ChildRow {
  readonly forwarded: true;
  readonly active: ActiveForward | undefined;
}

export function isForwardRow(value: unknown): value is ForwardRow {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'child' && (value as { forwarded?: unknown }).forwarded === true;
}

export class ForwardRows extends Disposable implements ContainerChildRows {
  readonly dropMimeTypes: readonly string[] = [];
  private readonly _onDidChangeRows = this._register(new vscode.EventEmitter<ChildRow>());
  readonly onDidChangeRows = this._onDidChangeRows.event;

  constructor(private readonly active: ActiveForwards) {
    super();
  }

  children(parent: ChildRow['parent']): ChildRow[] {
    if (parent.kind === 'volume') return [];
    if (parent.kind === 'container') {
      if (this.active.of(parent.engine, parent.id).length === 0) return [];
      const group: ForwardRow = { kind: 'child', engine: parent.engine, containerId: parent.id, parent, forwarded: true, active: undefined };
      return [group];
    }
    if (!isForwardRow(parent) || parent.active !== undefined) return [];
    return this.active
      .of(parent.engine, parent.containerId)
      .map((active): ForwardRow => ({ kind: 'child', engine: parent.engine, containerId: parent.containerId, parent, forwarded: true, active }));
  }

  item(child: ChildRow): vscode.TreeItem {
    const row = child as ForwardRow;
    if (row.active === undefined) {
      const count = this.active.of(row.engine, row.containerId).length;
      const item = new vscode.TreeItem(vscode.l10n.t('Forwarded'), vscode.TreeItemCollapsibleState.Expanded);
      item.description = String(count);
      item.tooltip = vscode.l10n.t('Ports of this container that Berth forwards to this machine through the engine, without publishing them');
      item.contextValue = 'berth:forwards';
      item.iconPath = new vscode.ThemeIcon('radio-tower');
      return item;
    }
    const { forward, relay } = row.active;
    const item = new vscode.TreeItem(`${forward.address} → ${forward.containerPort}`, vscode.TreeItemCollapsibleState.None);
    item.description = relay.throughHelper ? vscode.l10n.t('through a helper container') : '';
    item.tooltip = relay.throughHelper
      ? vscode.l10n.t('{0} forwards to port {1} of {2} through a helper container in its network (the container has no nc)', forward.address, forward.containerPort, relay.containerName)
      : vscode.l10n.t('{0} forwards to port {1} of {2}', forward.address, forward.containerPort, relay.containerName);
    item.contextValue = 'berth:forward';
    item.iconPath = new vscode.ThemeIcon('arrow-swap');
    return item;
  }

  handleDrop(): Promise<void> {
    return Promise.resolve(); // Forwards accept no drops (dropMimeTypes is empty).
  }

  releaseVolumes(): Promise<void> {
    return Promise.resolve(); // No volume rows.
  }
}
