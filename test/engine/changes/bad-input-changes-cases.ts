// The bad-input rows of container changes (issue 36), asserted by test/engine/changes/image-side.test.ts on dockerd
// and Podman; part of BAD_INPUT_CASES.
import type { BadInputCase } from '../engine/bad-input-cases';

export const CHANGES_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'changes-container-removed',
    category: 'Files in containers',
    action: 'diff / Changes row',
    input: 'a container removed while its changes are open',
    kind: 'error',
    errorKind: 'not-found',
    message: 'No such container: <id>. Check the container id or name; the container may have been removed',
  },
  {
    id: 'changes-revert-added',
    category: 'Files in containers',
    action: 'Revert File',
    input: 'a file the container added (the image has no such file)',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'The image of this container has no <path>: the container added it. Delete the file instead, if it should go',
  },
];
