// One file of one layer read from the real private dockerd and Podman: an image built here in three known steps (add
// a.bin and c.bin, overwrite a.bin, remove c.bin). A lower layer's a.bin reads its OLD content, the base layer's file
// reads as the image has it, the removal reads as a whiteout, and each refusal (missing path, folder, size cap, an
// image removed midway) is the bad-input row's message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  LayerFileCache,
  readImageLayerFile,
  readImageLayers,
  withImageSide,
  type EngineClient,
  type ImageLayerAnalysis,
  type LayerFileLocation,
} from '../../../../src/engine';
import { readContainerFile } from '../../../../src/engine/files';
import { shortId } from '../../../../src/common/format';
import { failureOf } from '../../../support/assertions';
import { engineTargets, loadTestEngines } from '../../../support/engines';
import { useEngineSuite } from '../../../support/engineSuite';
import { A_FIRST, A_SECOND, C_SIZE, removingAtFirstChunk, useThreeStepImages } from '../../../support/layeredImage';
import { expectedMessage } from '../bad-input-cases';

const engines = loadTestEngines();

function at(analysis: ImageLayerAnalysis, layerIndex: number, path: string): LayerFileLocation {
  const layer = analysis.layers[layerIndex];
  assert.ok(layer, `layer ${layerIndex}`);
  return { imageId: analysis.imageId, layerIndex, tarPath: layer.tarPath, path };
}

function values(analysis: ImageLayerAnalysis, layer: number, path: string): Record<string, string> {
  return { path, layer: String(layer), image: shortId(analysis.imageId) };
}

for (const target of engineTargets(engines)) {
  void describe(`a file of one layer on ${target.name}`, { skip: target.skip }, () => {
    const suite = useEngineSuite({ host: target.host, name: `layer-files-${target.name}`, skip: target.skip });
    const buildThreeSteps = useThreeStepImages(suite, 'layer-files');
    let analysis: ImageLayerAnalysis | undefined;
    const built = async (): Promise<ImageLayerAnalysis> => {
      analysis ??= await readImageLayers(suite.client, await buildThreeSteps('three'));
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
      const failure = await failureOf(readImageLayerFile(suite.client, at(image, 3, 'data/c.bin')));
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

    void it('the cache reads a file once per image id and tries a failed read again', async () => {
      const image = await built();
      let saves = 0;
      const counting = Object.create(suite.client) as EngineClient;
      counting.saveImage = (name, options) => {
        saves++;
        return suite.client.saveImage(name, options);
      };
      const cache = new LayerFileCache();
      const first = await cache.read(counting, at(image, 1, 'data/a.bin'));
      const again = await cache.read(counting, at(image, 1, '/data/a.bin'));
      assert.equal(first, again);
      assert.equal(saves, 1);
      assert.equal(cache.bytes, A_FIRST);
      await failureOf(cache.read(counting, at(image, 3, 'data/c.bin')));
      await failureOf(cache.read(counting, at(image, 3, 'data/c.bin')));
      assert.equal(saves, 3, 'a refusal is not kept');
    });

    void it('an image removed while one of its files is read: the read stops with a clear message', async () => {
      const image = await readImageLayers(suite.client, await buildThreeSteps('removed'));
      // The file may sit in the first chunk, after which the read stops: the image goes before that chunk is used.
      const hooked = removingAtFirstChunk(suite.client, image.imageId, 'before-handing-on');
      const failure = await failureOf(readImageLayerFile(hooked, at(image, 1, 'data/a.bin')));
      assert.equal(failure.kind, 'not-found');
      assert.equal(failure.message, expectedMessage('layer-file-image-removed', values(image, 1, '/data/a.bin')));
    });
  });
}
