/**
 * A file as a container's image has it: read through a helper container created from the image (never started) and
 * the archive API, so it works for images without a shell and for containers that are stopped. The helper is
 * removed when the read ends, whatever happened.
 */
import { type EngineClient, IMAGE_SIDE_HELPER_LABEL } from '../api';
import { readContainerFile, writeContainerFile } from './containerFiles';
import { EngineError, isEngineError } from '../connection';


/**
 * The bytes of PATH in the image CONTAINER was made from, or undefined when the image has no such file (the
 * container added it).
 */
export async function readImageFileOf(client: EngineClient, containerId: string, path: string, signal?: AbortSignal): Promise<Buffer | undefined> {
  const container = await client.containers.inspect(containerId, { signal });
  return withImageSide(client, container.Image, containerId, (helper) => readOrUndefined(client, helper, path, signal), signal);
}

/** Runs WORK with a created-not-started container of IMAGE, then removes it. */
export async function withImageSide<T>(client: EngineClient, image: string, forContainer: string, work: (helperId: string) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const { Id } = await client.containers.create(
    {
      Image: image,
      // Never started: the command only has to be there for the create to pass on an image without one.
      Cmd: ['/berth-never-started'],
      Labels: { [IMAGE_SIDE_HELPER_LABEL]: forContainer },
      HostConfig: { NetworkMode: 'none' },
    },
    { signal },
  );
  try {
    return await work(Id);
  } finally {
    // An image that declares a VOLUME gives its helper an anonymous volume: it goes with the helper.
    await client.containers.remove(Id, { force: true, volumes: true }).catch(() => undefined);
  }
}

async function readOrUndefined(client: EngineClient, helper: string, path: string, signal: AbortSignal | undefined): Promise<Buffer | undefined> {
  try {
    return await readContainerFile(client, helper, path, signal);
  } catch (error) {
    if (isEngineError(error, 'not-found')) return undefined;
    throw error;
  }
}

/**
 * Revert File: writes the image's version of PATH back into the container through the archive API. A file the
 * container added has no image version: that is refused, with what to do instead.
 */
export async function revertToImageFile(client: EngineClient, containerId: string, path: string, signal?: AbortSignal): Promise<void> {
  const original = await readImageFileOf(client, containerId, path, signal);
  if (original === undefined) {
    throw new EngineError('bad-request', `The image of this container has no ${path}: the container added it`, { hint: 'Delete the file instead, if it should go' });
  }
  await writeContainerFile(client, containerId, path, original, signal);
}
