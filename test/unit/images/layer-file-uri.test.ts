// berth-image: URIs of one file of one layer: the parts round-trip, odd characters included; a hostile path is
// normalised inside the layer (it never names another image or layer); parts that name no file are refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IMAGE_LAYER_SCHEME, layerFileAddressOf, layerFileUriParts, type LayerFileAddress } from '../../../src/images/layerFileUri';

const BASE: LayerFileAddress = {
  engine: 'docker-local',
  imageId: `sha256:${'ab'.repeat(32)}`,
  layerIndex: 2,
  layerNumber: 5,
  tarPath: `blobs/sha256/${'cd'.repeat(32)}`,
  path: 'data/a.bin',
  imageName: 'localhost/app:1',
};

void describe('berth-image: URI parts', () => {
  void it('carry the engine, image id, layer index and number, layer tar and path, and read back the same', () => {
    const parts = layerFileUriParts(BASE);
    assert.equal(parts.scheme, IMAGE_LAYER_SCHEME);
    assert.equal(parts.authority, 'docker-local');
    assert.equal(parts.path, `/${BASE.imageId}/2/data/a.bin`);
    assert.deepEqual(layerFileAddressOf(parts), BASE);
    const overwritten: LayerFileAddress = { ...BASE, later: { change: 'overwritten', layerNumber: 2 } };
    assert.deepEqual(layerFileAddressOf(layerFileUriParts(overwritten)), overwritten);
  });

  void it('names with odd characters round-trip: spaces, #, ?, %, &, =, backslash, newline, accents, emoji', () => {
    for (const path of ['odd/we ird #1?%20&x=y\\back', 'new\nline', 'caf\u00e9/\u{1F600}.txt', '%2F..%2Fescape', 'a+b;c,d@e']) {
      const address = { ...BASE, path, tarPath: 'odd?tar#name&x=1.tar', imageName: 'name with spaces & #' };
      assert.deepEqual(layerFileAddressOf(layerFileUriParts(address)), address, JSON.stringify(path));
    }
  });

  void it('a hostile path is normalised inside the layer: `..` never climbs into the layer index or image id', () => {
    const parts = layerFileUriParts({ ...BASE, path: '../../../sha256:other/0/etc/passwd' });
    assert.equal(parts.path, `/${BASE.imageId}/2/sha256:other/0/etc/passwd`);
    assert.equal(layerFileAddressOf(parts)?.path, 'sha256:other/0/etc/passwd');
    const typed = layerFileAddressOf({ ...parts, path: `/${BASE.imageId}/2/data/../../../x/./y/` });
    assert.equal(typed?.imageId, BASE.imageId);
    assert.equal(typed?.layerIndex, 2);
    assert.equal(typed?.path, 'x/y');
  });

  void it('the query is a JSON object naming the file, the layer from the top and image, as VS Code\'s label formatter reads it', () => {
    const query: unknown = JSON.parse(layerFileUriParts(BASE).query);
    assert.deepEqual(query, { tar: BASE.tarPath, layer: '5', image: 'localhost/app:1', file: '/data/a.bin', note: '' });
  });

  void it('the query\'s note says which later layer overwrites or removes the file, for the tab', () => {
    const removed = JSON.parse(layerFileUriParts({ ...BASE, later: { change: 'removed', layerNumber: 1 } }).query) as { note: string };
    assert.equal(removed.note, ' (removed by layer 1)');
    const overwritten = JSON.parse(layerFileUriParts({ ...BASE, later: { change: 'overwritten', layerNumber: 3 } }).query) as { note: string };
    assert.equal(overwritten.note, ' (overwritten by layer 3)');
  });

  void it('parts that name no file of a layer are refused', () => {
    const parts = layerFileUriParts(BASE);
    assert.equal(layerFileAddressOf({ ...parts, scheme: 'file' }), undefined);
    assert.equal(layerFileAddressOf({ ...parts, authority: '' }), undefined);
    assert.equal(layerFileAddressOf({ ...parts, query: '' }), undefined, 'no layer tar');
    assert.equal(layerFileAddressOf({ ...parts, query: `tar=${encodeURIComponent(BASE.tarPath)}` }), undefined, 'a query that is no JSON object');
    assert.equal(layerFileAddressOf({ ...parts, query: '["tar"]' }), undefined, 'a JSON array');
    assert.equal(layerFileAddressOf({ ...parts, query: '{"tar":7}' }), undefined, 'a layer tar that is no string');
    assert.equal(layerFileAddressOf({ ...parts, path: `/${BASE.imageId}/two/data/a.bin` }), undefined, 'a layer index that is no number');
    assert.equal(layerFileAddressOf({ ...parts, query: JSON.stringify({ tar: BASE.tarPath, layer: 'top' }) }), undefined, 'a layer number that is no number');
    assert.equal(layerFileAddressOf({ ...parts, path: '/' }), undefined);
  });
});
