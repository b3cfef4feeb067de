/**
 * Download and Upload: a file or folder between the host and a container, straight through the engine's archive API
 * (src/engine/files/containerCopy.ts, what `berth cp` uses): one tar stream each way, from the extension host.
 *
 * Why not vscode.workspace.fs.copy: it runs in the workbench's file service, which reads and writes the host side
 * through the remote file channel one call at a time. In code-server that copy between the `berth-container` provider
 * and the remote disk sometimes never returned, and took every later remote file operation of the window with it
 * (seen in our integration runs). The archive stream also works on containers without a shell, keeps modes, and holds
 * no file in memory.
 */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { copyFromContainer, copyToContainer, kindOfStat, statFollowing } from '../engine/files';
import { confirmAutomatedWrite } from '../workbench/automation';
import { command, type CommandEntry } from '../workbench/commandTable';
import type { LogDeps, SessionsDeps } from '../workbench/deps';
import { withCancellableProgress } from '../workbench/feedback';
import { CONTAINER_SCHEME, locationOf } from './uri';

export type TransferDeps = LogDeps & Pick<SessionsDeps, 'sessionFor'>;

/** Told the folder (the row or URI the command got) that an upload wrote into, so its open row lists the new files. */
export type UploadedInto = (target: unknown) => void;

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

/** Where the save dialog starts: the workspace folder, else the home folder; never the host's root. */
function defaultDownloadUri(name: string): vscode.Uri {
  const workspaceFolder = vscode.workspace.workspaceFolders?.find((folder) => folder.uri.scheme === 'file')?.uri;
  return vscode.Uri.joinPath(workspaceFolder ?? vscode.Uri.file(homedir()), name);
}

function insideWorkspace(uri: vscode.Uri): boolean {
  return vscode.workspace.getWorkspaceFolder(uri) !== undefined;
}

/**
 * "Downloaded … to …" with what can follow: Open for a file, Reveal where it can work (the Explorer for a path in the
 * workspace, the OS file manager on the desktop; a browser has none).
 */
function announceDownload(name: string, destination: vscode.Uri, isDirectory: boolean): void {
  const open = vscode.l10n.t('Open');
  const reveal = vscode.l10n.t('Reveal');
  const revealCommand = insideWorkspace(destination) ? 'revealInExplorer' : vscode.env.uiKind === vscode.UIKind.Desktop ? 'revealFileInOS' : undefined;
  const actions = [...(isDirectory ? [] : [open]), ...(revealCommand !== undefined ? [reveal] : [])];
  void vscode.window.showInformationMessage(vscode.l10n.t('Downloaded {0} to {1}', name, destination.fsPath), ...actions).then((choice) => {
    if (choice === open) return vscode.commands.executeCommand('vscode.open', destination);
    if (choice === reveal && revealCommand !== undefined) return vscode.commands.executeCommand(revealCommand, destination);
    return undefined;
  });
}

/** "Uploaded … into …", with Open when the one item was a file (the container's copy, in an editor). */
function announceUpload(what: string, folderPath: string, openable: vscode.Uri | undefined): void {
  const open = vscode.l10n.t('Open');
  void vscode.window
    .showInformationMessage(vscode.l10n.t('Uploaded {0} into {1}', what, folderPath), ...(openable !== undefined ? [open] : []))
    .then((choice) => (choice === open && openable !== undefined ? vscode.commands.executeCommand('vscode.open', openable) : undefined));
}

