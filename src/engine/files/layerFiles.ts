/**
 * One file of one layer of an image, as that layer holds it (not as the image shows it: a lower layer's version of a
 * path a later layer overwrites reads as the lower layer wrote it). Read from the saved-image stream
 * (`GET /images/{id}/get`) in one pass that stops as soon as the file is read; nothing is written to disk, and only the
 * file itself is held, up to a size cap. Reads are kept by ImageLayersCache (layerCache.ts).
 */
import type { EngineClient } from '../api';
import { EngineError, isEngineError } from '../connection';
import { assertStillThere, savedImageProblem, type RemovedDuring } from './imageLayers';
import { findLayerFile, layerPathOf, type LayerFileHit } from './savedImage';
import { formatBytes, shortId } from '../../common/format';
import type { ImageLayerAnalysis } from './layerAnalysis';

/** Larger files are refused: an editor is no place for them, and the whole file is held in memory. */
export const LAYER_FILE_MAX_BYTES = 50 * 1024 * 1024;

export interface LayerFileLocation {
  readonly imageId: string;
  /** Position in the image's layers, 0 = the base. */
  readonly layerIndex: number;
  /** The layer as Berth's Layers row lists it, 1 = the top row (the newest): messages name the layer by it. */
  readonly layerNumber: number;
  /** The layer tar's path in the saved image (`AnalyzedLayer.tarPath`). */
  readonly tarPath: string;
  /** The path inside the layer, without a leading slash; normalised with `layerPathOf`. */
  readonly path: string;
}

export interface ReadLayerFileOptions {
  readonly signal?: AbortSignal | undefined;
  /** Defaults to LAYER_FILE_MAX_BYTES. */
  readonly maxBytes?: number | undefined;
}

const REMOVED_DURING = (shown: string): RemovedDuring => ({ during: `${shown} was read from it`, hint: 'Pull or build it again to open its files' });

/** The layer removes the file (a whiteout): a plain fact about the image, not a failure of the read. */
export class LayerFileRemovedError extends EngineError {
  constructor(message: string) {
    super('not-found', message, { status: 404, hint: 'Open it from a lower layer to see what it held' });
  }
}

export function isLayerFileRemoved(error: unknown): error is LayerFileRemovedError {
  return error instanceof LayerFileRemovedError;
}

/** How messages name the layer of a location: as the Layers row lists it, counted from the top. */
export function layerFileWhere(location: Pick<LayerFileLocation, 'layerNumber' | 'imageId'>): string {
  return `layer ${location.layerNumber} from the top of the image ${shortId(location.imageId)}`;
}

/** The layer's number as Berth's Layers row lists it: its history row counted from the top, 1 = the newest. */
export function layerNumberOf(analysis: Pick<ImageLayerAnalysis, 'layers'>, layerIndex: number): number {
  const historyIndex = analysis.layers[layerIndex]?.historyIndex;
  // A layer the history could not be matched to is counted among the layers alone.
  return historyIndex === undefined ? analysis.layers.length - layerIndex : historyIndex + 1;
}

