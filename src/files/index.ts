/**
 * The Files feature: the `berth-container` file system (files of any container through the archive API) and
 * "Open Folder in Workspace", which adds a container's directory as a workspace folder so the Explorer, search and
 * Quick Open work inside it; Download and Upload between the host and a container. extension.ts calls `registerFiles` once.
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { filesCommands } from './commands';
import type { FilesDeps, FilesFeature } from './deps';
import { ContainerFileSystemProvider } from './provider';
import { FileRows } from './rows';
import { CONTAINER_SCHEME } from './uri';

export type { FilesDeps, FilesFeature } from './deps';
export { CONTAINER_SCHEME, containerUri } from './uri';

export function registerFiles(deps: FilesDeps, owner: DisposableStore): FilesFeature {
  const provider = owner.add(new ContainerFileSystemProvider(deps));
  const rows = owner.add(new FileRows(deps));
  owner.add(vscode.workspace.registerFileSystemProvider(CONTAINER_SCHEME, provider, { isCaseSensitive: true }));
  registerCommandTable(filesCommands(rows), deps, owner);
  return { rows };
}
