/**
 * Files inside a container over the archive API (plain Node, no vscode): list a directory, read a file, write one
 * back keeping its mode and owner, make a directory. Listing has two ways: the headers of the directory's archive
 * (any container, no shell needed; bodies are skipped as they stream) or `find` through exec (a running container
 * with the tools). Delete and rename need exec; a container without a shell gets a clear refusal.
 */
import { Readable } from 'node:stream';
import type * as tar from 'tar-stream';
import { tarStream, demux, EngineError } from '../connection';
import { errorMessage } from '../../common/errors';
import type { ContainerPathStat, EngineClient } from '../api';

export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

export interface FileEntry {
  readonly name: string;
  readonly kind: EntryKind;
}

/** Go's os.FileMode type bits (as the stat header carries them), by bit number. */
const GO_MODE_DIR_BIT = 31;
const GO_MODE_SYMLINK_BIT = 27;
/** Device, named pipe, socket, char device, irregular: shown as "other". */
const GO_MODE_OTHER_BITS = [26, 25, 24, 21, 19];
/** Links followed when reading, as the kernel's own limit on nested symlinks. */
const MAX_LINK_HOPS = 40;
/** Exit statuses of a command the runtime could not find or run: the container has no such tool (no shell). */
const NO_TOOL_EXIT = new Set([126, 127]);

export function kindOfStat(stat: ContainerPathStat): EntryKind {
  if (hasBit(stat.mode, GO_MODE_DIR_BIT)) return 'directory';
  if (hasBit(stat.mode, GO_MODE_SYMLINK_BIT)) return 'symlink';
  return GO_MODE_OTHER_BITS.some((bit) => hasBit(stat.mode, bit)) ? 'other' : 'file';
}

/** Go's FileMode does not fit in 32 signed bits: test a bit through division, not bitwise operators. */
function hasBit(mode: number, bit: number): boolean {
  return Math.floor(mode / 2 ** bit) % 2 === 1;
}

/** Permission bits of a Go FileMode. */
export function permissionsOf(stat: ContainerPathStat): number {
  return stat.mode % 0o1000;
}

