/**
 * `berth cp` both ways through the archive API, with docker cp's semantics: into an existing directory the source
 * keeps its name; to a path that does not exist (its parent must) it takes that name; `SRC/.` copies a directory's
 * contents. Symlinks are copied as links. What comes out of a container is hostile: it is written only through
 * extractArchive (archiveExtract.ts), which never writes outside the destination.
 */
import { createReadStream } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type * as tar from 'tar-stream';
import { extractArchive } from './archiveExtract';
import { tarStream, fsPromises, EngineError } from '../connection';
import { toError } from '../../common/errors';
import type { EngineClient, ContainerPathStat } from '../api';
import { baseNameOf, kindOfStat, parentOf, statFollowing } from './containerFiles';

export interface CopyResult {
  /** Where the copy landed. */
  readonly destination: string;
  readonly entries: number;
}

function refuse(message: string, hint: string): EngineError {
  return new EngineError('bad-request', message, { hint });
}

/** Whether a cp path names a directory's contents (`dir/.`) or insists on a directory (`dir/`). */
function contentsOnly(path: string): boolean {
  return path === '.' || path.endsWith('/.');
}

/**
 * The container path a copy reads: SOURCE itself, or with `followLink` (docker cp -L) where the link SOURCE leads;
 * the copy keeps SOURCE's name either way.
 */
export async function copySource(client: EngineClient, id: string, source: string, followLink: boolean, signal?: AbortSignal): Promise<{ path: string; stat: ContainerPathStat }> {
  if (followLink) return statFollowing(client, id, source, signal);
  return { path: source, stat: await client.containers.statPath(id, source, { signal }) };
}

/** Copies CONTAINER:SRC to the host path DEST; `followLink` copies what a link SRC points to, under SRC's name. */
export async function copyFromContainer(client: EngineClient, id: string, source: string, destination: string, signal?: AbortSignal, followLink = false): Promise<CopyResult> {
  const { path: archivePath, stat: sourceStat } = await copySource(client, id, source, followLink, signal);
  const sourceIsDir = kindOfStat(sourceStat) === 'directory';
  const existing = await fsPromises().stat(destination).catch(() => undefined);
  let target: string;
  if (existing?.isDirectory()) {
    target = sourceIsDir && contentsOnly(source) ? destination : join(destination, baseNameOf(source));
  } else if (existing !== undefined) {
    if (sourceIsDir) throw refuse(`cannot copy a directory to the file ${destination}`, 'Give a directory (or a path that does not exist yet) as the destination');
    target = destination;
  } else {
    if (destination.endsWith(sep)) throw refuse(`the destination directory ${destination} does not exist`, 'Create it first, or leave out the final slash to copy to that name');
    const parent = await fsPromises().stat(dirname(resolve(destination))).catch(() => undefined);
    if (!parent?.isDirectory()) throw refuse(`the directory of ${destination} does not exist`, 'Create it first, or copy to an existing directory');
    target = destination;
  }
  const root = await withRealParent(target, existing?.isDirectory() === true && target === destination);
  const archive = await client.containers.getArchive(id, archivePath, { signal });
  const extract = tarStream().extract();
  const body = Readable.from(archive.body);
  body.on('error', (error) => extract.destroy(error));
  body.pipe(extract);
  const contents = sourceIsDir && contentsOnly(source);
  try {
      const written = await extractArchive(extract, { root, componentsOf: (name) => pathUnderSource(name, contents) });
    return { destination: written.root, entries: written.entries };
  } finally {
    archive.cancel();
    body.destroy();
  }
}

/**
 * The copy's root with the links of the path the user named resolved (theirs to follow, as docker cp does): the named
 * directory itself when the copy fills it, otherwise the real parent and the last name, which is never followed.
 */
async function withRealParent(target: string, isNamedDirectory: boolean): Promise<string> {
  const path = resolve(target);
  return isNamedDirectory ? fsPromises().realpath(path) : join(await fsPromises().realpath(dirname(path)), basename(path));
}

/**
 * An archive name's components under the copied source. The first name component is the source's own name; for
 * `SRC/.` dockerd names the entries `./name` and Podman names them `name`, so there only a leading `.` is the source.
 */
