// The bad-input rows of image layers and history (issue 36), asserted by test/engine/engine/image-layers.test.ts
// (the real engines) and test/engine/engine/image-layers-fake.test.ts (a stream cut midway); part of BAD_INPUT_CASES.
import type { BadInputCase } from './bad-input-cases';

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
];
