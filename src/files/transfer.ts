/**
 * Download and Upload: a file or folder between the host and a container, through vscode.workspace.fs.copy, which
 * walks folders and reads and writes through the berth-container provider (so the archive API does the work, and a
 * container without a shell works too). From the Explorer's context menu, or from automation with the paths given.
 */
import * as vscode from 'vscode';
import { command, type CommandEntry } from '../workbench/commandTable';
import type { LogDeps } from '../workbench/deps';
import { CONTAINER_SCHEME, locationOf } from './uri';

interface TransferOptions {
  /** Download: the host path to write (a file's new name, or the folder's). */
  readonly destination?: string;
  /** Upload: host paths to copy into the folder. */
  readonly sources?: readonly string[];
}

function containerTarget(value: unknown): vscode.Uri {
  if (value instanceof vscode.Uri && value.scheme === CONTAINER_SCHEME) return value;
  // A row of the Containers view's Files tree carries its URI.
  const rowUri = typeof value === 'object' && value !== null ? (value as { uri?: unknown }).uri : undefined;
  if (rowUri instanceof vscode.Uri && rowUri.scheme === CONTAINER_SCHEME) return rowUri;
  if (typeof value === 'string' && value.startsWith(`${CONTAINER_SCHEME}:`)) return vscode.Uri.parse(value);
  throw new Error('Choose a file or folder of a container (in a folder opened with Open Folder in Workspace)');
}

function baseName(uri: vscode.Uri): string {
  const path = locationOf(uri).path;
  return path === '/' ? 'root' : path.slice(path.lastIndexOf('/') + 1);
}

async function download(deps: LogDeps, target: unknown, options: TransferOptions = {}): Promise<string | undefined> {
  const source = containerTarget(target);
  const stat = await vscode.workspace.fs.stat(source);
  const destination =
    options.destination !== undefined
      ? vscode.Uri.file(options.destination)
      : await vscode.window.showSaveDialog({ title: `Download ${baseName(source)}`, saveLabel: 'Download', defaultUri: vscode.Uri.file(baseName(source)) });
  if (destination === undefined) return undefined;
  await vscode.workspace.fs.copy(source, destination, { overwrite: true });
  deps.log.info(`Downloaded ${source.toString()} (${stat.type & vscode.FileType.Directory ? 'folder' : `${stat.size} bytes`}) to ${destination.fsPath}`);
  return destination.fsPath;
}

async function upload(deps: LogDeps, target: unknown, options: TransferOptions = {}): Promise<string[] | undefined> {
  const folder = containerTarget(target);
  if (((await vscode.workspace.fs.stat(folder)).type & vscode.FileType.Directory) === 0) {
    throw new Error(`${locationOf(folder).path} is not a folder: upload into its folder instead`);
  }
  const sources =
    options.sources?.map((path) => vscode.Uri.file(path)) ??
    (await vscode.window.showOpenDialog({ title: `Upload into ${locationOf(folder).path}`, openLabel: 'Upload', canSelectFiles: true, canSelectFolders: true, canSelectMany: true }));
  if (sources === undefined || sources.length === 0) return undefined;
  return uploadInto(deps, folder, sources);
}

/** Copies host files or folders into a container folder (the Upload command and drops on the Files tree). */
export async function uploadInto(deps: LogDeps, folder: vscode.Uri, sources: readonly vscode.Uri[]): Promise<string[]> {
  const written: string[] = [];
  for (const source of sources) {
    const name = source.path.slice(source.path.lastIndexOf('/') + 1);
    const destination = vscode.Uri.joinPath(folder, name);
    await vscode.workspace.fs.copy(source, destination, { overwrite: true });
    written.push(destination.toString());
  }
  deps.log.info(`Uploaded ${sources.length} item(s) into ${folder.toString()}`);
  return written;
}

export const transferCommands: readonly CommandEntry<LogDeps>[] = [
  command('berth.files.download', 'Downloading from the container', (deps: LogDeps) => (target?: unknown, options?: TransferOptions) => download(deps, target, options)),
  command('berth.files.upload', 'Uploading into the container', (deps: LogDeps) => (target?: unknown, options?: TransferOptions) => upload(deps, target, options)),
];
