// The layer analysis on layer entries written by hand: what the real engines do not make on demand (an opaque
// directory, a whiteout of a whole directory, a directory replaced by a file, history that does not line up with the
// config). Wasted bytes and efficiency are computed here by hand from the sizes written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeLayers, matchHistory, type ImageHistoryEntry, type LayerTarEntry, type SavedImageContents } from '../../../../src/engine';

const file = (path: string, size: number): LayerTarEntry => ({ path, kind: 'file', size, mode: 0o644, linkTarget: '' });
const dir = (path: string): LayerTarEntry => ({ path, kind: 'directory', size: 0, mode: 0o755, linkTarget: '' });
const marker = (path: string): LayerTarEntry => ({ path, kind: 'file', size: 0, mode: 0, linkTarget: '' });

function contents(layers: readonly (readonly LayerTarEntry[])[], emptyFlags?: readonly boolean[]): SavedImageContents {
  const paths = layers.map((_layer, index) => `l${index}/layer.tar`);
  const history = (emptyFlags ?? layers.map(() => false)).map((empty) => ({ created_by: 'x', ...(empty ? { empty_layer: true } : {}) }));
  return {
    layerTars: new Map(layers.map((entries, index) => [paths[index] as string, entries])),
    documents: new Map<string, unknown>([
      ['manifest.json', [{ Config: 'config.json', Layers: paths }]],
      ['config.json', { history }],
    ]),
  };
}

const history = (sizes: readonly number[]): ImageHistoryEntry[] =>
  sizes.map((Size, index) => ({ Id: `sha256:${index}`, Created: 0, CreatedBy: `step ${index}`, Tags: null, Size, Comment: '' })).reverse();

void describe('layer analysis', () => {
  void it('an opaque directory hides everything below it in lower layers, and its new files are added', () => {
    const analysis = analyzeLayers('sha256:x', history([0, 0]), contents([
      [dir('app'), file('app/a', 100), dir('app/sub'), file('app/sub/b', 40)],
      [dir('app'), marker('app/.wh..wh..opq'), file('app/c', 7)],
    ]));
    assert.equal(analysis.wastedBytes, 140);
    assert.equal(analysis.totalBytes, 147);
    assert.equal(analysis.efficiency, 7 / 147);
    const top = analysis.layers[1]?.files.map((entry) => `${entry.change} ${entry.path} ${entry.size}`);
    assert.deepEqual(top?.sort(), ['added app/c 7', 'changed app 140', 'removed app/a 0', 'removed app/sub 0']);
  });

  void it('a whiteout of a directory removes what is under it, counted on the removal row', () => {
    const analysis = analyzeLayers('sha256:x', history([0, 0]), contents([
      [dir('cache'), file('cache/one', 10), file('cache/two', 20), file('keep', 5)],
      [marker('.wh.cache')],
    ]));
    assert.deepEqual(analysis.layers[1]?.files.map((entry) => `${entry.change} ${entry.path} ${entry.size}`), ['removed cache 30']);
    assert.equal(analysis.wastedBytes, 30);
    assert.deepEqual(analysis.wastedPaths.map((path) => path.path), ['cache/two', 'cache/one']);
  });

  void it('a directory replaced by a file wastes what the directory held; a file overwritten twice counts both old versions', () => {
    const analysis = analyzeLayers('sha256:x', history([0, 0, 0]), contents([
      [dir('d'), file('d/x', 8), file('f', 1)],
      [file('d', 3), file('f', 2)],
      [file('f', 4)],
    ]));
    assert.equal(analysis.wastedBytes, 8 + 1 + 2);
    assert.deepEqual(analysis.wastedPaths.map((path) => `${path.path} ${path.bytes} ${path.versions}`), ['d/x 8 1', 'f 3 3']);
    assert.equal(analysis.layers[0]?.wastedBytes, 9);
    assert.equal(analysis.layers[1]?.wastedBytes, 2);
  });

  void it('a directory repeated above a changed path is not listed again', () => {
    const analysis = analyzeLayers('sha256:x', history([0, 0]), contents([[dir('etc'), file('etc/a', 1)], [dir('etc'), file('etc/b', 1)]]));
    assert.deepEqual(analysis.layers[1]?.files.map((entry) => `${entry.change} ${entry.path}`), ['added etc/b']);
  });

  void it('matches layers to history by the config\'s empty_layer flags, newest first', () => {
    assert.deepEqual(matchHistory(history([5, 0, 7]), [{}, { empty_layer: true }, {}], 2), [1, undefined, 0]);
  });

  void it('without a config history of the same length, the entries with a size are the layers, if as many', () => {
    assert.deepEqual(matchHistory(history([5, 0, 7]), undefined, 2), [1, undefined, 0]);
    assert.deepEqual(matchHistory(history([5, 0, 7]), undefined, 3), [undefined, undefined, undefined]);
  });

  void it('a saved image without manifest.json is refused', () => {
    assert.throws(() => analyzeLayers('sha256:x', [], { layerTars: new Map(), documents: new Map() }), /no manifest\.json/);
  });
});
