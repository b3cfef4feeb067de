// One file of one layer read from the real private dockerd and Podman: an image built here in three known steps (add
// a.bin and c.bin, overwrite a.bin, remove c.bin). A lower layer's a.bin reads its OLD content, the base layer's file
// reads as the image has it, the removal reads as a whiteout, and each refusal (missing path, folder, size cap, an
// image removed midway) is the bad-input row's message. Layers are named as the tree lists them, from the top; a
// successful read asks the engine nothing after the stream; the cache shares a read between callers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ImageLayersCache,
  isLayerFileRemoved,
  laterChangeOf,
  layerNumberOf,
  readImageLayerFile,
  readImageLayers,
  withImageSide,
  type EngineClient,
  type ImageLayerAnalysis,
  type LayerFileLocation,
} from '../../../../src/engine';
import { readContainerFile } from '../../../../src/engine/files';
import { failureOf } from '../../../support/assertions';
import { engineTargets, loadTestEngines, uniqueName } from '../../../support/engines';
import { useEngineSuite } from '../../../support/engineSuite';
import { A_FIRST, A_SECOND, C_SIZE, buildThreeSteps, hookSavedImage } from '../../../support/layeredImage';
import { scratchFolder } from '../../build/support';
import { expectedMessage } from '../bad-input-cases';

const engines = loadTestEngines();

function at(analysis: ImageLayerAnalysis, layerIndex: number, path: string): LayerFileLocation {
  const layer = analysis.layers[layerIndex];
  assert.ok(layer, `layer ${layerIndex}`);
  return { imageId: analysis.imageId, layerIndex, layerNumber: layerNumberOf(analysis, layerIndex), tarPath: layer.tarPath, path };
}

/** The message values of a layer, counted from the base here: messages name it from the top, as the tree lists it. */
function values(analysis: ImageLayerAnalysis, layerIndex: number, path: string): Record<string, string> {
  return { path, layer: String(layerNumberOf(analysis, layerIndex)), image: analysis.imageId.replace(/^sha256:/, '').slice(0, 12) };
}

/** A client whose inspects and saves are counted. */
function counting(client: EngineClient): { client: EngineClient; inspects: () => number; saves: () => number } {
  let inspects = 0;
  let saves = 0;
  const images = Object.create(client.images) as EngineClient['images'];
  const counted = Object.create(client, { images: { value: images } }) as EngineClient;
  images.inspect = (name, options) => {
    inspects++;
    return client.images.inspect(name, options);
  };
  images.save = (name, options) => {
    saves++;
    return client.images.save(name, options);
  };
  return { client: counted, inspects: () => inspects, saves: () => saves };
}

