/**
 * The "Files" row under each container row and the folders below it, one directory at a time (each expansion is one
 * readDirectory of the berth-container provider, so a container without a shell lists through the archive API). A
 * file row opens in a normal editor; host files dropped on a folder row (or on "Files") are uploaded into it.
 */
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import { errorMessage } from '../common/errors';
import { isEngineError } from '../engine';
import type { ChildRow, ContainerChildRows } from '../views/childRows';
import type { LogDeps, SessionsDeps } from '../workbench/deps';
import { uploadInto } from './transfer';
import { containerUri } from './uri';
import { VOLUME_MOUNT_PATH, VolumeHelpers } from './volumeHelpers';
import { reportFailure } from '../workbench/feedback';

export interface FileRow extends ChildRow {
  /** Absolute path in the container; `/` for the "Files" row. */
  readonly path: string;
  readonly name: string;
  readonly type: vscode.FileType;
  readonly uri: vscode.Uri;
  /** The "(empty)" row of a folder with nothing in it (FileType.Unknown, no menu, a drop goes to its folder). */
  readonly empty?: true;
}

/** Host files from a drop's `text/uri-list` (one URI a line, `#` lines are comments); only `file:` URIs. */
export function hostFilesOf(uriList: string): vscode.Uri[] {
  return uriList
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => vscode.Uri.parse(line, true))
    .filter((uri) => uri.scheme === 'file');
}

export class FileRows extends Disposable implements ContainerChildRows {
  readonly dropMimeTypes = ['text/uri-list'];
  private readonly _onDidChangeRows = this._register(new vscode.EventEmitter<ChildRow>());
  readonly onDidChangeRows = this._onDidChangeRows.event;
  /** One "Files" row per container, so the row keeps its expansion across refreshes. */
  private readonly roots = new Map<string, FileRow>();

  private readonly helpers: VolumeHelpers;

  constructor(private readonly deps: LogDeps & Pick<SessionsDeps, 'sessionFor'>) {
    super();
    this.helpers = this._register(new VolumeHelpers(deps));
  }

  async children(parent: ChildRow['parent']): Promise<ChildRow[]> {
    if (parent.kind === 'container') return [this.rootOf(parent.engine, parent.id, parent, '/')];
    // A volume's "Files" row is only a promise: its helper container is made when the row is expanded (or dropped on).
    if (parent.kind === 'volume') return [this.rootOf(parent.engine, `volume:${parent.name}`, parent, VOLUME_MOUNT_PATH)];
    const row = parent as FileRow;
    if ((row.type & vscode.FileType.Directory) === 0) return [];
    let entries: Array<[string, vscode.FileType]>;
    let folder: FileRow;
    try {
      folder = await this.resolved(row);
      entries = await vscode.workspace.fs.readDirectory(folder.uri);
    } catch (error) {
      // A volume removed while its Files row was open: its row is about to go, with nothing to warn about.
      if (await this.volumeGone(row)) {
        this.deps.log.info(`Listing ${row.path} of a volume that is gone: ${errorMessage(error)}`);
        return [];
      }
      // The tree has no place for an error: it goes to the log and a notification, and the folder shows empty.
      this.deps.log.warn(`Listing ${row.path} in ${row.containerId.slice(0, 12)}: ${errorMessage(error)}`);
      void vscode.window.showWarningMessage(vscode.l10n.t('Cannot list {0}: {1}', row.path, errorMessage(error)));
      return [];
    }
    // An empty folder says so: expanding to nothing looks like a listing that never came.
    if (entries.length === 0) {
      const empty: FileRow = { kind: 'child', engine: row.engine, containerId: folder.containerId, parent: row, path: row.path, name: vscode.l10n.t('(empty)'), type: vscode.FileType.Unknown, uri: folder.uri, empty: true };
      return [empty];
    }
    const isDirectory = (type: vscode.FileType): boolean => (type & vscode.FileType.Directory) !== 0;
    entries.sort(([a, typeA], [b, typeB]) => Number(isDirectory(typeB)) - Number(isDirectory(typeA)) || a.localeCompare(b));
    return entries.map(([name, type]) => {
      const path = row.path === '/' ? `/${name}` : `${row.path}/${name}`;
      return { kind: 'child', engine: row.engine, containerId: folder.containerId, parent: row, path, name, type, uri: containerUri(row.engine, folder.containerId, path) };
    });
  }