function baseNameOfPath(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

async function download(deps: TransferDeps, target: unknown, options: TransferOptions = {}): Promise<string | undefined> {
  const source = containerTarget(target);
  const { engine, containerId, path } = locationOf(source);
  const client = deps.sessionFor(engine).client;
  const sourceStat = (await statFollowing(client, containerId, path)).stat;
  const destination =
    options.destination !== undefined
      ? vscode.Uri.file(options.destination)
      : await vscode.window.showSaveDialog({ title: vscode.l10n.t('Download {0}', baseName(source)), saveLabel: 'Download', defaultUri: defaultDownloadUri(baseName(source)) });
  if (destination === undefined) return undefined;
  if (options.destination !== undefined && !(await confirmAutomatedWrite(vscode.l10n.t('Download {0} to {1}?', baseName(source), destination.fsPath), vscode.l10n.t('Download'), 'A command gave Berth this path to write; what is there is replaced.'))) return undefined;
  // The save dialog names the copy itself: a folder chosen there (its replace confirmed) receives the folder's
  // contents, merged, rather than a folder nested inside it as `docker cp` would do.
  const intoExisting = (await stat(destination.fsPath).catch(() => undefined))?.isDirectory() === true;
  const isDirectory = kindOfStat(sourceStat) === 'directory';
  const from = isDirectory && intoExisting ? `${path === '/' ? '' : path}/.` : path;
  const result = await withCancellableProgress(vscode.l10n.t('Downloading {0}', baseName(source)), (signal) => copyFromContainer(client, containerId, from, destination.fsPath, signal));
  deps.log.info(`Downloaded ${source.toString()} (${isDirectory ? `a folder, ${result.entries} entries` : `${sourceStat.size} bytes`}) to ${result.destination}`);
  announceDownload(baseName(source), destination, isDirectory);
  return destination.fsPath;
}

async function upload(deps: TransferDeps, uploadedInto: UploadedInto, target: unknown, options: TransferOptions = {}): Promise<string[] | undefined> {
  const folder = containerTarget(target);
  const { engine, containerId, path } = locationOf(folder);
  const folderStat = (await statFollowing(deps.sessionFor(engine).client, containerId, path)).stat;
  if (kindOfStat(folderStat) !== 'directory') throw new Error(`${path} is not a folder: upload into its folder instead`);
  const sources =
    options.sources?.map((each) => vscode.Uri.file(each)) ??
    (await vscode.window.showOpenDialog({ title: vscode.l10n.t('Upload into {0}', path), openLabel: 'Upload', canSelectFiles: true, canSelectFolders: true, canSelectMany: true }));
  if (sources === undefined || sources.length === 0) return undefined;
  if (options.sources !== undefined && !(await confirmAutomatedWrite(vscode.l10n.t('Upload {0} item(s) from this machine into {1}?', sources.length, path), vscode.l10n.t('Upload'), sources.map((each) => each.fsPath).join('\n')))) return undefined;
  const written = await withCancellableProgress(vscode.l10n.t('Uploading into {0}', path), (signal) => uploadInto(deps, folder, sources, signal));
  uploadedInto(target);
  const only = sources.length === 1 ? sources[0] : undefined;
  const onlyFile = only !== undefined && (await stat(only.fsPath).catch(() => undefined))?.isFile() === true;
  const what = only !== undefined ? baseNameOfPath(only.path) : vscode.l10n.t('{0} items', sources.length);
  announceUpload(what, path, onlyFile && written[0] !== undefined ? vscode.Uri.parse(written[0]) : undefined);
  return written;
}

/** Copies host files or folders into a container folder (the Upload command and drops on the Files tree). */
export async function uploadInto(deps: TransferDeps, folder: vscode.Uri, sources: readonly vscode.Uri[], signal?: AbortSignal): Promise<string[]> {
  const { engine, containerId, path } = locationOf(folder);
  const client = deps.sessionFor(engine).client;
  const written: string[] = [];
  for (const source of sources) {
    const name = baseNameOfPath(source.path);
    await copyToContainer(client, source.fsPath, containerId, path, signal);
    written.push(vscode.Uri.joinPath(folder, name).toString());
  }
  deps.log.info(`Uploaded ${sources.length} item(s) into ${folder.toString()}`);
  return written;
}

export function transferCommands(uploadedInto: UploadedInto): readonly CommandEntry<TransferDeps>[] {
  return [
    command('berth.files.download', 'Downloading from the container', (deps: TransferDeps) => (target?: unknown, options?: TransferOptions) => download(deps, target, options)),
    command('berth.files.upload', 'Uploading into the container', (deps: TransferDeps) => (target?: unknown, options?: TransferOptions) => upload(deps, uploadedInto, target, options)),
  ];
}