for (const target of engineTargets(engines)) {
  void describe(`a file of one layer on ${target.name}`, { skip: target.skip }, () => {
    const suite = useEngineSuite({ host: target.host, name: `layer-files-${target.name}`, skip: target.skip });
    const folder = scratchFolder('layer-files');
    const tags: string[] = [];
    let analysis: ImageLayerAnalysis | undefined;
    suite.cleanup(async () => {
      folder.dispose();
      for (const tag of tags) await suite.client.images.remove(tag, { force: true }).catch(() => undefined);
    });
    const newTag = (): string => {
      const tag = `localhost/${uniqueName('berth-layer-files').toLowerCase()}:1`;
      tags.push(tag);
      return tag;
    };
    const built = async (): Promise<ImageLayerAnalysis> => {
      analysis ??= await readImageLayers(suite.client, await buildThreeSteps(suite.client, `${folder.path}/three`, newTag()));
      return analysis;
    };

    void it('a middle layer reads the OLD content of a file the next layer overwrites, the next layer the new one', async () => {
      const image = await built();
      const old = await readImageLayerFile(suite.client, at(image, 1, 'data/a.bin'));
      assert.equal(old.toString('latin1'), 'a'.repeat(A_FIRST));
      const overwritten = await readImageLayerFile(suite.client, at(image, 2, 'data/a.bin'));
      assert.equal(overwritten.toString('latin1'), 'b'.repeat(A_SECOND));
      const removedLater = await readImageLayerFile(suite.client, at(image, 1, 'data/c.bin'));
      assert.equal(removedLater.toString('latin1'), 'c'.repeat(C_SIZE), 'a lower layer still holds what a later one removes');
    });

    void it('the lowest layer: a file of the base reads byte for byte as a container of the image has it', async () => {
      const image = await built();
      const files = image.layers[0]?.files.filter((file) => file.kind === 'file' && file.size > 0 && file.size < 1_000_000) ?? [];
      const file = files.sort((a, b) => b.size - a.size)[0];
      assert.ok(file, 'the base layer holds a regular file');
      const fromLayer = await readImageLayerFile(suite.client, at(image, 0, file.path));
      assert.equal(fromLayer.length, file.size);
      const fromImage = await withImageSide(suite.client, image.imageId, 'layer-files-test', (helper) => readContainerFile(suite.client, helper, `/${file.path}`));
      assert.ok(fromLayer.equals(fromImage), `/${file.path} differs`);
    });

    void it('a hostile spelling of the path stays inside the layer and names the same file', async () => {
      const image = await built();
      const bytes = await readImageLayerFile(suite.client, at(image, 1, '../../.././data//./x/../a.bin/'));
      assert.equal(bytes.toString('latin1'), 'a'.repeat(A_FIRST));
    });

    void it('the layer that removes a file: a whiteout, refused with what to open instead', async () => {
      const image = await built();
      const read = readImageLayerFile(suite.client, at(image, 3, 'data/c.bin'));
      await assert.rejects(read, (error) => isLayerFileRemoved(error), 'told apart from a failed read');
      const failure = await failureOf(read);
      assert.equal(failure.kind, 'not-found');
      assert.equal(failure.message, expectedMessage('layer-file-whiteout', values(image, 3, '/data/c.bin')));
    });

    void it('a path the layer does not hold, and a folder: refused with the rows\' messages', async () => {
      const image = await built();
      const missing = await failureOf(readImageLayerFile(suite.client, at(image, 2, 'data/c.bin')));
      assert.equal(missing.kind, 'not-found');
      assert.equal(missing.message, expectedMessage('layer-file-missing', values(image, 2, '/data/c.bin')));
      const folderFailure = await failureOf(readImageLayerFile(suite.client, at(image, 1, 'data')));
      assert.equal(folderFailure.kind, 'bad-request');
      assert.equal(folderFailure.message, expectedMessage('layer-file-folder', values(image, 1, '/data')));
    });

    void it('a file over the size cap is refused before its bytes are read', async () => {
      const image = await built();
      const failure = await failureOf(readImageLayerFile(suite.client, at(image, 2, 'data/a.bin'), { maxBytes: 1000 }));
      assert.equal(failure.kind, 'bad-request');
      assert.equal(failure.message, expectedMessage('layer-file-too-large', { path: '/data/a.bin', size: '5kB', cap: '1kB' }));
    });

    void it('layers are numbered as the tree lists them: the top (newest) layer is 1, the base the highest', async () => {
      const image = await built();
      const numbers = image.layers.map((layer) => layerNumberOf(image, layer.index));
      const top = numbers[numbers.length - 1];
      assert.equal(Math.min(...numbers), top, 'the newest layer has the smallest number');
      assert.ok(numbers.every((number, index) => index === 0 || number < (numbers[index - 1] as number)), numbers.join(', '));
      for (const layer of image.layers) {
        if (layer.historyIndex !== undefined) assert.equal(layerNumberOf(image, layer.index), layer.historyIndex + 1, 'its row under Layers');
      }
    });

    void it('a file a later layer overwrites or removes says which layer does; the image\'s own version says nothing', async () => {
      const image = await built();
      assert.deepEqual(laterChangeOf(image, 1, 'data/a.bin'), { change: 'overwritten', layerNumber: layerNumberOf(image, 2) });
      assert.deepEqual(laterChangeOf(image, 1, '/data/c.bin'), { change: 'removed', layerNumber: layerNumberOf(image, 3) });
      assert.equal(laterChangeOf(image, 2, 'data/a.bin'), undefined);
    });

    void it('a successful read asks the engine nothing after the stream: no second inspect', async () => {
      const image = await built();
      const counted = counting(suite.client);
      const bytes = await readImageLayerFile(counted.client, at(image, 2, 'data/a.bin'));
      assert.equal(bytes.length, A_SECOND);
      assert.equal(counted.saves(), 1);
      assert.equal(counted.inspects(), 0, 'the bytes are the layer\'s whatever happened to the image since');
    });

    void it('the cache reads a file once per image id and tries a failed read again', async () => {
      const image = await built();
      const counted = counting(suite.client);
      const cache = new ImageLayersCache();
      const first = await cache.file(counted.client, at(image, 1, 'data/a.bin'));
      const again = await cache.file(counted.client, at(image, 1, '/data/a.bin'));
      assert.equal(first, again);
      assert.equal(counted.saves(), 1);
      assert.equal(cache.fileBytes, A_FIRST);
      await failureOf(cache.file(counted.client, at(image, 3, 'data/c.bin')));
      await failureOf(cache.file(counted.client, at(image, 3, 'data/c.bin')));
      assert.equal(counted.saves(), 3, 'a refusal is not kept');
    });

    void it('a shared read survives its first caller cancelling: the other caller gets the file, read once', async () => {
      const image = await built();
      const counted = counting(suite.client);
      const cache = new ImageLayersCache();
      const first = new AbortController();
      const leaving = cache.file(counted.client, at(image, 2, 'data/a.bin'), { signal: first.signal });
      const staying = cache.file(counted.client, at(image, 2, 'data/a.bin'), { signal: new AbortController().signal });
      first.abort();
      const left = await failureOf(leaving);
      assert.equal(left.kind, 'cancelled');
      assert.equal((await staying).toString('latin1'), 'b'.repeat(A_SECOND));
      assert.equal(counted.saves(), 1);
      // The analysis goes through the same shape: every caller gone, the read stops and is not kept.
      const alone = new AbortController();
      const analysis = cache.analysis(counted.client, image.imageId, { signal: alone.signal });
      alone.abort();
      assert.equal((await failureOf(analysis)).kind, 'cancelled');
      assert.equal(cache.reading, 0);
      const read = await cache.analysis(counted.client, image.imageId);
      assert.equal(read.layers.length, image.layers.length);
    });

    void it('an image removed while one of its files is read, the stream then cut: the read stops with a clear message', async () => {
      const image = await readImageLayers(suite.client, await buildThreeSteps(suite.client, `${folder.path}/removed`, newTag()));
      const client = suite.client;
      // The image goes before the first chunk is used, and the stream ends there, before the file.
      const hooked = hookSavedImage(client, async function* (body) {
        for await (const _chunk of body) {
          await client.images.remove(image.imageId, { force: true });
          throw new Error('other side closed');
        }
        yield Buffer.alloc(0);
      });
      const failure = await failureOf(readImageLayerFile(hooked, at(image, 1, 'data/a.bin')));
      assert.equal(failure.kind, 'not-found');
      assert.equal(failure.message, expectedMessage('layer-file-image-removed', values(image, 1, '/data/a.bin')));
    });
  });
}
