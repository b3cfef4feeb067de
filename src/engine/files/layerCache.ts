/**
 * What Berth read of images' layers, kept per image id: the analyses (a few images) and the files opened from them
 * (a few megabytes). An id names the same content for ever, so nothing kept goes stale. Both go through one
 * KeptReads shape: a read is shared by every caller while it runs and is aborted only when all of them have gone.
 */
import type { EngineClient } from '../api';
import { EngineError } from '../connection';
import { readImageLayers, type ReadImageLayersOptions } from './imageLayers';
import type { ImageLayerAnalysis } from './layerAnalysis';
import { KeptReads } from './keptReads';
import { readImageLayerFile, LAYER_FILE_MAX_BYTES, layerFileWhere, type LayerFileLocation, type ReadLayerFileOptions } from './layerFiles';
import { layerPathOf } from './savedImage';

export interface ImageLayersCacheLimits {
  /** Analyses kept. */
  readonly analyses?: number | undefined;
  /** Files kept. */
  readonly files?: number | undefined;
  /** Bytes of the files kept, in all. */
  readonly fileBytes?: number | undefined;
}

export class ImageLayersCache {
  private readonly analyses: KeptReads<ImageLayerAnalysis>;
  private readonly files: KeptReads<Buffer>;

  constructor(limits: ImageLayersCacheLimits = {}) {
    this.analyses = new KeptReads({ maxEntries: limits.analyses ?? 4 });
    this.files = new KeptReads({ maxEntries: limits.files ?? 64, maxBytes: limits.fileBytes ?? 64 * 1024 * 1024, sizeOf: (bytes) => bytes.length });
  }

  /**
   * The analysis of the image with this id, read once. Progress goes to the caller that started the read (the tree
   * has one reader per image).
   */
  analysis(client: EngineClient, imageId: string, options: ReadImageLayersOptions = {}): Promise<ImageLayerAnalysis> {
    const cancelled = (reason: unknown): Error => new EngineError('cancelled', `Reading the layers of ${imageId} was cancelled`, { cause: reason });
    return this.analyses.get(`${client.endpoint.display}\n${imageId}`, (signal) => readImageLayers(client, imageId, { ...options, signal }), options.signal, cancelled);
  }

  /** The analysis if it was read already (or is being read), without reading. */
  peekAnalysis(client: EngineClient, imageId: string): Promise<ImageLayerAnalysis> | undefined {
    return this.analyses.peek(`${client.endpoint.display}\n${imageId}`);
  }

  /** One file of one layer, read once per image id, layer and path. */
  file(client: EngineClient, location: LayerFileLocation, options: ReadLayerFileOptions = {}): Promise<Buffer> {
    const path = layerPathOf(location.path);
    const maxBytes = options.maxBytes ?? LAYER_FILE_MAX_BYTES;
    const key = `${client.endpoint.display}\n${location.imageId}\n${location.tarPath}\n${path}\n${maxBytes}`;
    const cancelled = (reason: unknown): Error => new EngineError('cancelled', `Reading /${path} from ${layerFileWhere(location)} was cancelled`, { cause: reason });
    return this.files.get(key, (signal) => readImageLayerFile(client, location, { maxBytes, signal }), options.signal, cancelled);
  }

  /** Bytes of the files kept now (reads under way count once they end). */
  get fileBytes(): number {
    return this.files.bytes;
  }

  /** Reads under way, analyses and files. */
  get reading(): number {
    return this.analyses.reading + this.files.reading;
  }
}
