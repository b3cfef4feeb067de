/**
 * One file of one layer of an image, as that layer holds it (not as the image shows it: a lower layer's version of a
 * path a later layer overwrites reads as the lower layer wrote it). Read from the saved-image stream
 * (`GET /images/{id}/get`) in one pass that stops as soon as the file is read; nothing is written to disk, and only the
 * file itself is held, up to a size cap. Reads are kept per image id, a few megabytes in all: an id names the same
 * content for ever, so a kept file never goes stale.
 */
import type { EngineClient } from '../api';
import { EngineError, isEngineError } from '../connection';
import { assertStillThere, savedImageProblem, type RemovedDuring } from './imageLayers';
import { findLayerFile, layerPathOf, type LayerFileHit } from './savedImage';
import { formatBytes, shortId } from '../../common/format';

/** Larger files are refused: an editor is no place for them, and the whole file is held in memory. */
export const LAYER_FILE_MAX_BYTES = 50 * 1024 * 1024;

export interface LayerFileLocation {
  readonly imageId: string;
  /** Position in the image's layers, 0 = the base (for messages). */
  readonly layerIndex: number;
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

/** The bytes of one file of one layer. Every refusal says what is at that path instead and what to do next. */
export async function readImageLayerFile(client: EngineClient, location: LayerFileLocation, options: ReadLayerFileOptions = {}): Promise<Buffer> {
  const { signal } = options;
  const maxBytes = options.maxBytes ?? LAYER_FILE_MAX_BYTES;
  const path = layerPathOf(location.path);
  const shown = `/${path}`;
  const where = `layer ${location.layerIndex} of the image ${shortId(location.imageId)}`;
  const chunks: Buffer[] = [];
  let hit: LayerFileHit | undefined;
  let layerFound = false;
  try {
    const stream = await client.saveImage(location.imageId, { signal });
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
  // Whatever the stream held, an image gone by now was removed during the read: say that, as the layers read does.
  await assertStillThere(client, shortId(location.imageId), location.imageId, signal, REMOVED_DURING(shown));
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
  if (hit.whiteout) {
    throw new EngineError('not-found', `${shown} was removed in ${where}: this layer holds no content for it`, { status: 404, hint: 'Open it from a lower layer to see what it held' });
  }
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

/** Files read from layers, kept per image id: at most `maxImages` images and `maxBytes` in all, least recently used go first. */
export class LayerFileCache {
  private readonly images = new Map<string, Map<string, Promise<Buffer>>>();
  private readonly sizes = new Map<Promise<Buffer>, number>();
  private keptBytes = 0;

  constructor(
    private readonly maxImages = 4,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  /** The file, read once per image id, layer and path; a failed read is forgotten so the next call tries again. */
  read(client: EngineClient, location: LayerFileLocation, options: ReadLayerFileOptions = {}): Promise<Buffer> {
    const key = `${location.tarPath}\n${layerPathOf(location.path)}`;
    let files = this.images.get(location.imageId);
    if (files !== undefined) this.images.delete(location.imageId);
    files ??= new Map();
    this.images.set(location.imageId, files);
    const kept = files.get(key);
    if (kept !== undefined) return kept;
    const reading = readImageLayerFile(client, location, options);
    const keptFiles = files;
    keptFiles.set(key, reading);
    reading.then(
      (bytes) => {
        if (keptFiles.get(key) !== reading) return;
        this.sizes.set(reading, bytes.length);
        this.keptBytes += bytes.length;
        this.trim();
      },
      () => {
        if (keptFiles.get(key) === reading) keptFiles.delete(key);
      },
    );
    this.trim();
    return reading;
  }

  /** Bytes of the files kept now (reads under way count once they end). */
  get bytes(): number {
    return this.keptBytes;
  }

  private trim(): void {
    while (this.images.size > this.maxImages || (this.keptBytes > this.maxBytes && this.images.size > 0)) {
      const [oldest, files] = this.images.entries().next().value as [string, Map<string, Promise<Buffer>>];
      if (this.images.size === 1 && this.images.size <= this.maxImages) {
        // One image over the byte bound: its oldest files go first.
        const [firstKey, first] = files.entries().next().value as [string, Promise<Buffer>];
        files.delete(firstKey);
        this.forget(first);
        if (files.size === 0) this.images.delete(oldest);
        continue;
      }
      this.images.delete(oldest);
      for (const file of files.values()) this.forget(file);
    }
  }

  private forget(file: Promise<Buffer>): void {
    this.keptBytes -= this.sizes.get(file) ?? 0;
    this.sizes.delete(file);
  }
}
