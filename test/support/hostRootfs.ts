// Test images made from this machine's own files: host binaries, the libraries `ldd` names for them, whole folders
// (symlinks kept as symlinks), and busybox-static's applets, packed into one layer and imported through the engine
// API. Each image is cached per engine by a label holding the hash of its files, so later runs and other suites
// reuse it; changed host files make a new image.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EngineClient } from '../../src/engine';
import { tarOf, type TarEntry } from '../../src/engine/files';

export const BUSYBOX = '/bin/busybox';
const IMAGE_MTIME = new Date('2020-01-01T00:00:00Z');

export interface RootEntry {
  /** Path inside the image, without the leading `/`. */
  readonly path: string;
  /** A regular file's bytes; absent for a symlink. */
  readonly data?: Buffer;
  /** A symlink's target, as the host has it. */
  readonly linkname?: string;
  readonly mode: number;
}

/** The shared libraries `ldd` names for each of BINARIES (the loader included), as absolute host paths. */
export function librariesOf(binaries: readonly string[]): string[] {
  const paths = new Set<string>();
  for (const binary of binaries) {
    const output = execFileSync('ldd', [binary], { encoding: 'utf8' });
    for (const line of output.split('\n')) {
      const match = /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line);
      if (match?.[1] !== undefined) paths.add(match[1]);
    }
  }
  return [...paths].sort();
}

/** A host file copied to the same path in the image (its symlinks resolved). */
export function hostFile(path: string, at = path): RootEntry {
  return { path: at.slice(1), data: readFileSync(realpathSync(path)), mode: 0o755 };
}

/** Every file and symlink below the host folder ROOT, at the same paths, except the names SKIP rejects. */
export function hostTree(root: string, skip: (name: string, path: string) => boolean = () => false): RootEntry[] {
  const entries: RootEntry[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (skip(name, path)) continue;
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) entries.push({ path: path.slice(1), linkname: readlinkSync(path), mode: 0o777 });
      else if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) entries.push({ path: path.slice(1), data: readFileSync(path), mode: stat.mode & 0o777 });
    }
  };
  walk(root);
  return entries;
}

function directoriesOf(entries: readonly RootEntry[]): string[] {
  const directories = new Set<string>(['bin', 'tmp', 'app']);
  for (const { path } of entries) {
    for (let dir = dirname(path); dir !== '.' && dir !== ''; dir = dirname(dir)) directories.add(dir);
  }
  return [...directories].sort();
}

async function layerOf(entries: readonly RootEntry[], applets: readonly string[]): Promise<Buffer> {
  const tar: TarEntry[] = directoriesOf(entries).map((name) => ({
    header: { name, mtime: IMAGE_MTIME, type: 'directory', mode: name === 'tmp' ? 0o1777 : 0o755 },
  }));
  for (const entry of entries) {
    tar.push(
      entry.linkname !== undefined
        ? { header: { name: entry.path, mtime: IMAGE_MTIME, type: 'symlink', linkname: entry.linkname, mode: 0o777 } }
        : { header: { name: entry.path, mtime: IMAGE_MTIME, type: 'file', mode: entry.mode }, data: entry.data },
    );
  }
  for (const applet of applets) {
    tar.push({ header: { name: `bin/${applet}`, mtime: IMAGE_MTIME, type: 'symlink', linkname: '/bin/busybox', mode: 0o777 } });
  }
  return tarOf(tar);
}

export interface HostImageRecipe {
  readonly repo: string;
  /** The label whose value is the hash of the image's files. */
  readonly hashLabel: string;
  readonly entries: readonly RootEntry[];
  /** busybox-static applets linked in /bin (busybox itself is added). */
  readonly applets: readonly string[];
  /** Dockerfile instructions for the import (ENV, WORKDIR, CMD); the hash label is added. */
  readonly changes: readonly string[];
}

/**
 * The image RECIPE describes on CLIENT's engine: the cached one when an image carries its content's hash, else made
 * and imported now. Resolves its reference (`REPO:HASH`, as the engine names it).
 */
export async function ensureHostImage(client: EngineClient, recipe: HostImageRecipe): Promise<string> {
  const entries = [...recipe.entries, hostFile(BUSYBOX)];
  const hash = createHash('sha256');
  for (const { path, data, linkname } of entries) hash.update(path).update('\0').update(data ?? `-> ${linkname}`);
  hash.update(recipe.applets.join(' ')).update(recipe.changes.join('\n'));
  const digest = hash.digest('hex').slice(0, 16);
  const cached = async (): Promise<string | undefined> => {
    const [image] = await client.images.list({ filters: { label: [`${recipe.hashLabel}=${digest}`] } });
    // Podman names an imported image localhost/REPO:TAG: its own tag is the reference that engine knows.
    return image ? (image.RepoTags?.[0] ?? image.Id) : undefined;
  };
  const found = await cached();
  if (found !== undefined) return found;
  await client.images.import(await layerOf(entries, recipe.applets), {
    repo: recipe.repo,
    tag: digest,
    changes: [`LABEL ${recipe.hashLabel}=${digest}`, ...recipe.changes],
  });
  const imported = await cached();
  if (imported === undefined) throw new Error(`The imported test image ${recipe.repo} carries no ${recipe.hashLabel}=${digest} label`);
  return imported;
}
