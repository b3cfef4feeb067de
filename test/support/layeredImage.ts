/**
 * An image built here in three known steps from the test image, through the engine's build API: add two files,
 * overwrite one, remove the other, with an ENV step between that makes no layer. Its layers and wasted bytes are known
 * by hand, so the layer tests and `berth history`'s comparison with docker share it.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildImage, type EngineClient } from '../../src/engine';
import { loadTestEngines } from './engines';

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
