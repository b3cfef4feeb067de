/**
 * The "Ports" row under a container row that has ports, and one row per port below it (views/childRows.ts). The
 * rows' words come from portRows.ts; this only makes TreeItems of them.
 */
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { PublishedPort } from '../model/ports';
import type { ChildRow, ContainerChildRows } from '../views/childRows';
import { markdownTooltip } from '../views/treeItems';
import type { SessionsDeps } from '../workbench/deps';
import type { PortFacts } from './facts';
import { presentPort, presentPortGroup, type PortRowPresentation } from './portRows';

/** The "Ports" row (`port` undefined) or a port's row; each knows every port of its container. */
export interface PortRow extends ChildRow {
  readonly ports: readonly PublishedPort[];
  readonly port: PublishedPort | undefined;
}

export function isPortRow(value: unknown): value is PortRow {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'child' && Array.isArray((value as { ports?: unknown }).ports);
}

export class PortRows extends Disposable implements ContainerChildRows {
  readonly dropMimeTypes: readonly string[] = [];
  private readonly _onDidChangeRows = this._register(new vscode.EventEmitter<ChildRow>());
  readonly onDidChangeRows = this._onDidChangeRows.event;

  constructor(
    private readonly deps: Pick<SessionsDeps, 'engines'>,
    private readonly facts: PortFacts,
  ) {
    super();
  }

  async children(parent: ChildRow['parent']): Promise<ChildRow[]> {
    if (parent.kind === 'volume') return [];
    if (parent.kind === 'container') {
      const session = this.deps.engines.find(parent.engine);
      const record = session?.model.container(parent.id);
      if (!session || !record) return [];
      const ports = await this.facts.read(session, record);
      if (ports.length === 0) return [];
      const group: PortRow = { kind: 'child', engine: parent.engine, containerId: parent.id, parent, ports, port: undefined };
      return [group];
    }
    if (!isPortRow(parent) || parent.port !== undefined) return [];
    return parent.ports.map((port): PortRow => ({ kind: 'child', engine: parent.engine, containerId: parent.containerId, parent, ports: parent.ports, port }));
  }

  item(child: ChildRow): vscode.TreeItem {
    const row = child as PortRow;
    const presentation: PortRowPresentation = row.port ? presentPort(row.port) : presentPortGroup(row.ports);
    const item = new vscode.TreeItem(
      presentation.label,
      row.port ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Expanded,
    );
    // No id, as for every row below a container (see FileRows.item): VS Code names the row after its container's row
    // and its label, which is as stable, and never refuses a listing that overlapped a redraw of the container's row.
    item.description = presentation.description;
    item.tooltip = markdownTooltip(presentation.tooltip);
    item.contextValue = presentation.contextValue;
    item.iconPath = new vscode.ThemeIcon(presentation.icon);
    return item;
  }

  handleDrop(): Promise<void> {
    return Promise.resolve(); // Ports accept no drops (dropMimeTypes is empty).
  }

  releaseVolumes(): Promise<void> {
    return Promise.resolve(); // No volume rows.
  }
}
