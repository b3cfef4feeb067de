// A test image with Node.js and nothing pulled: the host's own `node`, the libraries `ldd` names for it, and
// busybox-static (a shell, `nc` for the forward relay, `kill`, `sleep`) in a root file system made here and
// imported through the engine API. It is cached per engine by a label holding the hash of its files, so later
// runs (and other suites) reuse it; a new host `node` makes a new image.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EngineClient } from '../../src/engine';
import { tarOf, type TarEntry } from '../../src/engine/files';

export const NODE_IMAGE_REPO = 'berth-test-node';
const HASH_LABEL = 'berth.test.node-image-hash';
const BUSYBOX = '/bin/busybox';
const BUSYBOX_APPLETS = ['sh', 'nc', 'kill', 'sleep', 'cat', 'ls', 'ps', 'echo', 'mkdir', 'touch'];
const IMAGE_MTIME = new Date('2020-01-01T00:00:00Z');
/** The system's node, the same in every stage (an extension host runs on code-server's own node). */
const NODE_BINARY = existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;

interface RootFile {
  /** Path inside the image, without the leading `/`. */
  readonly path: string;
  readonly data: Buffer;
}

/** The shared libraries `ldd` names for BINARY (the loader included), as absolute host paths. */
function librariesOf(binary: string): string[] {
  const output = execFileSync('ldd', [binary], { encoding: 'utf8' });
  const paths = new Set<string>();
  for (const line of output.split('\n')) {
    const match = /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line);
    if (match?.[1] !== undefined) paths.add(match[1]);
  }
  return [...paths];
}

function rootFiles(): RootFile[] {
  const node = realpathSync(NODE_BINARY);
  const files: RootFile[] = [{ path: 'usr/bin/node', data: readFileSync(node) }];
  for (const library of librariesOf(node)) files.push({ path: library.slice(1), data: readFileSync(realpathSync(library)) });
  files.push({ path: 'bin/busybox', data: readFileSync(BUSYBOX) });
  return files;
}

function directoriesOf(files: readonly RootFile[]): string[] {
  const directories = new Set<string>(['bin', 'tmp', 'app']);
  for (const { path } of files) {
    for (let dir = dirname(path); dir !== '.' && dir !== ''; dir = dirname(dir)) directories.add(dir);
  }
  return [...directories].sort();
}

async function layerOf(files: readonly RootFile[]): Promise<Buffer> {
  const entries: TarEntry[] = directoriesOf(files).map((name) => ({
    header: { name, mtime: IMAGE_MTIME, type: 'directory', mode: name === 'tmp' ? 0o1777 : 0o755 },
  }));
  for (const { path, data } of files) entries.push({ header: { name: path, mtime: IMAGE_MTIME, type: 'file', mode: 0o755 }, data });
  for (const applet of BUSYBOX_APPLETS) {
    entries.push({ header: { name: `bin/${applet}`, mtime: IMAGE_MTIME, type: 'symlink', linkname: '/bin/busybox', mode: 0o777 } });
  }
  return tarOf(entries);
}

/**
 * The Node.js test image on CLIENT's engine: the cached one when an image carries this content's hash, else made
 * and imported now. Resolves its reference (`berth-test-node:HASH`, as the engine names it).
 */
export async function ensureNodeImage(client: EngineClient): Promise<string> {
  const files = rootFiles();
  const hash = createHash('sha256');
  for (const { path, data } of files) hash.update(path).update('\0').update(data);
  const digest = hash.digest('hex').slice(0, 16);
  const cached = async (): Promise<string | undefined> => {
    const [image] = await client.listImages({ filters: { label: [`${HASH_LABEL}=${digest}`] } });
    // Podman names an imported image localhost/REPO:TAG: its own tag is the reference that engine knows.
    return image ? (image.RepoTags?.[0] ?? image.Id) : undefined;
  };
  const found = await cached();
  if (found !== undefined) return found;
  await client.importImage(await layerOf(files), {
    repo: NODE_IMAGE_REPO,
    tag: digest,
    changes: [`LABEL ${HASH_LABEL}=${digest}`, 'ENV PATH=/usr/bin:/bin', 'WORKDIR /app', 'CMD ["node"]'],
  });
  const imported = await cached();
  if (imported === undefined) throw new Error(`The imported Node.js test image carries no ${HASH_LABEL}=${digest} label`);
  return imported;
}
