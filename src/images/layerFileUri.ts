/**
 * `berth-image://<engine>/<image-id>/<layer-index>/<path>?{"tar":…,"layer":…,"image":…,"file":…,"note":…}`: one file of
 * one layer of an image. The engine id is the authority (as berth-container: URIs have it), the path is normalised with `layerPathOf`
 * so a hostile entry name never climbs out of its layer, and odd characters are left to the URI's own escaping.
 * `tar` names the layer in the saved image; `image` (the name the row showed), `layer` (its number as the
 * Layers row lists it, 1 = the top) and `note` (a later layer that overwrites or removes the file) word the editor's
 * title, through package.json's resource label formatter. Worded without `vscode` so it is unit-testable: the parts go into and come out of `vscode.Uri`.
 */
import { layerPathOf } from '../engine';
import { shortId } from '../common/format';
import type { LaterChange, LayerFileLocation } from '../engine';

export const IMAGE_LAYER_SCHEME = 'berth-image';

export interface LayerFileAddress extends LayerFileLocation {
  readonly engine: string;
  /** The image as the row named it (a tag or a short id), for titles. */
  readonly imageName: string;
  /** A later layer overwrites or removes this file: the image shows something else at its path. */
  readonly later?: LaterChange | undefined;
}

export interface UriParts {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly query: string;
}

/** The query of a berth-image: URI: the layer tar it reads, and the words of the editor's title. */
interface LayerFileQuery {
  readonly tar: string;
  readonly layer: string;
  readonly image: string;
  readonly file: string;
  /** ` (overwritten by layer 1)`, ` (removed by layer 1)`, or empty. */
  readonly note: string;
}

/** The query's fields that are strings; undefined when the query is no JSON object (a hand-made or foreign URI). */
function queryOf(text: string): Partial<LayerFileQuery> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const fields: Record<string, string> = {};
  for (const key of ['tar', 'layer', 'image', 'file', 'note'] as const) {
    const value = (parsed as Record<string, unknown>)[key];
    if (typeof value === 'string') fields[key] = value;
  }
  return fields;
}

export function layerFileUriParts(address: LayerFileAddress): UriParts {
  // A JSON object, because VS Code's resource label formatter reads `${query.file}` and the like only from one.
  const query: LayerFileQuery = {
    tar: address.tarPath,
    layer: String(address.layerNumber),
    image: address.imageName,
    file: `/${layerPathOf(address.path)}`,
    note: address.later === undefined ? '' : ` (${address.later.change} by layer ${address.later.layerNumber})`,
  };
  return {
    scheme: IMAGE_LAYER_SCHEME,
    authority: address.engine,
    path: `/${address.imageId}/${address.layerIndex}/${layerPathOf(address.path)}`,
    query: JSON.stringify(query),
  };
}

/** The address in a berth-image: URI's parts, or undefined when they do not name one file of one layer. */
export function layerFileAddressOf(parts: UriParts): LayerFileAddress | undefined {
  const match = /^\/([^/]+)\/(\d{1,6})(?:\/([\s\S]*))?$/.exec(parts.path);
  const query = queryOf(parts.query);
  const tarPath = query?.tar;
  const layerNumber = /^\d{1,6}$/.test(query?.layer ?? '') ? Number(query?.layer) : undefined;
  if (parts.scheme !== IMAGE_LAYER_SCHEME || match === null || parts.authority === '' || tarPath === undefined || tarPath === '' || layerNumber === undefined) return undefined;
  const imageId = match[1] as string;
  const later = laterChangeOfNote(query?.note ?? '');
  return {
    engine: parts.authority,
    imageId,
    layerIndex: Number(match[2]),
    layerNumber,
    tarPath,
    path: layerPathOf(match[3] ?? ''),
    imageName: query?.image ?? shortId(imageId),
    ...(later === undefined ? {} : { later }),
  };
}

function laterChangeOfNote(note: string): LaterChange | undefined {
  const match = /^ \((overwritten|removed) by layer (\d{1,6})\)$/.exec(note);
  return match === null ? undefined : { change: match[1] as LaterChange['change'], layerNumber: Number(match[2]) };
}