/** The bytes of one file of one layer. Every refusal says what is at that path instead and what to do next. */
export async function readImageLayerFile(client: EngineClient, location: LayerFileLocation, options: ReadLayerFileOptions = {}): Promise<Buffer> {
  const { signal } = options;
  const maxBytes = options.maxBytes ?? LAYER_FILE_MAX_BYTES;
  const path = layerPathOf(location.path);
  const shown = `/${path}`;
  const where = layerFileWhere(location);
  const chunks: Buffer[] = [];
  let hit: LayerFileHit | undefined;
  let layerFound = false;
  try {
    const stream = await client.images.save(location.imageId, { signal });
    try {
      ({ hit, layerFound } = await findLayerFile(stream.body, location.tarPath, path, (found) => {
        if (found.whiteout || found.entry.kind !== 'file' || found.entry.size > maxBytes) return undefined;
        return (chunk) => chunks.push(chunk);
      }));
    } finally {
      stream.cancel();
    }
  } catch (error) {
    if (signal?.aborted === true) throw new EngineError('cancelled', `Reading ${shown} from ${where} was cancelled`, { cause: error });
    if (isEngineError(error) && error.kind !== 'unreachable') throw error;
    await assertStillThere(client, shortId(location.imageId), location.imageId, signal, REMOVED_DURING(shown));
    throw new EngineError('protocol', `${shown} could not be read from ${where}: ${savedImageProblem(error)}`, {
      endpoint: client.endpoint.display,
      hint: 'The engine stopped sending the saved image or sent something else; try again',
      cause: error,
    });
  }
  // A read that failed is explained by an image removed meanwhile (the catch above, and a refusal below); bytes that
  // were read are that layer's whatever happened to the image since, so a success costs no second request.
  if (hit === undefined || !layerFound) await assertStillThere(client, shortId(location.imageId), location.imageId, signal, REMOVED_DURING(shown));
  return checkedBytes(hit, chunks, { shown, where, maxBytes, layerFound, path: location.tarPath });
}

function checkedBytes(hit: LayerFileHit | undefined, chunks: Buffer[], at: { shown: string; where: string; maxBytes: number; layerFound: boolean; path: string }): Buffer {
  const { shown, where } = at;
  if (!at.layerFound) {
    throw new EngineError('not-found', `The saved image has no layer ${at.path} (${where})`, { status: 404, hint: 'Refresh the image\'s layers and open the file again' });
  }
  if (hit === undefined) {
    throw new EngineError('not-found', `${shown} is not in ${where}`, { status: 404, hint: 'Open it from the layer that lists it under the image\'s Layers row' });
  }
  if (hit.whiteout) throw new LayerFileRemovedError(`${shown} was removed by ${where}: that layer holds no content for it`);
  const { entry } = hit;
  if (entry.kind === 'directory') throw new EngineError('bad-request', `${shown} is a folder in ${where}`, { hint: 'Expand the layer to see its files' });
  if (entry.kind === 'symlink') throw new EngineError('bad-request', `${shown} is a symbolic link to ${entry.linkTarget} in ${where}`, { hint: 'Open the file it points to' });
  if (entry.kind === 'link') throw new EngineError('bad-request', `${shown} is a hard link to /${layerPathOf(entry.linkTarget)} in ${where}`, { hint: 'Open the file it links to' });
  if (entry.kind !== 'file') throw new EngineError('bad-request', `${shown} is not a regular file in ${where}`, { hint: 'Only regular files open' });
  if (entry.size > at.maxBytes) {
    throw new EngineError('bad-request', `${shown} is ${formatBytes(entry.size)}, more than the ${formatBytes(at.maxBytes)} Berth opens from a layer`, {
      hint: 'Run a container of the image and download the file from its Files row',
    });
  }
  return Buffer.concat(chunks);
}

/** What the first later layer that touches a layer's file does to it: the file the image shows is not this one. */
export interface LaterChange {
  readonly change: 'overwritten' | 'removed';
  /** That later layer, numbered as layerNumberOf numbers it. */
  readonly layerNumber: number;
}

/**
 * Whether a layer above `layerIndex` overwrites `path` or removes it (or a folder above it): what the image shows at
 * that path is then not what this layer holds. Undefined when the file is the image's own version.
 */
export function laterChangeOf(analysis: Pick<ImageLayerAnalysis, 'layers'>, layerIndex: number, path: string): LaterChange | undefined {
  const wanted = layerPathOf(path);
  for (let index = layerIndex + 1; index < analysis.layers.length; index++) {
    const layer = analysis.layers[index] as ImageLayerAnalysis['layers'][number];
    for (const file of layer.files) {
      const filePath = layerPathOf(file.path);
      if (filePath === wanted) return { change: file.change === 'removed' ? 'removed' : 'overwritten', layerNumber: layerNumberOf(analysis, index) };
      if (file.change === 'removed' && wanted.startsWith(`${filePath}/`)) return { change: 'removed', layerNumber: layerNumberOf(analysis, index) };
    }
  }
  return undefined;
}
