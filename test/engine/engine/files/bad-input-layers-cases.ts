// The bad-input rows of image layers and history (issue 36), asserted by test/engine/engine/files/image-layers.test.ts
// (the real engines) and test/engine/engine/files/image-layers-fake.test.ts (a stream cut midway); the rows of one layer's
// file by test/engine/engine/files/layer-files.test.ts and layer-files-fake.test.ts; part of BAD_INPUT_CASES.
import type { BadInputCase } from '../bad-input-cases';

export const LAYERS_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'layers-image-removed',
    category: 'Image layers',
    action: 'image layers',
    input: 'an image removed while its layers are read',
    kind: 'error',
    errorKind: 'not-found',
    message: 'The image <image> was removed while its layers were read. Pull or build it again to see its layers',
  },
  {
    id: 'layers-stream-cut',
    category: 'Image layers',
    action: 'image layers',
    input: 'a saved-image stream cut midway',
    kind: 'error',
    errorKind: 'protocol',
    message:
      "The saved image of <image> could not be read (after <bytes> bytes): the stream ended early (<reason>). The engine stopped sending it or sent something else; try again, and check the engine's log if it happens again",
  },
  {
    id: 'layer-file-image-removed',
    category: 'Image layers',
    action: 'open a file of a layer',
    input: 'an image removed while one of its files is read',
    kind: 'error',
    errorKind: 'not-found',
    message: 'The image <image> was removed while <path> was read from it. Pull or build it again to open its files',
  },
  {
    id: 'layer-file-stream-cut',
    category: 'Image layers',
    action: 'open a file of a layer',
    input: 'a saved-image stream cut before the file',
    kind: 'error',
    errorKind: 'protocol',
    message:
      '<path> could not be read from layer <layer> from the top of the image <image>: the stream ended early (<reason>). The engine stopped sending the saved image or sent something else; try again',
  },
  {
    id: 'layer-file-whiteout',
    category: 'Image layers',
    action: 'open a file of a layer',
    input: 'a file the layer removes (a whiteout)',
    kind: 'error',
    errorKind: 'not-found',
    message: '<path> was removed by layer <layer> from the top of the image <image>: that layer holds no content for it. Open it from a lower layer to see what it held',
  },
  {
    id: 'layer-file-removed-row',
    category: 'Image layers',
    action: 'open a file of a layer',
    input: 'a click on the row of a file the layer removes (marked D)',
    kind: 'outcome',
    message:
      'Nothing opens and no failure is reported; a notification says: <path> was removed by layer <layer> from the top of <image>: that layer holds no content for it. Open it from a lower layer to see what it held',
  },
  {
    id: 'layer-file-missing',
    category: 'Image layers',
    action: 'open a file of a layer',
    input: 'a path the layer does not hold',
    kind: 'error',
    errorKind: 'not-found',
    message: "<path> is not in layer <layer> from the top of the image <image>. Open it from the layer that lists it under the image's Layers row",
  },
  {
    id: 'layer-file-folder',
    category: 'Image layers',
    action: 'open a file of a layer',
    input: 'a folder of the layer',
    kind: 'error',
    errorKind: 'bad-request',
    message: '<path> is a folder in layer <layer> from the top of the image <image>. Expand the layer to see its files',
  },
  {
    id: 'layer-file-too-large',
    category: 'Image layers',
    action: 'open a file of a layer',
    input: 'a file larger than the size cap',
    kind: 'error',
    errorKind: 'bad-request',
    message: '<path> is <size>, more than the <cap> Berth opens from a layer. Run a container of the image and download the file from its Files row',
  },
  {
    id: 'layer-file-save',
    category: 'Image layers',
    action: 'open a file of a layer',
    input: 'typing into or saving a file opened from a layer',
    kind: 'outcome',
    message:
      "The editor is read-only and says why: Files in an image layer are read-only: an image never changes. Save a copy with Save As, or change the Dockerfile and build again. A write through VS Code's file API is refused (Unable to modify read-only file)",
  },
];