function pathUnderSource(name: string, contents: boolean): string[] {
  const parts = name.split('/').filter((part) => part !== '');
  return (contents ? (parts[0] === '.' ? parts.slice(1) : parts) : parts.slice(1)).filter((part) => part !== '.');
}

/** Copies the host path SOURCE to CONTAINER:DEST; `followLink` copies what a link SOURCE points to, under SOURCE's name. */
export async function copyToContainer(client: EngineClient, source: string, id: string, destination: string, signal?: AbortSignal, followLink = false): Promise<CopyResult> {
  const packed = followLink ? await fsPromises().realpath(source).catch(() => undefined) : source;
  const sourceStat = packed === undefined ? undefined : await fsPromises().lstat(packed).catch(() => undefined);
  if (packed === undefined || sourceStat === undefined) throw refuse(`no such file or directory on the host: ${source}`, followLink ? 'Check the path, and where its links point' : 'Check the path');
  const target = await statFollowing(client, id, destination, signal).catch((error: unknown) => {
    if (error instanceof EngineError && error.kind === 'not-found') return undefined;
    throw error;
  });
  let directory: string;
  let rootName: string | undefined;
  if (target !== undefined && kindOfStat(target.stat) === 'directory') {
    directory = target.path;
    rootName = sourceStat.isDirectory() && contentsOnly(source) ? undefined : basename(resolve(source));
  } else if (target !== undefined) {
    if (sourceStat.isDirectory()) throw refuse(`cannot copy a directory to the file ${destination} in the container`, 'Give a directory in the container, or a path that does not exist yet');
    directory = parentOf(target.path);
    rootName = baseNameOf(target.path);
  } else {
    if (destination.endsWith('/')) throw refuse(`the destination directory ${destination} does not exist in the container`, 'Create it first, or leave out the final slash to copy to that name');
    directory = parentOf(destination);
    rootName = baseNameOf(destination);
  }
  const pack = tarStream().pack();
  let entries = 0;
  const packing = (async () => {
    entries = await packPath(pack, resolve(packed), rootName);
    pack.finalize();
  })();
  packing.catch((error: unknown) => pack.destroy(toError(error)));
  await Promise.all([client.containers.putArchive(id, directory, Readable.from(pack), { signal, noOverwriteDirNonDir: true }), packing]);
  return { destination: rootName === undefined ? directory : `${directory === '/' ? '' : directory}/${rootName}`, entries };
}

/** Adds a host file, link or directory tree to the pack under NAME (a directory's contents at the top when NAME is undefined). */
async function packPath(pack: tar.Pack, path: string, name: string | undefined): Promise<number> {
  const info = await fsPromises().lstat(path);
  const header = { name: name ?? '.', mode: info.mode % 0o10000, mtime: info.mtime };
  if (info.isSymbolicLink()) {
    await addEntry(pack, { ...header, type: 'symlink', linkname: await fsPromises().readlink(path) });
    return 1;
  }
  if (info.isDirectory()) {
    let count = 0;
    if (name !== undefined) {
      await addEntry(pack, { ...header, type: 'directory' });
      count++;
    }
    for (const child of (await fsPromises().readdir(path)).sort()) count += await packPath(pack, join(path, child), name === undefined ? child : `${name}/${child}`);
    return count;
  }
  if (!info.isFile()) return 0;
  await new Promise<void>((done, fail) => {
    const sink = pack.entry({ ...header, type: 'file', size: info.size }, (error) => (error ? fail(error) : done()));
    createReadStream(path).on('error', fail).pipe(sink);
  });
  return 1;
}

function addEntry(pack: tar.Pack, header: tar.Header | (Partial<tar.Header> & { name: string })): Promise<void> {
  return new Promise((done, fail) => pack.entry(header, (error) => (error ? fail(error) : done())));
}

/** For messages: a host path relative to the working directory when it is under it. */
export function displayPath(path: string): string {
  const shown = relative(process.cwd(), path);
  return shown === '' || shown.startsWith('..') ? path : shown;
}