export function joinContainerPath(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

export function parentOf(path: string): string {
  const at = path.replace(/\/+$/, '').lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}

export function baseNameOf(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** Where a symlink at `path` pointing to `target` leads, as an absolute container path. */
export function resolveLink(path: string, target: string): string {
  const joined = target.startsWith('/') ? target : joinContainerPath(parentOf(path), target);
  const parts: string[] = [];
  for (const part of joined.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** Follows symlinks (as `cat` would) to the stat of what the path finally names. */
export async function statFollowing(client: EngineClient, id: string, path: string, signal?: AbortSignal): Promise<{ path: string; stat: ContainerPathStat }> {
  let current = path;
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    const stat = await client.containers.statPath(id, current, { signal });
    if (kindOfStat(stat) !== 'symlink') return { path: current, stat };
    current = resolveLink(current, stat.linkTarget);
  }
  throw new EngineError('bad-request', `Too many levels of symbolic links at ${path}`, { hint: 'Check where the link points' });
}

/**
 * Lists a directory from its archive's headers: bodies are skipped as they stream, and the request is aborted once
 * the tar ends or the caller stops. Entry names are relative to the directory's own name in the tar.
 */
export async function listByArchive(client: EngineClient, id: string, dir: string, signal?: AbortSignal): Promise<FileEntry[]> {
  const archive = await client.containers.getArchive(id, dir, { signal });
  const extract = tarStream().extract();
  const source = Readable.from(archive.body);
  source.on('error', (error) => extract.destroy(error));
  source.pipe(extract);
  const entries: FileEntry[] = [];
  let root: string | undefined;
  try {
    for await (const entry of extract) {
      const name = entry.header.name.replace(/^\.?\/+/, '').replace(/\/+$/, '');
      entry.resume();
      if (root === undefined) {
        root = name;
        continue;
      }
      const relative = root === '' || root === '.' ? name : name.slice(root.length + 1);
      if (relative === '' || relative.includes('/')) continue;
      entries.push({ name: relative, kind: kindOfTarType(entry.header.type) });
    }
  } finally {
    archive.cancel();
    source.destroy();
  }
  return entries;
}

function kindOfTarType(type: tar.Header['type']): EntryKind {
  if (type === 'directory') return 'directory';
  if (type === 'symlink') return 'symlink';
  if (type === 'file' || type === 'link' || type === 'contiguous-file') return 'file';
  return 'other';
}

export interface ExecOutcome {
  readonly exitCode: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** Runs a command in a running container without a TTY and collects its output. No shell: argv goes as it is. */
export async function execCapture(client: EngineClient, id: string, cmd: string[], signal?: AbortSignal): Promise<ExecOutcome> {
  const { Id: execId } = await client.exec.create(id, { cmd, signal });
  const socket = await client.exec.startAttached(execId, { tty: false, signal });
  const stdout: Buffer[] = [];
  let stderr = '';
  try {
    for await (const chunk of demux(socket)) {
      if (chunk.stream === 'stdout') stdout.push(chunk.data);
      else if (stderr.length < 4096) stderr += chunk.data.toString('utf8');
    }
  } finally {
    socket.destroy();
  }
  const inspect = await client.exec.inspect(execId, { signal });
  return { exitCode: inspect.ExitCode ?? -1, stdout: Buffer.concat(stdout), stderr: stderr.trim() };
}

/**
 * One exec, three walks of one level with `find` (directories, symlinks, the rest), names NUL-terminated and the
 * three sections separated by an empty name: only readdir's types, no stat per file. The directory is an argument,
 * never part of the script.
 */
/** The three one-level walks; each name NUL-terminated, the sections separated by an empty name. */
export const FIND_WALKS = [
  'find . -mindepth 1 -maxdepth 1 -type d -print0 && printf "\\0"',
  'find . -mindepth 1 -maxdepth 1 -type l -print0 && printf "\\0"',
  'find . -mindepth 1 -maxdepth 1 ! -type d ! -type l -print0',
].join(' && ');
const FIND_SCRIPT = `cd -- "$1" || exit 3 && ${FIND_WALKS}`;
const FIND_SECTIONS: readonly EntryKind[] = ['directory', 'symlink', 'file'];

/** Lists a directory through `find` in the container. Throws when the container cannot run it, so the caller falls back to the archive. */
export async function listByExec(client: EngineClient, id: string, dir: string, signal?: AbortSignal): Promise<FileEntry[]> {
  const result = await execCapture(client, id, ['sh', '-c', FIND_SCRIPT, 'sh', dir], signal);
  if (result.exitCode !== 0) {
    throw new EngineError('server', `find in the container failed (exit ${result.exitCode}): ${result.stderr || 'no output'}`, { hint: 'Berth lists through the archive API instead' });
  }
  return parseFindListing(result.stdout.toString('utf8'));
}

/** The output of the three `find` walks: NUL-terminated `./name` records, sections separated by an empty record. */
export function parseFindListing(text: string): FileEntry[] {
  const records = text.split('\0');
  // The last name's terminator leaves one empty record at the end.
  if (records[records.length - 1] === '') records.pop();
  const entries: FileEntry[] = [];
  let section = 0;
  for (const record of records) {
    if (record === '') {
      section++;
      continue;
    }
    const kind = FIND_SECTIONS[section];
    if (kind === undefined || !record.startsWith('./')) {
      throw new EngineError('protocol', `Unexpected output from find: ${record.slice(0, 200)}`, { hint: 'Berth lists through the archive API instead' });
    }
    entries.push({ name: record.slice(2), kind });
  }
  if (section !== 2) throw new EngineError('protocol', 'find in the container stopped early', { hint: 'Berth lists through the archive API instead' });
  return entries;
}

/** The first entry of a path's archive: its tar header and, for a file, its bytes. The request ends after it. */
async function readFirstEntry(client: EngineClient, id: string, path: string, withBody: boolean, signal?: AbortSignal): Promise<{ header: tar.Header; data: Buffer }> {
  const archive = await client.containers.getArchive(id, path, { signal });
  const extract = tarStream().extract();
  const source = Readable.from(archive.body);
  source.on('error', (error) => extract.destroy(error));
  source.pipe(extract);
  try {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      if (withBody) for await (const chunk of entry as AsyncIterable<Buffer>) chunks.push(chunk);
      else entry.resume();
      return { header: entry.header, data: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) };
    }
  } finally {
    archive.cancel();
    source.destroy();
  }
  throw new EngineError('protocol', `The engine sent an empty archive for ${path}`, { hint: 'Check that the path still exists' });
}

/** A file's bytes, symlinks followed, streamed out of the tar of that one file. */
export async function readContainerFile(client: EngineClient, id: string, path: string, signal?: AbortSignal): Promise<Buffer> {
  const target = await statFollowing(client, id, path, signal);
  if (kindOfStat(target.stat) === 'directory') {
    throw new EngineError('bad-request', `${path} is a directory`, { hint: 'Open a file inside it' });
  }
  return (await readFirstEntry(client, id, target.path, true, signal)).data;
}

export interface Ownership {
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
}

/** Mode and owner of a path as its tar header has them (the stat header has no owner). */
export async function ownershipOf(client: EngineClient, id: string, path: string, signal?: AbortSignal): Promise<Ownership> {
  const { header } = await readFirstEntry(client, id, path, false, signal);
  return { mode: (header.mode ?? 0o644) % 0o10000, uid: header.uid ?? 0, gid: header.gid ?? 0 };
}

/**
 * Mode and owner as the container sees them: `stat` through exec where it runs (Podman's archive headers say root
 * for every file), else the tar header.
 */
export async function ownershipInContainer(client: EngineClient, id: string, path: string, signal?: AbortSignal): Promise<Ownership> {
  const result = await execCapture(client, id, ['stat', '-c', '%u %g %a', '--', path], signal).catch(() => undefined);
  const match = result?.exitCode === 0 ? /^(\d+) (\d+) ([0-7]+)\n?$/.exec(result.stdout.toString('utf8')) : null;
  if (match) return { uid: Number(match[1]), gid: Number(match[2]), mode: Number.parseInt(match[3] as string, 8) };
  return ownershipOf(client, id, path, signal);
}

export interface TarEntry {
  readonly header: Partial<tar.Header> & { name: string };
  readonly data?: Buffer | undefined;
}

/** Entries as an in-memory tar, for PUT archive (and the image a test imports). */
export async function tarOf(entries: readonly TarEntry[]): Promise<Buffer> {
  const pack = tarStream().pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve, reject) => {
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  for (const { header, data } of entries) {
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null): void => (error ? reject(error) : resolve());
      if (data === undefined) pack.entry(header, done);
      else pack.entry(header, data, done);
    });
  }
  pack.finalize();
  await ended;
  return Buffer.concat(chunks);
}

