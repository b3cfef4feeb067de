// One file of one layer from saved-image streams a real engine does not send on demand: an in-process engine
// (fakeEngine.ts) answers inspect as dockerd does and sends `docker save`'s tar (manifest.json, the config, layer tars)
// chunked. A stream cut before the file stops the read with the row's message; a stream that stays open after the
// file shows that the read stops once the file is read; hostile and odd entry names are read inside their layer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { layerPathOf, readImageLayerFile, readImageLayers, type LayerFileLocation } from '../../../../src/engine';
import { failureOf } from '../../../support/assertions';
import type { FakeRoute } from '../../../support/fakeEngine';
import { useFakeEngine } from '../../../support/fakeEngineSuite';
import { savedImageRoute, savedImageTar, tarOf, type FakeImage } from '../../../support/fakeSavedImage';
import { badInputCase } from '../bad-input-cases';

const IMAGE_ID = `sha256:${'cd'.repeat(32)}`;
const FILLER_BYTES = 512 * 1024;
const ODD_NAME = 'odd/we ird #1?%20&x=y\u00e9\u{1F600}\\back.txt';

/** Two layers: the first (gzipped, as some engines send them) with hostile names, the second with a file and filler. */
async function savedImage(): Promise<Buffer> {
  const first = gzipSync(await tarOf([['../../../etc/escaped', Buffer.from('kept inside')], [ODD_NAME, Buffer.from('odd but fine')]]));
  const second = await tarOf([['data/wanted.txt', Buffer.from('wanted')], ['data/filler.bin', Buffer.alloc(FILLER_BYTES, 1)]]);
  return savedImageTar([
    { tarPath: 'one/layer.tar', createdBy: 'ADD one', tar: first },
    { tarPath: 'two/layer.tar', createdBy: 'ADD two', tar: second },
  ]);
}

const IMAGE: FakeImage = {
  id: IMAGE_ID,
  tag: 'odd:1',
  size: FILLER_BYTES,
  history: [
    { Id: IMAGE_ID, Created: 1767225600, CreatedBy: 'ADD two', Tags: ['odd:1'], Size: FILLER_BYTES, Comment: '' },
    { Id: '<missing>', Created: 1767225600, CreatedBy: 'ADD one', Tags: null, Size: 30, Comment: '' },
  ],
};

/** `cut` ends the response before the second layer's file; `open` sends everything up to past it and then hangs. */
function imageRoutes(whole: () => Buffer, mode: 'whole' | 'cut' | 'open'): FakeRoute {
  return savedImageRoute(IMAGE, (response) => {
    const bytes = whole();
    if (mode === 'whole') {
      response.end(bytes);
      return;
    }
    const wanted = bytes.indexOf('wanted', bytes.indexOf('data/wanted.txt') + 512);
    // Cut: the second layer's header is sent but not the file. Open: the file and some filler, then nothing.
    const sent = mode === 'cut' ? wanted - 16 : wanted + 64 * 1024;
    response.write(bytes.subarray(0, sent), () => {
      if (mode === 'cut') response.end();
    });
  });
}

let whole: Buffer = Buffer.alloc(0);
const image = (): Buffer => whole;

function at(layerIndex: number, path: string): LayerFileLocation {
  // Two layers: the newest (index 1) is the top row of the tree, number 1.
  return { imageId: IMAGE_ID, layerIndex, layerNumber: 2 - layerIndex, tarPath: layerIndex === 0 ? 'one/layer.tar' : 'two/layer.tar', path };
}

void describe('a file of one layer from a fake saved-image stream', () => {
  const complete = useFakeEngine([imageRoutes(image, 'whole')]);
  const cut = useFakeEngine([imageRoutes(image, 'cut')]);
  const open = useFakeEngine([imageRoutes(image, 'open')]);

  void it('hostile and odd entry names: listed by the analysis, read back by their normalised names, never outside the layer', async () => {
    whole = await savedImage();
    const analysis = await readImageLayers(complete.client, 'odd:1');
    const listed = analysis.layers[0]?.files.filter((file) => file.kind === 'file').map((file) => layerPathOf(file.path));
    assert.deepEqual(listed, ['etc/escaped', ODD_NAME]);
    assert.equal((await readImageLayerFile(complete.client, at(0, 'etc/escaped'))).toString(), 'kept inside');
    assert.equal((await readImageLayerFile(complete.client, at(0, '../../../etc/escaped'))).toString(), 'kept inside');
    assert.equal((await readImageLayerFile(complete.client, at(0, ODD_NAME))).toString(), 'odd but fine');
  });

  void it('a stream cut before the file: the read stops with the row\'s message', async () => {
    whole = await savedImage();
    const failure = await failureOf(readImageLayerFile(cut.client, at(1, 'data/wanted.txt')));
    assert.equal(failure.kind, badInputCase('layer-file-stream-cut').errorKind);
    const template = badInputCase('layer-file-stream-cut').message;
    const filled = template.replace('<path>', '/data/wanted.txt').replace('<layer>', '1').replace('<image>', 'cdcdcdcdcdcd');
    const escaped = filled.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('<reason>', '.+');
    assert.match(failure.message, new RegExp(`^${escaped}$`));
  });

  void it('a stream that stays open after the file: the read ends once the file is read, without the rest', { timeout: 120_000 }, async () => {
    whole = await savedImage();
    const bytes = await readImageLayerFile(open.client, at(1, 'data/wanted.txt'));
    assert.equal(bytes.toString(), 'wanted');
  });
});
