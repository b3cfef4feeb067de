// A test image with Python and debugpy and nothing pulled: Debian's python3 (the host's /usr/bin/python3.11), its
// standard library without the parts a debug session never loads, the files of the python3-debugpy,
// python3-pydevd and python3-bytecode packages, the libraries `ldd` names for all their binaries, and busybox-static (a shell, `nc` for
// the forward relay). Made from this machine's files and cached per engine like the Node.js image (hostRootfs.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import type { EngineClient } from '../../src/engine';
import { ensureHostImage, hostFile, hostTree, librariesOf, type RootEntry } from './hostRootfs';

export const PYTHON_IMAGE_REPO = 'berth-test-python';
const HASH_LABEL = 'berth.test.python-image-hash';
const PYTHON = '/usr/bin/python3.11';
const STDLIB = '/usr/lib/python3.11';
const DEBUGPY_PACKAGES = ['python3-debugpy', 'python3-pydevd', 'python3-bytecode'];
/** Standard-library folders a debugpy session never imports (the largest being the static libpython). */
const UNUSED_STDLIB = /^(?:config-3\.11-.*|test|idlelib|tkinter|turtledemo|lib2to3|ensurepip|pydoc_data|distutils|site-packages|dist-packages)$/;
const APPLETS = ['sh', 'nc', 'kill', 'sleep', 'cat', 'ls', 'ps', 'echo', 'mkdir', 'touch'];

/** Whether this machine has what the image is made of (Debian's python3 and python3-debugpy). */
export function pythonImageAvailable(): boolean {
  return existsSync(PYTHON) && existsSync('/usr/lib/python3/dist-packages/debugpy/__main__.py');
}

/** The regular files and symlinks Debian's packages installed, outside /usr/share. */
function packageFiles(packages: readonly string[]): RootEntry[] {
  const listed = execFileSync('dpkg', ['-L', ...packages], { encoding: 'utf8' }).split('\n');
  const entries: RootEntry[] = [];
  for (const path of [...new Set(listed)].sort()) {
    if (!path.startsWith('/usr/lib/')) continue;
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) entries.push({ path: path.slice(1), linkname: readlinkSync(path), mode: 0o777 });
    else if (stat?.isFile()) entries.push(hostFile(path));
  }
  return entries;
}

function sharedObjects(entries: readonly RootEntry[]): string[] {
  return entries.filter(({ path, data }) => data !== undefined && /\.so(?:\.|$)/.test(path)).map(({ path }) => `/${path}`);
}

function rootEntries(): RootEntry[] {
  const stdlib = hostTree(STDLIB, (name) => UNUSED_STDLIB.test(name));
  const packages = packageFiles(DEBUGPY_PACKAGES);
  const binaries = [PYTHON, ...sharedObjects(stdlib), ...sharedObjects(packages)];
  const libraries = librariesOf(binaries).map((library) => hostFile(library));
  const python: RootEntry[] = [hostFile(PYTHON), { path: 'usr/bin/python3', linkname: 'python3.11', mode: 0o777 }];
  const seen = new Set<string>();
  return [...python, ...libraries, ...stdlib, ...packages].filter(({ path }) => !seen.has(path) && (seen.add(path), true));
}

/**
 * The Python test image on CLIENT's engine (`berth-test-python:HASH`, as the engine names it): cached, or made and
 * imported now.
 */
export async function ensurePythonImage(client: EngineClient): Promise<string> {
  return ensureHostImage(client, {
    repo: PYTHON_IMAGE_REPO,
    hashLabel: HASH_LABEL,
    entries: rootEntries(),
    applets: APPLETS,
    changes: ['ENV PATH=/usr/bin:/bin', 'ENV PYTHONDONTWRITEBYTECODE=1', 'WORKDIR /app', 'CMD ["python3"]'],
  });
}

/** The files of the image, for a look from the command line: `node --import tsx test/support/pythonImage.ts`. */
if (process.argv[1]?.endsWith('pythonImage.ts')) {
  const entries = rootEntries();
  const bytes = entries.reduce((sum, { data }) => sum + (data?.length ?? 0), 0);
  console.log(`${entries.length} entries, ${(bytes / 1048576).toFixed(1)} MiB; top folders: ${readdirSync(STDLIB).length} in ${STDLIB}`);
}
