/**
 * The one way Berth writes an archive from an engine to the host (`berth cp CONTAINER:SRC DEST`, Download). The
 * archive is hostile: a remote or compromised engine can send any tar. So every entry is placed component by
 * component under the destination, a link already on disk is never followed (not one made earlier in this copy, not
 * one the user had there), the last component is created with O_EXCL | O_NOFOLLOW, and a hard link may only name a
 * file this copy wrote. A symlink in the archive is still created as a link, as docker cp does; it is never followed
 * while extracting. A refused entry stops the copy; what was written before it stays, and the message says so.
 */
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type * as tar from 'tar-stream';
import { EngineError, fsPromises } from '../connection';

/** One entry of a tar-stream extract stream (tar-stream does not name its type). */
export type ArchiveEntry = ReturnType<typeof tar.extract> extends AsyncIterable<infer E> ? E : never;

/** Where an archive's entries land: each name's components under `root` ([] is the root itself). */
export interface ExtractPlan {
  /**
   * The host path the archive's top entry becomes, its parent a real directory: the caller resolves the links of the
   * path the user named; from here on none is followed, the root itself included.
   */
  readonly root: string;
  /** An archive name's components under the root, before any checks (see `checkedComponents`). */
  readonly componentsOf: (name: string) => string[];
}

const CREATE_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** What this copy wrote, by components joined with `/`: a later entry may merge into a directory, nothing else. */
type Written = Map<string, 'directory' | 'file' | 'other'>;

class Refusal extends Error {}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  return fsPromises().lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** The entry's components, refusing an absolute name and `..` before anything is resolved. */
function checkedComponents(plan: ExtractPlan, name: string): string[] {
  if (name.startsWith('/')) throw new Refusal('it is an absolute path');
  if (name.split('/').includes('..')) throw new Refusal('it names a parent directory ("..")');
  const components = plan.componentsOf(name);
  if (components.some((part) => part === '' || part === '.' || part === '..' || part.includes('/') || part.includes('\0'))) {
    throw new Refusal('it has an empty or special path component');
  }
  return components;
}

/**
 * The real directory that holds the last of `components` (at least one), walked from the root without following any
 * link. Missing directories are made (0755, as docker cp does) when `create` is set.
 */
async function parentDirectory(root: string, components: readonly string[], create: boolean): Promise<string> {
  let current = root;
  for (let index = 0; ; index++) {
    const info = await lstatOrUndefined(current);
    if (info === undefined) {
      if (!create) throw new Refusal(`${current} does not exist`);
      await fsPromises().mkdir(current, { mode: 0o755 });
    } else if (info.isSymbolicLink()) {
      throw new Refusal(`it leads through the link ${current}, which Berth does not follow`);
    } else if (!info.isDirectory()) {
      throw new Refusal(`${current} is not a directory`);
    }
    if (index === components.length - 1) return current;
    current = join(current, components[index] as string);
  }
}

/**
 * Makes room for a non-directory at `path`: a file or link the user had there is replaced (as docker cp does), never
 * written through; a directory is kept and the entry refused; anything this copy wrote is never replaced.
 */
async function clearForNonDirectory(path: string, key: string, written: Written): Promise<void> {
  const info = await lstatOrUndefined(path);
  if (info?.isDirectory() === true) throw new Refusal(`it would replace the directory ${path}`);
  if (written.has(key)) throw new Refusal('the archive already wrote this path');
  if (info !== undefined) await fsPromises().unlink(path);
}

async function writeEntry(plan: ExtractPlan, root: string, entry: ArchiveEntry, written: Written): Promise<void> {
  const header = entry.header;
  const components = checkedComponents(plan, header.name);
  const key = components.join('/');
  const path = components.length === 0 ? root : join(await parentDirectory(root, components, true), components.at(-1) as string);
  const mode = (header.mode ?? 0o644) & 0o7777;
  if (header.type === 'directory') {
    entry.resume();
    const info = await lstatOrUndefined(path);
    if (info === undefined) await fsPromises().mkdir(path, { mode });
    else if (info.isSymbolicLink() || !info.isDirectory()) throw new Refusal(`it would replace ${path}, which is not a directory`);
    written.set(key, 'directory');
  } else if (header.type === 'file' || header.type === 'contiguous-file') {
    await clearForNonDirectory(path, key, written);
    const handle = await fsPromises().open(path, CREATE_FILE, mode);
    written.set(key, 'file');
    await pipeline(entry as unknown as AsyncIterable<Buffer>, handle.createWriteStream());
  } else if (header.type === 'symlink') {
    entry.resume();
    await clearForNonDirectory(path, key, written);
    await fsPromises().symlink(header.linkname ?? '', path);
    written.set(key, 'other');
  } else if (header.type === 'link') {
    entry.resume();
    const linkname = header.linkname ?? '';
    let target: string[];
    try {
      target = checkedComponents(plan, linkname);
    } catch (error) {
      throw error instanceof Refusal ? new Refusal(`its hard link names ${JSON.stringify(linkname)}: ${error.message}`) : error;
    }
    const notOurs = new Refusal(`its hard link names ${JSON.stringify(linkname)}, which is not a file this copy wrote`);
    if (written.get(target.join('/')) !== 'file') throw notOurs;
    const source = target.length === 0 ? root : join(await parentDirectory(root, target, false), target.at(-1) as string);
    if ((await lstatOrUndefined(source))?.isFile() !== true) throw notOurs;
    await clearForNonDirectory(path, key, written);
    await fsPromises().link(source, path);
    written.set(key, 'file');
  } else {
    // Devices, FIFOs and the like: docker cp makes them only as root; Berth skips them.
    entry.resume();
  }
}

/**
 * Writes the archive's entries under `plan.root`; resolves to the number of entries read. A refused entry rejects
 * with an EngineError naming it, after the entries before it were written (they stay).
 */
export async function extractArchive(entries: AsyncIterable<ArchiveEntry>, plan: ExtractPlan): Promise<{ root: string; entries: number }> {
  const root = plan.root;
  const written: Written = new Map();
  let count = 0;
  for await (const entry of entries) {
    try {
      await writeEntry(plan, root, entry, written);
    } catch (error) {
      if (error instanceof Refusal) throw refusal(entry.header.name, error.message, count, root);
      if (typeof (error as NodeJS.ErrnoException).code === 'string') throw notWritten(entry.header.name, error as NodeJS.ErrnoException, count, root);
      throw error;
    }
    count++;
  }
  return { root, entries: count };
}

function keptText(written: number, root: string): string {
  if (written === 0) return 'Nothing was written';
  return written === 1 ? `The entry copied before it stays in ${root}; nothing was written outside it` : `The ${written} entries copied before it stay in ${root}; nothing was written outside it`;
}

function refusal(name: string, reason: string, written: number, root: string): EngineError {
  return new EngineError('protocol', `Refused the archive entry ${JSON.stringify(name)}: ${reason}`, {
    hint: `${keptText(written, root)}. The container (or the engine sending its files) is hostile or broken: check it`,
  });
}

/** This machine's file system refused an entry (a name too long, no permission, a full disk): said with the entry's name. */
function notWritten(name: string, error: NodeJS.ErrnoException, written: number, root: string): EngineError {
  return new EngineError('bad-request', `Could not write the archive entry ${JSON.stringify(name)}: ${error.message}`, {
    hint: `${keptText(written, root)}. Check that the destination can take this name and that you may write there`,
    cause: error,
  });
}
