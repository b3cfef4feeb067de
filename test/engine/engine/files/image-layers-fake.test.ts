// A saved-image stream cut midway, which a real engine does not do on demand: an in-process engine (fakeEngine.ts)
// answers inspect and history as dockerd does and sends `docker save`'s tar (manifest.json, the config, one layer
// tar) chunked, then stops halfway through the layer, once by ending the response and once by dropping the
// connection. The read must stop with the row's message, not hang, crash or report a partial image.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readImageLayers, readSavedImage } from '../../../../src/engine';
import { failureOf } from '../../../support/assertions';
import type { FakeRoute } from '../../../support/fakeEngine';
import { useFakeEngine } from '../../../support/fakeEngineSuite';
import { savedImageRoute, savedImageTar, tarOf, type FakeImage } from '../../../support/fakeSavedImage';
import { badInputCase } from '../bad-input-cases';

const IMAGE_ID = `sha256:${'ab'.repeat(32)}`;
const LAYER_FILE_BYTES = 256 * 1024;

async function savedImage(): Promise<Buffer> {
  const layer = await tarOf([['data/big.bin', Buffer.alloc(LAYER_FILE_BYTES, 7)]]);
  return savedImageTar([{ tarPath: 'one/layer.tar', createdBy: 'COPY big.bin /data/', tar: layer }]);
}

const IMAGE: FakeImage = {
  id: IMAGE_ID,
  tag: 'cut:1',
  size: LAYER_FILE_BYTES,
  history: [{ Id: IMAGE_ID, Created: 1767225600, CreatedBy: 'COPY big.bin /data/', Tags: ['cut:1'], Size: LAYER_FILE_BYTES, Comment: '' }],
};

/** The saved image, cut after half its bytes: the response ends cleanly, or the connection is dropped. */
function imageRoutes(whole: () => Buffer, cut: 'end' | 'drop' | 'none'): FakeRoute {
  return savedImageRoute(IMAGE, (response) => {
    const bytes = whole();
    if (cut === 'none') {
      response.end(bytes);
      return;
    }
    response.write(bytes.subarray(0, bytes.length >> 1), () => {
      if (cut === 'end') response.end();
      else response.socket?.destroy();
    });
  });
}

/** The row's message as a pattern: <image> filled in, the byte count and the reason as they came. */
function rowPattern(image: string): RegExp {
  const template = badInputCase('layers-stream-cut').message.replace('<image>', image);
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace('<bytes>', '\\d+').replace('<reason>', '.+')}$`);
}

let whole: Buffer = Buffer.alloc(0);
const image = (): Buffer => whole;

void describe('a saved-image stream cut midway', () => {
  const complete = useFakeEngine([imageRoutes(image, 'none')]);
  const ended = useFakeEngine([imageRoutes(image, 'end')]);
  const dropped = useFakeEngine([imageRoutes(image, 'drop')]);

  void it('the whole stream reads: one layer with its one file (the fake is a readable saved image)', async () => {
    whole = await savedImage();
    const analysis = await readImageLayers(complete.client, 'cut:1');
    assert.deepEqual(analysis.layers.map((layer) => layer.files.map((file) => `${file.change} ${file.path} ${file.size}`)), [['added data/big.bin 262144']]);
    assert.deepEqual(analysis.layerOfHistory, [0]);
  });

  void it('a response that ends halfway through a layer: the read stops with the row\'s message', async () => {
    whole = await savedImage();
    const failure = await failureOf(readImageLayers(ended.client, 'cut:1'));
    assert.equal(failure.kind, badInputCase('layers-stream-cut').errorKind);
    assert.match(failure.message, rowPattern('cut:1'));
  });

  void it('a connection dropped halfway through a layer: the read stops with the row\'s message', async () => {
    whole = await savedImage();
    const failure = await failureOf(readImageLayers(dropped.client, 'cut:1'));
    assert.equal(failure.kind, badInputCase('layers-stream-cut').errorKind);
    assert.match(failure.message, rowPattern('cut:1'));
  });

  void it('the parts of a cut stream alone: the reader rejects and keeps no partial result', async () => {
    const bytes = await savedImage();
    const cut = [bytes.subarray(0, bytes.length >> 1)];
    await assert.rejects(readSavedImage(cut), (error: unknown) => error instanceof Error && /unexpected end/i.test(error.message));
  });
});
