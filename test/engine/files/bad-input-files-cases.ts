// The bad-input rows of the files feature (issue 14): files inside containers through the archive API. Joined to
// the table in bad-input-cases.ts; asserted by bad-input-files.test.ts (errors, against dockerd) and by the
// integration suite's files tests (the editor outcomes).
import type { BadInputCase } from '../engine/bad-input-cases';

export const FILE_CASES: readonly BadInputCase[] = [
  {
    id: 'files-missing-path',
    category: 'Files in containers',
    action: 'open / stat / cp',
    input: '/no/such/file',
    kind: 'error',
    errorKind: 'not-found',
    message: 'No such file or directory in the container: /no/such/file. Check the path; the file may have been removed or renamed in the container',
  },
  {
    id: 'files-container-removed',
    category: 'Files in containers',
    action: 'open / save',
    input: 'a file of a container removed while it is open',
    kind: 'error',
    errorKind: 'not-found',
    message: 'No such container: <id>. Check the container id or name; the container may have been removed',
  },
  {
    id: 'files-directory-as-file',
    category: 'Files in containers',
    action: 'read a file',
    input: '/etc',
    kind: 'error',
    errorKind: 'bad-request',
    message: '/etc is a directory. Open a file inside it',
  },
  {
    id: 'files-no-shell',
    category: 'Files in containers',
    action: 'delete / rename',
    input: 'a FROM scratch container',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'This container has no shell; Berth can read and write files but cannot delete them. Change the image, or do it when building the image',
  },
  {
    id: 'files-not-running',
    category: 'Files in containers',
    action: 'delete / rename',
    input: 'a stopped container',
    kind: 'error',
    errorKind: 'conflict',
    message:
      'The container is not running, so Berth cannot delete files in it (the engine said "Container <id> is not running"). Start the container, or copy the files out and back with Download and Upload',
  },
  {
    id: 'files-permission-denied',
    category: 'Files in containers',
    action: 'delete / rename',
    input: '/etc/passwd in a container running as user 1000',
    kind: 'error',
    errorKind: 'unauthorized',
    message:
      'Permission denied: the container\'s user may not delete this (the container said "rm: can\'t remove \'/etc/passwd\': Permission denied"). Run the container as a user allowed to, or change the file\'s permissions in the image',
  },
  {
    id: 'files-permission-read',
    category: 'Files in containers',
    action: 'open',
    input: 'a 0600 root file in a container running as user 1000',
    kind: 'outcome',
    message: 'Opens: the archive API reads as the engine (root), not as the container\'s user, so no permission is denied; only changes made through exec (delete, rename) run as the container\'s user',
  },
  {
    id: 'files-too-large',
    category: 'Files in containers',
    action: 'open',
    input: 'a file over berth.files.maxOpenMB, and the user declines',
    kind: 'error',
    errorKind: 'unavailable',
    message: '/tmp/big.bin is 2.1MB, over berth.files.maxOpenMB (1 MB), and was not opened. Download it instead, or raise the setting',
  },
  {
    id: 'files-read-only-root',
    category: 'Files in containers',
    action: 'save',
    input: 'a container run with --read-only',
    kind: 'error',
    errorKind: 'bad-request',
    message:
      'The container\'s root file system is read-only, so Berth cannot write /etc/motd (the engine said "container rootfs is marked read-only"). Write to a volume or tmpfs mounted in the container, or run it without --read-only',
  },
  {
    id: 'files-binary',
    category: 'Files in containers',
    action: 'open',
    input: '/bin/busybox',
    kind: 'outcome',
    message: 'VS Code\'s own "binary file" refusal to open it as text; Berth hands over the bytes unchanged, never decoded text',
  },
  {
    id: 'files-save-conflict',
    category: 'Files in containers',
    action: 'save',
    input: 'a file changed in the container since it was opened',
    kind: 'outcome',
    message: 'VS Code\'s compare / overwrite flow (the stat\'s mtime changed): nothing is written, the unsaved text stays in the editor',
  },
  {
    id: 'files-unicode-names',
    category: 'Files in containers',
    action: 'save / list / open',
    input: 'dír with spaces ✓ 日本.txt',
    kind: 'outcome',
    message: 'Written, listed and read back under the same name',
  },
];