  item(child: ChildRow): vscode.TreeItem {
    const row = child as FileRow;
    const directory = (row.type & vscode.FileType.Directory) !== 0;
    const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    if (row.parent.kind !== 'child') {
      // No id, as for the rows below it (see there).
      const item = new vscode.TreeItem('Files', collapsed);
      item.iconPath = new vscode.ThemeIcon('files');
      item.tooltip = vscode.l10n.t('The container\'s files, through the Engine API (works on stopped containers and those without a shell too). Drop host files on a folder to upload them.');
      // A volume's row has no container until it is expanded: Download/Upload are offered on the rows below it.
      item.contextValue = row.parent.kind === 'volume' ? 'berth:files:volume' : 'berth:files:folder';
      return item;
    }
    if (row.empty) {
      const item = new vscode.TreeItem(row.name, vscode.TreeItemCollapsibleState.None);
      item.tooltip = vscode.l10n.t('{0} is empty. Drop host files here to upload them into it.', row.path);
      item.contextValue = 'berth:filesEmpty';
      return item;
    }
    // No id, here or on any row below a container or a volume (Files, Ports and their rows): VS Code then names the
    // row after its parent's row and its label, and gives a name already taken a new one. With ids, a listing still
    // in flight when an ancestor's row is drawn again (VS Code 1.100's extHostTreeViews: the redraw drops the
    // ancestor's cached rows, the listing then registers its rows under the dropped one) leaves those rows
    // registered, and every later listing there is refused ("Element with id … is already registered"): the row
    // stays open and empty until the whole view is drawn again.
    const item = new vscode.TreeItem(row.uri, directory ? collapsed : vscode.TreeItemCollapsibleState.None);
    item.label = row.name;
    item.tooltip = row.path;
    item.contextValue = directory ? 'berth:files:folder' : 'berth:files:file';
    if (!directory) item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [row.uri] };
    return item;
  }

  async handleDrop(target: ChildRow, data: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    const row = target as FileRow;
    const folder = (row.type & vscode.FileType.Directory) !== 0 ? row : (row.parent as FileRow);
    const sources = hostFilesOf((await data.get('text/uri-list')?.asString()) ?? '');
    if (sources.length === 0 || token.isCancellationRequested) return;
    try {
      await uploadInto(this.deps, (await this.resolved(folder)).uri, sources);
    } catch (error) {
      void reportFailure(this.deps, vscode.l10n.t('Uploading into {0} failed: {1}', folder.path, errorMessage(error)), error);
      return;
    }
    this._onDidChangeRows.fire(folder);
  }

  /** A folder row (the very object the view gave a command) whose contents changed outside the view: list it again. */
  contentsChanged(target: unknown): void {
    const row = target as Partial<FileRow> | undefined;
    if (row?.kind === 'child' && row.uri instanceof vscode.Uri && typeof row.type === 'number' && (row.type & vscode.FileType.Directory) !== 0) this._onDidChangeRows.fire(row as FileRow);
  }

  async releaseVolumes(): Promise<void> {
    await this.helpers.removeAll();
  }

  /** Whether ROW is in a volume's files and that volume no longer exists. */
  private async volumeGone(row: FileRow): Promise<boolean> {
    let parent: ChildRow['parent'] = row.parent;
    while (parent.kind === 'child') parent = (parent as FileRow).parent;
    if (parent.kind !== 'volume') return false;
    return this.deps.sessionFor(row.engine).client.volumes.inspect(parent.name).then(
      () => false,
      (error: unknown) => isEngineError(error, 'not-found'),
    );
  }

  /** ROW itself, or for a volume's "Files" row the same row in its helper container (made now if need be). */
  private async resolved(row: FileRow): Promise<FileRow> {
    if (row.parent.kind !== 'volume') return row;
    const containerId = await this.helpers.helperFor(row.engine, row.parent.name);
    return { ...row, containerId, uri: containerUri(row.engine, containerId, row.path) };
  }

  private rootOf(engine: string, containerId: string, parent: ChildRow['parent'], path: string): FileRow {
    const key = `${engine}/${containerId}`;
    let root = this.roots.get(key);
    if (!root) {
      root = { kind: 'child', engine, containerId, parent, path, name: 'Files', type: vscode.FileType.Directory, uri: containerUri(engine, containerId, path) };
      this.roots.set(key, root);
    }
    return root;
  }
}
