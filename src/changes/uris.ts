/**
 * The two URIs of a changed path: `berth-change:` names a row for its A/C/D decoration (the kind in the query), and
 * `berth-image-file:` reads the path as the container's image has it (the left side of a diff). Both are
 * `<scheme>://<engine>/<container-id>/<path>`, as berth-container: URIs are.
 */
import * as vscode from 'vscode';
import type { ChangeKind } from '../engine';

export const CHANGE_SCHEME = 'berth-change';
export const IMAGE_FILE_SCHEME = 'berth-image-file';

export function changeUri(engine: string, containerId: string, path: string, kind: ChangeKind | undefined): vscode.Uri {
  return vscode.Uri.from({ scheme: CHANGE_SCHEME, authority: engine, path: `/${containerId}${path}`, query: kind === undefined ? '' : `kind=${kind}` });
}

export function imageFileUri(engine: string, containerId: string, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: IMAGE_FILE_SCHEME, authority: engine, path: `/${containerId}${path}` });
}

export interface ChangeLocation {
  readonly engine: string;
  readonly containerId: string;
  readonly path: string;
  readonly kind: ChangeKind | undefined;
}

export function changeLocationOf(uri: vscode.Uri): ChangeLocation | undefined {
  const match = /^\/([^/]+)(\/.*)$/.exec(uri.path);
  if (match === null || uri.authority === '') return undefined;
  const kindText = /^kind=([012])$/.exec(uri.query)?.[1];
  return { engine: uri.authority, containerId: match[1] as string, path: match[2] as string, kind: kindText === undefined ? undefined : (Number(kindText) as ChangeKind) };
}
