/**
 * Which compose files a Compose command runs with: the file(s) chosen in the Explorer (several with multi-select
 * become several `-f`), the editor's file, a project group's config-files label, `{ files }` from automation, or a
 * pick among the workspace's compose files from the palette.
 */
import * as vscode from 'vscode';
import { projectFiles } from '../engine';
import type { EngineSession } from '../model/session';
import type { SessionsDeps } from '../workbench/deps';
import { pickMany } from '../workbench/multiPick';
import { projectNameOf, projectsOf } from './projects';
import { isObject } from '../common/objects';

export const COMPOSE_FILE_GLOB = '**/{compose,docker-compose}*.{yml,yaml}';

export interface FilesTarget {
  readonly files: readonly string[];
  readonly session: EngineSession;
  /** From a group: the project's own name, so the run acts on it whatever the directory is called. */
  readonly projectName: string | undefined;
  /** Where the process runs: the project's working dir, else the first file's directory. */
  readonly cwd: string | undefined;
  readonly options: Record<string, unknown>;
}


function fileUris(values: unknown): string[] {
  if (!Array.isArray(values)) return [];
  return values.filter((value): value is vscode.Uri => value instanceof vscode.Uri && value.scheme === 'file').map((uri) => uri.fsPath);
}

export async function resolveFiles(deps: SessionsDeps, args: readonly unknown[]): Promise<FilesTarget | undefined> {
  const [first, second] = args;
  if (first instanceof vscode.Uri) {
    const selected = fileUris(second);
    const files = selected.length > 0 ? selected : fileUris([first]);
    if (files.length === 0) throw new Error(`${first.toString()} is not a file on this machine: Compose runs files from the disk`);
    return { files, session: deps.session, projectName: undefined, cwd: undefined, options: {} };
  }
  const group = projectNameOf(first);
  if (group && isObject(first) && first['kind'] === 'group') return fromGroup(deps, group, isObject(second) ? second : {});
  if (isObject(first) && Array.isArray(first['files'])) {
    const files = first['files'].map(String);
    const session = deps.sessionFor(typeof first['engine'] === 'string' ? first['engine'] : undefined);
    const projectName = typeof first['projectName'] === 'string' ? first['projectName'] : undefined;
    return { files, session, projectName, cwd: undefined, options: first };
  }
  if (group) return fromGroup(deps, group, isObject(first) ? first : {});
  const found = await vscode.workspace.findFiles(COMPOSE_FILE_GLOB, '**/node_modules/**', 200);
  if (found.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No compose file in this workspace (compose*.yml, docker-compose*.yml). Open a folder that has one.'));
    return undefined;
  }
  const files = await pickComposeFiles(found);
  if (!files) return undefined;
  return { files, session: deps.session, projectName: undefined, cwd: undefined, options: {} };
}

/** The palette's pick among the workspace's compose files (sorted by path); Enter alone takes the highlighted one. */
export async function pickComposeFiles(found: readonly vscode.Uri[]): Promise<string[] | undefined> {
  const items = found
    .map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const picked = await pickMany(items, { placeHolder: vscode.l10n.t('Compose file(s): several are merged as several -f') });
  return picked && picked.length > 0 ? picked.map((item) => item.uri.fsPath) : undefined;
}

function fromGroup(deps: SessionsDeps, group: { project: string; engine: string | undefined }, options: Record<string, unknown>): FilesTarget {
  const session = deps.sessionFor(group.engine);
  const project = projectsOf(session).find((candidate) => candidate.name === group.project);
  const files = projectFiles(project ?? { name: group.project, configFiles: [] });
  return { files, session, projectName: group.project, cwd: project?.workingDir, options };
}
