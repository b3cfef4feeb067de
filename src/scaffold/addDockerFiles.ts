/**
 * Add Docker Files to Workspace…: picks the folder (multi-root), reads its top-level files to detect the kind of
 * project, asks for the platform (the detected one first) and the port, asks per existing file whether to overwrite
 * it, then writes the files detect.ts/render.ts produced and opens the Dockerfile. Every question is asked before
 * the first write, so Cancel leaves the folder as it was.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { detect, isManifest, PLATFORM_LABELS, PLATFORMS, platformChoices, type Detection, type Platform, type ProjectFiles } from './detect';
import { defaultPort, parsePort, render, validatePort, type RenderedFile, type ScaffoldFile } from './render';
import { readFailureMessage, writeFailureMessage } from './messages';

export type OverwriteAnswer = 'overwrite' | 'skip' | 'cancel';

/** The automation bag: it answers every question (missing answers take the defaults: detected platform, its port). */
export interface ScaffoldRequest {
  readonly folder: string;
  readonly platform?: Platform;
  /** null: no port (no EXPOSE, no mapping). */
  readonly port?: number | null;
  /** For files that exist already: one answer for all, or one per file; a file left out is asked about. */
  readonly overwrite?: OverwriteAnswer | Partial<Record<ScaffoldFile, OverwriteAnswer>>;
  /** Open the Dockerfile at the end (default true). */
  readonly open?: boolean;
}

export interface ScaffoldResult {
  readonly folder: string;
  readonly platform: Platform;
  readonly detected: Platform;
  readonly port: number | undefined;
  readonly written: ScaffoldFile[];
  readonly skipped: ScaffoldFile[];
}

export function isScaffoldRequest(value: unknown): value is ScaffoldRequest {
  return typeof value === 'object' && value !== null && !(value instanceof vscode.Uri) && typeof (value as { folder?: unknown }).folder === 'string';
}

/** A manifest larger than this is not a manifest worth reading for a name and a version. */
const MANIFEST_LIMIT = 1024 * 1024;

export async function readProjectFiles(folder: string): Promise<ProjectFiles> {
  const entries = await readdir(folder, { withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    files[entry.name] = '';
    if (!isManifest(entry.name)) continue;
    const path = join(folder, entry.name);
    if ((await stat(path)).size <= MANIFEST_LIMIT) files[entry.name] = await readFile(path, 'utf8').catch(() => '');
  }
  return files;
}

export async function addDockerFiles(target: unknown): Promise<ScaffoldResult | undefined> {
  const request = isScaffoldRequest(target) ? target : undefined;
  const folder = request?.folder ?? (await pickFolder(target));
  if (folder === undefined) return undefined;
  const files = await readProjectFiles(folder).catch((error: unknown) => {
    throw new Error(readFailureMessage(folder, error));
  });
  const detection = detect(files, basename(folder));
  const platform = request ? requestedPlatform(request, detection) : await pickPlatform(detection);
  if (platform === undefined) return undefined;
  const port = request ? requestedPort(request, platform) : await askPort(platform);
  if (port === null) return undefined;
  const rendered = render(platform, { facts: detection.facts, port });

  const plan: { file: RenderedFile; replace: boolean }[] = [];
  const skipped: ScaffoldFile[] = [];
  for (const file of rendered) {
    const path = join(folder, file.path);
    const exists = await stat(path).then(
      () => true,
      () => false,
    );
    const answer = exists ? await askOverwrite(path, answerFor(request?.overwrite, file.path)) : 'overwrite';
    if (answer === 'cancel') return undefined;
    if (answer === 'skip') skipped.push(file.path);
    else plan.push({ file, replace: exists });
  }

  const written: ScaffoldFile[] = [];
  for (const { file, replace } of plan) {
    const path = join(folder, file.path);
    try {
      // A file that did not exist when asked is created exclusively: one that appeared since is not overwritten.
      await writeFile(path, file.text, { flag: replace ? 'w' : 'wx' });
    } catch (error) {
      throw new Error(writeFailureMessage(path, error, written));
    }
    written.push(file.path);
  }
  if (request?.open !== false) {
    const dockerfile = vscode.Uri.file(join(folder, 'Dockerfile'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(dockerfile));
  }
  if (!request) {
    const kept = skipped.length === 0 ? '' : ` Kept as they were: ${skipped.join(', ')}.`;
    void vscode.window.showInformationMessage(vscode.l10n.t('Added {0} for {1}.{2}', written.length === 0 ? 'no files' : written.join(', '), PLATFORM_LABELS[platform], kept));
  }
  return { folder, platform, detected: detection.platform, port, written, skipped };
}

function requestedPlatform(request: ScaffoldRequest, detection: Detection): Platform {
  if (request.platform === undefined) return detection.platform;
  if (!(PLATFORMS as readonly string[]).includes(request.platform)) throw new Error(`Unknown platform "${String(request.platform)}": use one of ${PLATFORMS.join(', ')}`);
  return request.platform;
}

function requestedPort(request: ScaffoldRequest, platform: Platform): number | undefined {
  if (request.port === null) return undefined;
  if (request.port === undefined) return defaultPort(platform);
  const problem = validatePort(String(request.port));
  if (problem !== undefined) throw new Error(problem);
  return request.port;
}

function answerFor(answers: ScaffoldRequest['overwrite'], file: ScaffoldFile): OverwriteAnswer | undefined {
  return typeof answers === 'string' ? answers : answers?.[file];
}

async function pickFolder(target: unknown): Promise<string | undefined> {
  if (target instanceof vscode.Uri && target.scheme === 'file') {
    const isFolder = await stat(target.fsPath).then((info) => info.isDirectory(), () => false);
    if (isFolder) return target.fsPath;
  }
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((each) => each.uri.scheme === 'file');
  if (folders.length === 0) throw new Error('No folder is open. Open the project folder (File > Open Folder…), then add the Docker files');
  if (folders.length === 1) return folders[0]?.uri.fsPath;
  const picked = await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Add the Docker files to which folder?') });
  return picked?.uri.fsPath;
}

async function pickPlatform(detection: Detection): Promise<Platform | undefined> {
  const items = platformChoices(detection).map(({ platform, note }) => ({ label: PLATFORM_LABELS[platform], description: note, platform }));
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Add Docker Files'), placeHolder: vscode.l10n.t('What kind of application is it?') });
  return picked?.platform;
}

/** The port, undefined for none, or null when the user cancelled. */
async function askPort(platform: Platform): Promise<number | undefined | null> {
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add Docker Files'),
    prompt: vscode.l10n.t('The port your application listens on (empty: none)'),
    value: String(defaultPort(platform)),
    validateInput: validatePort,
  });
  return text === undefined ? null : parsePort(text);
}

async function askOverwrite(path: string, preset: OverwriteAnswer | undefined): Promise<OverwriteAnswer> {
  if (preset !== undefined) return preset;
  const skip = vscode.l10n.t('Skip');
  const overwrite = vscode.l10n.t('Overwrite');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} already exists. Overwrite it?', vscode.workspace.asRelativePath(path)),
    { modal: true, detail: vscode.l10n.t('Skip keeps this file as it is and writes the others; Cancel writes nothing.') },
    // Skip first: the default button (Enter) must not be the one that loses the user's file.
    skip,
    overwrite,
  );
  return choice === overwrite ? 'overwrite' : choice === skip ? 'skip' : 'cancel';
}
