/**
 * `berth-image://<engine>/<image-id>/<layer-index>/<path>?tar=<layer tar>&image=<name>`: one file of one layer of an
 * image. The engine id is the authority (as berth-container: URIs have it), the path is normalised with `layerPathOf`
 * so a hostile entry name never climbs out of its layer, and odd characters are left to the URI's own escaping.
 * `tar` names the layer in the saved image; `image` (the name the row showed) and `layer` only word the editor's
 * title. Worded without `vscode` so it is unit-testable: the parts go into and come out of `vscode.Uri`.
 */
import { layerPathOf } from '../engine';
import type { LayerFileLocation } from '../engine';

export const IMAGE_LAYER_SCHEME = 'berth-image';

export interface LayerFileAddress extends LayerFileLocation {
  readonly engine: string;
  /** The image as the row named it (a tag or a short id), for titles. */
  readonly imageName: string;
}

export interface UriParts {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly query: string;
}

export function layerFileUriParts(address: LayerFileAddress): UriParts {
  const query = new URLSearchParams({ tar: address.tarPath, layer: String(address.layerIndex), image: address.imageName, file: `/${layerPathOf(address.path)}` });
  return {
    scheme: IMAGE_LAYER_SCHEME,
    authority: address.engine,
    path: `/${address.imageId}/${address.layerIndex}/${layerPathOf(address.path)}`,
    query: query.toString(),
  };
}

/** The address in a berth-image: URI's parts, or undefined when they do not name one file of one layer. */
export function layerFileAddressOf(parts: UriParts): LayerFileAddress | undefined {
  const match = /^\/([^/]+)\/(\d{1,6})(?:\/([\s\S]*))?$/.exec(parts.path);
  const query = new URLSearchParams(parts.query);
  const tarPath = query.get('tar');
  if (parts.scheme !== IMAGE_LAYER_SCHEME || match === null || parts.authority === '' || tarPath === null || tarPath === '') return undefined;
  const imageId = match[1] as string;
  return {
    engine: parts.authority,
    imageId,
    layerIndex: Number(match[2]),
    tarPath,
    path: layerPathOf(match[3] ?? ''),
    imageName: query.get('image') ?? imageId.replace(/^sha256:/, '').slice(0, 12),
  };
}
