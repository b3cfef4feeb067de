/**
 * `berth-container://<engine>/<container-id>/<path>`: the engine id is the authority (VS Code escapes what a host
 * name may not hold), the container id the first path segment, the rest the path inside the container.
 */
import * as vscode from 'vscode';

export const CONTAINER_SCHEME = 'berth-container';

export interface ContainerLocation {
  readonly engine: string;
  readonly containerId: string;
  /** Absolute, `/` for the root. */
  readonly path: string;
}

export function containerUri(engine: string, containerId: string, path = '/'): vscode.Uri {
  const inside = path.startsWith('/') ? path : `/${path}`;
  return vscode.Uri.from({ scheme: CONTAINER_SCHEME, authority: engine, path: `/${containerId}${inside}` });
}

export function locationOf(uri: vscode.Uri): ContainerLocation {
  const match = /^\/([^/]+)(\/.*)?$/.exec(uri.path);
  if (uri.scheme !== CONTAINER_SCHEME || match === null || uri.authority === '') {
    throw vscode.FileSystemError.FileNotFound(uri);
  }
  const rest = (match[2] ?? '/').replace(/(.)\/+$/, '$1');
  return { engine: uri.authority, containerId: match[1] as string, path: rest };
}
