/**
 * An image built here in three known steps from the test image, through the engine's build API: add two files,
 * overwrite one, remove the other, with an ENV step between that makes no layer. Its layers and wasted bytes are known
 * by hand, so the layer tests and `berth history`'s comparison with docker share it.
 */
import { writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildImage, type EngineClient } from '../../src/engine';
import { loadTestEngines, uniqueName } from './engines';
import type { EngineSuite } from './engineSuite';

export const A_FIRST = 3000;
export const C_SIZE = 700;
export const A_SECOND = 5000;

/** Builds the image into `tag` from a context written under `folder`. */
export async function buildThreeSteps(client: EngineClient, folder: string, tag: string): Promise<string> {
  mkdirSync(join(folder, 'add'), { recursive: true });
  writeFileSync(join(folder, 'add', 'a.bin'), 'a'.repeat(A_FIRST));
  writeFileSync(join(folder, 'add', 'c.bin'), 'c'.repeat(C_SIZE));
  writeFileSync(join(folder, 'b.bin'), 'b'.repeat(A_SECOND));
  const dockerfile = [`FROM ${loadTestEngines().image}`, 'COPY add/ /data/', 'ENV STEP=two', 'COPY b.bin /data/a.bin', 'RUN rm /data/c.bin', ''];
  writeFileSync(join(folder, 'Dockerfile'), dockerfile.join('\n'));
  await buildImage(client, { contextDir: folder, networkMode: 'none', tags: [tag], noCache: true });
  return tag;
}

/**
 * A suite's three-step images: each call builds one from its own context folder (`name`) into a fresh tag and
 * resolves the tag; the folders and the images go when the suite ends.
 */
export function useThreeStepImages(suite: EngineSuite, prefix: string): (name: string) => Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), `berth-${prefix}-`));
  const tags: string[] = [];
  suite.cleanup(async () => {
    rmSync(folder, { recursive: true, force: true });
    for (const tag of tags) await suite.client.images.remove(tag, { force: true }).catch(() => undefined);
  });
  return (name) => {
    const tag = `localhost/${uniqueName(`berth-${prefix}`).toLowerCase()}:1`;
    tags.push(tag);
    return buildThreeSteps(suite.client, join(folder, name), tag);
  };
}

/**
 * CLIENT with one hook: its saved-image streams pass through WRAP. A group object of its own, since the client's
 * images group is shared with every other caller.
 */
export function hookSavedImage(client: EngineClient, wrap: (body: AsyncIterable<Buffer>) => AsyncIterableIterator<Buffer>): EngineClient {
  const saveImage = client.images.save.bind(client.images);
  const images = Object.create(client.images) as EngineClient['images'];
  const hooked = Object.create(client, { images: { value: images } }) as EngineClient;
  images.save = async (name, options) => {
    const stream = await saveImage(name, options);
    return { body: wrap(stream.body), cancel: () => stream.cancel() };
  };
  return hooked;
}

/**
 * CLIENT with one hook: its saved-image stream removes the image IMAGE_ID at its first chunk, before that chunk is
 * handed on (a read that may end within the first chunk) or after it (a read that goes on).
 */
export function removingAtFirstChunk(client: EngineClient, imageId: string, when: 'before-handing-on' | 'after-handing-on'): EngineClient {
  return hookSavedImage(client, async function* (body) {
    let first = true;
    for await (const chunk of body) {
      if (when === 'after-handing-on') yield chunk;
      if (first) {
        first = false;
        await client.images.remove(imageId, { force: true });
      }
      if (when === 'before-handing-on') yield chunk;
    }
  });
}
