// The bad-input rows of hostile archives (issue 32): what `berth cp CONTAINER:SRC DEST` and Download say when an engine
// sends an archive that would write outside the destination, and what a build sends for a linked .dockerignore.
// Asserted by test/engine/cli/cp-hostile.test.ts (a fake engine serving the archives) and
// test/unit/engine/build/build-context.test.ts; part of BAD_INPUT_CASES.
import type { BadInputCase } from '../bad-input-cases';

const action = 'cp CONTAINER:SRC DEST / Download';
const KEPT = 'The 2 entries copied before it stay in <destination>; nothing was written outside it. The container (or the engine sending its files) is hostile or broken: check it';

export const ARCHIVE_CASES: readonly BadInputCase[] = [
  {
    id: 'archive-link-then-file',
    category: 'Files in containers',
    action,
    input: 'an archive of app/: app/x a link to a host file, then app/x a file',
    kind: 'error',
    errorKind: 'protocol',
    message: `Refused the archive entry "app/x": the archive already wrote this path. ${KEPT}`,
  },
  {
    id: 'archive-through-link',
    category: 'Files in containers',
    action,
    input: 'an archive of app/: app/up a link to .., then app/up/.bashrc',
    kind: 'error',
    errorKind: 'protocol',
    message: `Refused the archive entry "app/up/.bashrc": it leads through the link <destination>/up, which Berth does not follow. ${KEPT}`,
  },
  {
    id: 'archive-hard-link-outside',
    category: 'Files in containers',
    action,
    input: 'an archive of app/: app/d a link to a host folder, then app/h a hard link to app/d/victim',
    kind: 'error',
    errorKind: 'protocol',
    message: `Refused the archive entry "app/h": its hard link names "app/d/victim", which is not a file this copy wrote. ${KEPT}`,
  },
  {
    id: 'archive-parent-name',
    category: 'Files in containers',
    action,
    input: 'an archive of app/: app/, app/sub/, then app/../escape',
    kind: 'error',
    errorKind: 'protocol',
    message: `Refused the archive entry "app/../escape": it names a parent directory (".."). ${KEPT}`,
  },
  {
    id: 'archive-absolute-name',
    category: 'Files in containers',
    action,
    input: 'an archive of app/: app/, app/sub/, then /etc/evil',
    kind: 'error',
    errorKind: 'protocol',
    message: `Refused the archive entry "/etc/evil": it is an absolute path. ${KEPT}`,
  },
  {
    id: 'archive-name-too-long',
    category: 'Files in containers',
    action,
    input: 'an archive of app/: app/, app/sub/, then app/<name> (300 × "y")',
    kind: 'error',
    errorKind: 'bad-request',
    message:
      'Could not write the archive entry "app/<name>": ENAMETOOLONG: name too long, lstat \'<destination>/<name>\'. The 2 entries copied before it stay in <destination>; nothing was written outside it. Check that the destination can take this name and that you may write there',
  },
  {
    id: 'archive-directory-replaced',
    category: 'Files in containers',
    action,
    input: 'an archive of app/: app/, app/sub/, then app/sub as a file',
    kind: 'error',
    errorKind: 'protocol',
    message: `Refused the archive entry "app/sub": it would replace the directory <destination>/sub. ${KEPT}`,
  },
  {
    id: 'build-dockerignore-link',
    category: 'Builds and run options',
    action: 'build -f (a Dockerfile outside the context)',
    input: '.dockerignore a link to a file outside the context',
    kind: 'outcome',
    message: "No message: the link's target is not sent; the engine gets a .dockerignore holding only the Dockerfile's name in the context, as docker build sends it",
  },
];
