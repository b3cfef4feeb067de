/**
 * The Files feature: the `berth-container` file system (files of any container through the archive API) and
 * "Open Folder in Workspace", which adds a container's directory as a workspace folder so the Explorer, search and
 * Quick Open work inside it; Download and Upload between the host and a container. extension.ts calls `registerFiles` once.
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { command, registerCommandTable } from '../workbench/commandTable';
import type { CoreDeps } from '../workbench/deps';
import { resolveContainers, splitArgs } from '../workbench/targets';
import { ContainerFileSystemProvider } from './provider';
import { transferCommands } from './transfer';
import { CONTAINER_SCHEME, containerUri } from './uri';

export type FilesDeps = CoreDeps;

export { CONTAINER_SCHEME, containerUri } from './uri';

export function registerFiles(deps: FilesDeps, owner: DisposableStore): void {
  const provider = owner.add(new ContainerFileSystemProvider(deps));
  owner.add(vscode.workspace.registerFileSystemProvider(CONTAINER_SCHEME, provider, { isCaseSensitive: true }));
  registerCommandTable(
    [
      command('berth.files.openFolder', 'Opening the container folder', (d: FilesDeps) => async (...args: unknown[]) => {
        const resolved = await resolveContainers(d, args, { placeHolder: 'Container whose files to open', eligible: () => true, many: false });
        const ref = resolved?.refs[0];
        if (ref === undefined) return undefined;
        const given = (splitArgs(args).options as { path?: unknown }).path;
        const path = typeof given === 'string' ? given : await vscode.window.showInputBox({ prompt: `Folder in ${ref.name} to open`, value: '/' });
        if (path === undefined) return undefined;
        const uri = containerUri(ref.session.descriptor.id, ref.id, path);
        const count = vscode.workspace.workspaceFolders?.length ?? 0;
        vscode.workspace.updateWorkspaceFolders(count, 0, { uri, name: `${ref.name}:${path}` });
        return uri.toString();
      }),
    ],
    deps,
    owner,
  );
  registerCommandTable(transferCommands, deps, owner);
}