/**
 * Writes a file: an existing one keeps its mode and owner (from its tar header), a new one gets 0644 and the
 * owner of its directory. A symlink is written through to what it names. Resolves a warning when the owner
 * could not be kept.
 */
export async function writeContainerFile(client: EngineClient, id: string, path: string, data: Buffer, signal?: AbortSignal): Promise<string | undefined> {
  let target = path;
  let ownership: Ownership;
  try {
    target = (await statFollowing(client, id, path, signal)).path;
    ownership = await ownershipInContainer(client, id, target, signal);
  } catch (error) {
    if (!(error instanceof EngineError && error.kind === 'not-found')) throw error;
    const parent = await ownershipInContainer(client, id, parentOf(path), signal);
    ownership = { mode: 0o644, uid: parent.uid, gid: parent.gid };
  }
  const header = { name: baseNameOf(target), type: 'file' as const, size: data.length, mtime: new Date(), ...ownership };
  try {
    await client.containers.putArchive(id, parentOf(target), await tarOf([{ header, data }]), { signal, noOverwriteDirNonDir: true });
  } catch (error) {
    throw readOnlyRefusal(error, target) ?? error;
  }
  return keepOwner(client, id, target, ownership, signal);
}

/**
 * dockerd extracts with the tar header's owner; Podman gives the file to root. Where it did, `chown` through exec
 * puts the owner back. Resolves a warning when the owner could not be kept (no shell, or not running).
 */
