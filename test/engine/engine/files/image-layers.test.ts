// An image's layers read from the real private dockerd and Podman: an image built here through the engine's build
// API in three known steps (add two files, overwrite one, remove the other, with an ENV step between that makes no
// layer), whose files, whiteouts and wasted bytes are known by hand; and an image removed while its layers are read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readImageLayers, type ImageLayerAnalysis } from '../../../../src/engine';
import { failureOf } from '../../../support/assertions';
import { engineTargets, loadTestEngines } from '../../../support/engines';
import { useEngineSuite } from '../../../support/engineSuite';
import { A_FIRST, A_SECOND, C_SIZE, removingAtFirstChunk, useThreeStepImages } from '../../../support/layeredImage';
import { expectedMessage } from '../bad-input-cases';

const engines = loadTestEngines();

/** What a layer did under /data, as `change path size` lines. */
function dataChanges(analysis: ImageLayerAnalysis, layer: number): string[] {
  const files = analysis.layers[layer]?.files ?? [];
  return files.filter((file) => file.path.startsWith('data/')).map((file) => `${file.change} ${file.path} ${file.size}`);
}

for (const target of engineTargets(engines)) {
  void describe(`image layers on ${target.name}`, { skip: target.skip }, () => {
    const suite = useEngineSuite({ host: target.host, name: `layers-${target.name}`, skip: target.skip });
    const buildThreeSteps = useThreeStepImages(suite, 'layers');

    void it('lists what each of three steps added, overwrote and removed, and the wasted bytes computed by hand', async () => {
      const tag = await buildThreeSteps('three');
      const analysis = await readImageLayers(suite.client, tag);

      assert.equal(analysis.layers.length, 4, 'the base and the three steps that change files');
      // Newest first: RUN rm, COPY b.bin, ENV (no layer), COPY add/, then the base.
      assert.equal(analysis.history.length, 5);
      assert.deepEqual(analysis.layerOfHistory, [3, 2, undefined, 1, 0]);
      assert.match(analysis.history[2]?.CreatedBy ?? '', /ENV STEP=two/);
      assert.deepEqual(dataChanges(analysis, 1), [`added data/a.bin ${A_FIRST}`, `added data/c.bin ${C_SIZE}`]);
      assert.deepEqual(dataChanges(analysis, 2), [`changed data/a.bin ${A_SECOND}`]);
      assert.deepEqual(dataChanges(analysis, 3), [`removed data/c.bin ${C_SIZE}`]);

      const wasted = A_FIRST + C_SIZE;
      assert.equal(analysis.wastedBytes, wasted);
      assert.equal(analysis.layers[1]?.wastedBytes, wasted, 'both lost versions were added by the first step');
      assert.equal(analysis.layers[2]?.wastedBytes, 0);
      const total = (analysis.layers[0]?.bytes ?? 0) + A_FIRST + C_SIZE + A_SECOND;
      assert.equal(analysis.totalBytes, total);
      assert.equal(analysis.efficiency, (total - wasted) / total);
      assert.deepEqual(analysis.wastedPaths.map((path) => `${path.path} ${path.bytes} ${path.versions}`), [`data/a.bin ${A_FIRST} 2`, `data/c.bin ${C_SIZE} 1`]);
    });

    void it('an image removed while its layers are read: the read stops with a clear message', async () => {
      const tag = await buildThreeSteps('removed');
      const { Id } = await suite.client.images.inspect(tag);
      const hooked = removingAtFirstChunk(suite.client, Id, 'after-handing-on');
      const failure = await failureOf(readImageLayers(hooked, tag));
      assert.equal(failure.kind, 'not-found');
      assert.equal(failure.message, expectedMessage('layers-image-removed', { image: tag }));
    });
  });
}
