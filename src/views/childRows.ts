/**
 * Rows another feature hangs under a container row (the Files feature's "Files" row and its folders). The
 * Containers view knows only that they are there: it asks the provider for them and for their items, and hands
 * drops on them to it. The provider owns what a row means.
 */
import type * as vscode from 'vscode';

/** The row of a container or of a volume that child rows hang under. */
export type ChildRowOwner =
  | { readonly kind: 'container'; readonly engine: string; readonly id: string }
  | { readonly kind: 'volume'; readonly engine: string; readonly name: string };

export interface ChildRow {
  readonly kind: 'child';
  readonly engine: string;
  readonly containerId: string;
  /** Its container's row, its volume's row (the Volumes view), or the child row it sits under. */
  readonly parent: ChildRowOwner | ChildRow;
}

export interface ContainerChildRows {
  /** The rows under a container's or a volume's row, or under one of the provider's rows. */
  children(parent: ChildRow['parent']): ChildRow[] | Promise<ChildRow[]>;
  item(row: ChildRow): vscode.TreeItem;
  /** Fired with the rows whose children changed (after an upload or a drop). */
  readonly onDidChangeRows: vscode.Event<ChildRow>;
  /** What the rows accept when dropped on (e.g. `text/uri-list`), and the drop itself. */
  readonly dropMimeTypes: readonly string[];
  handleDrop(target: ChildRow, data: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void>;
  /** The view that showed volume rows was hidden: what was made to show them (helper containers) can go. */
  releaseVolumes(): Promise<void>;
}