async function keepOwner(client: EngineClient, id: string, path: string, wanted: Ownership, signal?: AbortSignal): Promise<string | undefined> {
  const now = await ownershipInContainer(client, id, path, signal);
  if (now.uid === wanted.uid && now.gid === wanted.gid) return undefined;
  try {
    await runFileCommand(client, id, ['chown', `${wanted.uid}:${wanted.gid}`, '--', path], 'change the owner of', signal);
    return undefined;
  } catch (error) {
    return `${path} was written, but the engine gave it to ${now.uid}:${now.gid} instead of ${wanted.uid}:${wanted.gid}: ${errorMessage(error)}`;
  }
}

/** The engine refused to write because the container's root is read-only: say so, and where writing works. */
function readOnlyRefusal(error: unknown, path: string): EngineError | undefined {
  if (!(error instanceof EngineError) || !/read-only/i.test(error.engineMessage ?? '')) return undefined;
  return new EngineError('bad-request', `The container's root file system is read-only, so Berth cannot write ${path} (the engine said "${(error.engineMessage ?? '').trim()}")`, {
    status: error.status,
    engineMessage: error.engineMessage,
    hint: 'Write to a volume or tmpfs mounted in the container, or run it without --read-only',
  });
}

/** Makes a directory through the archive API (no shell needed), owned like its parent; resolves a warning as writes do. */
export async function makeContainerDirectory(client: EngineClient, id: string, path: string, signal?: AbortSignal): Promise<string | undefined> {
  const parent = await ownershipInContainer(client, id, parentOf(path), signal);
  const header = { name: baseNameOf(path), type: 'directory' as const, mode: 0o755, uid: parent.uid, gid: parent.gid, mtime: new Date() };
  try {
    await client.containers.putArchive(id, parentOf(path), await tarOf([{ header }]), { signal, noOverwriteDirNonDir: true });
  } catch (error) {
    throw readOnlyRefusal(error, path) ?? error;
  }
  return keepOwner(client, id, path, { mode: 0o755, uid: parent.uid, gid: parent.gid }, signal);
}

/** Why a command could not run in the container, in words for the user; undefined when it ran. */
export function execRefusal(error: unknown, outcome: ExecOutcome | undefined, verb: string): EngineError | undefined {
  if (outcome !== undefined && outcome.exitCode === 0) return undefined;
  const words = outcome !== undefined ? outcome.stderr : error instanceof EngineError ? (error.engineMessage ?? error.message) : errorMessage(error);
  if (/is not running|is paused|state improper|exec sessions on running containers/i.test(words)) {
    return new EngineError('conflict', `The container is not running, so Berth cannot ${verb} files in it (the engine said "${words.trim()}")`, {
      hint: 'Start the container, or copy the files out and back with Download and Upload',
      engineMessage: words,
    });
  }
  if ((outcome !== undefined && NO_TOOL_EXIT.has(outcome.exitCode)) || /executable file.*not found|exec: .*no such file or directory|OCI runtime exec failed/i.test(words)) {
    return new EngineError('bad-request', `This container has no shell; Berth can read and write files but cannot ${verb} them`, {
      hint: 'Change the image, or do it when building the image',
      engineMessage: words,
    });
  }
  if (/permission denied|operation not permitted/i.test(words)) {
    return new EngineError('unauthorized', `Permission denied: the container's user may not ${verb} this (the container said "${words.trim()}")`, {
      hint: "Run the container as a user allowed to, or change the file's permissions in the image",
      engineMessage: words,
    });
  }
  return new EngineError('server', `Could not ${verb} in the container: ${words || `exit status ${String(outcome?.exitCode)}`}`, {
    hint: 'Check the path and the permissions in the container',
    engineMessage: words,
  });
}

/** Runs rm/mv/chown in the container; a container without the tool, or not running, gets a specific refusal. */
export async function runFileCommand(client: EngineClient, id: string, cmd: string[], verb: string, signal?: AbortSignal): Promise<void> {
  let outcome: ExecOutcome | undefined;
  let failure: unknown;
  try {
    outcome = await execCapture(client, id, cmd, signal);
  } catch (error) {
    failure = error;
  }
  const refusal = execRefusal(failure, outcome, verb);
  if (refusal) throw refusal;
}
