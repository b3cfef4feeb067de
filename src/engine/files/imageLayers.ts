/**
 * An image's layers, read from the engine: its history, then its saved-image stream in one pass (`savedImage.ts`),
 * analysed by `layerAnalysis.ts`; ImageLayersCache (`layerCache.ts`) keeps the results. Every failure says what
 * happened in the engine's words and what to do next; an image removed while it is read says exactly that.
 */
import type { EngineClient } from '../api';
import { EngineError, isEngineError } from '../connection';
import { analyzeLayers, type ImageLayerAnalysis } from './layerAnalysis';
import { readSavedImage, SavedImageFormatError } from './savedImage';
import { errorMessage } from '../../common/errors';

export interface ReadImageLayersOptions {
  readonly signal?: AbortSignal | undefined;
  /** Bytes of the saved image read so far, and the entry just read. */
  readonly onProgress?: ((bytesRead: number, entryPath: string) => void) | undefined;
}

/** Reads and analyses an image's layers (no cache: see ImageLayersCache). */
export async function readImageLayers(client: EngineClient, image: string, options: ReadImageLayersOptions = {}): Promise<ImageLayerAnalysis> {
  const { signal } = options;
  const inspect = await client.images.inspect(image, { signal });
  const history = await client.images.history(inspect.Id, { signal });
  let bytesRead = 0;
  try {
    const stream = await client.images.save(inspect.Id, { signal });
    try {
      const contents = await readSavedImage(stream.body, {
        onProgress: (bytes, path) => {
          bytesRead = bytes;
          options.onProgress?.(bytes, path);
        },
      });
      await assertStillThere(client, image, inspect.Id, signal);
      return analyzeLayers(inspect.Id, history, contents);
    } finally {
      stream.cancel();
    }
  } catch (error) {
    if (signal?.aborted === true) throw new EngineError('cancelled', `Reading the layers of ${image} was cancelled`, { cause: error });
    // A connection dropped mid-stream is told as a cut stream, once the engine still answers for the image.
    if (isEngineError(error) && error.kind !== 'unreachable') throw error;
    await assertStillThere(client, image, inspect.Id, signal);
    throw new EngineError('protocol', `The saved image of ${image} could not be read (after ${bytesRead} bytes): ${savedImageProblem(error)}`, {
      endpoint: client.endpoint.display,
      hint: 'The engine stopped sending it or sent something else; try again, and check the engine\'s log if it happens again',
      cause: error,
    });
  }
}

/** Why a saved-image stream could not be read, in a user's words. */
export function savedImageProblem(error: unknown): string {
  if (error instanceof SavedImageFormatError) return error.message;
  if (isEngineError(error, 'unreachable')) return 'the stream ended early (the engine closed the connection)';
  const message = errorMessage(error);
  return /unexpected end|premature|aborted|terminated|closed/i.test(message) ? `the stream ended early (${message})` : message;
}

/** What a read was doing, for the message of an image removed during it. */
export interface RemovedDuring {
  /** `its layers were read` */
  readonly during: string;
  readonly hint: string;
}

const LAYERS_READ: RemovedDuring = { during: 'its layers were read', hint: 'Pull or build it again to see its layers' };

/** An image that is gone by the end of a read was removed during it: the read's results would describe nothing. */
export async function assertStillThere(client: EngineClient, image: string, id: string, signal: AbortSignal | undefined, removed = LAYERS_READ): Promise<void> {
  try {
    await client.images.inspect(id, { signal });
  } catch (error) {
    if (!isEngineError(error, 'not-found')) throw error;
    throw new EngineError('not-found', `The image ${image} was removed while ${removed.during}`, {
      status: 404,
      engineMessage: error.engineMessage,
      endpoint: client.endpoint.display,
      hint: removed.hint,
      cause: error,
    });
  }
}
