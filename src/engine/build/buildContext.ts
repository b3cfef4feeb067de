/**
 * A build context as the docker CLI sends it: the context directory walked in name order, what `.dockerignore`
 * excludes left out (Docker's matching rules through @balena/dockerignore, `!` exceptions included), the Dockerfile
 * and `.dockerignore` always sent, and a Dockerfile that lives outside the context added under a random name. The
 * tar is produced while the files are read (tar-stream): one file at a time, never the whole context in memory.
 * Shared by the CLI's `berth build` and the extension's Build Image.
 */
import { createReadStream, type Stats } from 'node:fs';
import { constants } from 'node:fs';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import dockerignore from '@balena/dockerignore';
import type { Pack } from 'tar-stream';
import { crypto, tarStream, fsPromises, EngineError } from '../connection';
import { inOrderAhead } from '../../common/concurrency';

export interface BuildContextOptions {
  /** The context directory. */
  readonly contextDir: string;
  /** The Dockerfile: absolute, or relative to `cwd` (as `docker build -f` reads it). Default: CONTEXT/Dockerfile. */
  readonly dockerfile?: string | undefined;
  /** Where a relative `dockerfile` starts from; the process's working directory by default. */
  readonly cwd?: string | undefined;
}

export interface BuildContext {
  readonly contextDir: string;
  /** The Dockerfile on this machine. */
  readonly dockerfilePath: string;
  /** The name the engine reads it by inside the tar (the `dockerfile` query parameter). */
  readonly dockerfileInTar: string;
  /** The cleaned `.dockerignore` patterns, with the exceptions that keep the Dockerfile and `.dockerignore`. */
  readonly excludes: readonly string[];
  /** The Dockerfile's text, when it lives outside the context and travels under `dockerfileInTar`. */
  readonly externalDockerfile: Buffer | undefined;
}

/** Resolves the context and the Dockerfile, and reads `.dockerignore`; fails with a clear message when one is missing. */
export async function prepareBuildContext(options: BuildContextOptions): Promise<BuildContext> {
  const contextDir = resolve(options.cwd ?? process.cwd(), options.contextDir);
  const contextStat = await lstatOrUndefined(contextDir);
  if (contextStat?.isFile()) {
    throw new EngineError('bad-request', `unable to prepare context: context must be a directory: ${options.contextDir}`, {
      hint: 'Give the folder to build from (the build context), e.g. `.`; a Dockerfile elsewhere goes after -f',
    });
  }
  if (!contextStat?.isDirectory()) {
    throw new EngineError('bad-request', `unable to prepare context: path "${options.contextDir}" not found`, {
      hint: 'Give the folder to build from (the build context), e.g. `.`',
    });
  }
  const dockerfilePath = await locateDockerfile(contextDir, options);
  const relativeDockerfile = relative(contextDir, dockerfilePath).split(sep).join('/');
  const outside = relativeDockerfile.startsWith('../') || isAbsolute(relativeDockerfile);
  const patterns = await readDockerignore(contextDir);
  const dockerfileInTar = outside ? `.dockerfile.${crypto().randomBytes(10).toString('hex')}` : relativeDockerfile;
  return {
    contextDir,
    dockerfilePath,
    dockerfileInTar,
    excludes: keepBuildFiles(patterns, outside ? undefined : relativeDockerfile),
    externalDockerfile: outside ? await fsPromises().readFile(dockerfilePath) : undefined,
  };
}

/** `.dockerignore` lines as Docker reads them: comments and blanks dropped, paths cleaned, a leading `/` removed. */
export function parseDockerignore(text: string): string[] {
  const patterns: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (raw.startsWith('#')) continue;
    let pattern = raw.trim();
    if (pattern === '') continue;
    const exception = pattern.startsWith('!');
    if (exception) pattern = pattern.slice(1).trim();
    if (pattern.length > 0) {
      pattern = goClean(pattern);
      if (pattern.length > 1 && pattern.startsWith('/')) pattern = pattern.slice(1);
    }
    patterns.push(exception ? `!${pattern}` : pattern);
  }
  return patterns;
}

/** Decides, for a path relative to the context (with `/`), whether the context leaves it out. */
export class ContextMatcher {
  private readonly matcher;
  /** The exception patterns without their `!`: a directory one of them reaches into is walked although excluded. */
  private readonly exceptions: readonly string[];

  constructor(excludes: readonly string[]) {
    // Docker matches case-sensitively; the library's default is not to.
    this.matcher = dockerignore({ ignorecase: false }).add([...excludes]);
    this.exceptions = excludes.filter((pattern) => pattern.startsWith('!')).map((pattern) => goClean(pattern.slice(1)));
  }

  excludes(path: string): boolean {
    return this.matcher.ignores(path);
  }

  /** An excluded directory is still walked when an exception pattern starts with it (`!dir/keep`), as docker does. */
  mustWalkExcludedDirectory(path: string): boolean {
    const dirSlash = `${path}/`;
    return this.exceptions.some((pattern) => `${pattern}/`.startsWith(dirSlash));
  }
}

/** One entry of the context, as it goes into the tar. */
export interface ContextEntry {
  /** Relative to the context, with `/`. */
  readonly name: string;
  readonly absolutePath: string;
  readonly stat: Stats;
}

/**
 * The context's entries in the order docker's walk visits them (names sorted byte-wise, depth first), without what
 * the patterns exclude. Sockets, devices and pipes are left out.
 */
export async function* walkContext(contextDir: string, excludes: readonly string[], signal?: AbortSignal): AsyncGenerator<ContextEntry, void, undefined> {
  const matcher = new ContextMatcher(excludes);
  const hasExceptions = excludes.some((pattern) => pattern.startsWith('!'));
  async function* walk(dir: string, prefix: string): AsyncGenerator<ContextEntry, void, undefined> {
    const names = (await fsPromises().readdir(dir)).sort(byteOrder);
    // The stats of a directory's names are asked together (a few at a time): one after the other, each waits a
    // round trip to libuv's thread pool, which made the walk, not the engine, the slow part of a build.
    const statted = inOrderAhead(names, STATS_AHEAD, async (name) => ({ name, stat: await fsPromises().lstat(join(dir, name)) }));
    for await (const { name, stat } of statted) {
      signal?.throwIfAborted();
      const absolutePath = join(dir, name);
      const relativeName = prefix === '' ? name : `${prefix}/${name}`;
      if (matcher.excludes(relativeName)) {
        if (stat.isDirectory() && hasExceptions && matcher.mustWalkExcludedDirectory(relativeName)) yield* walk(absolutePath, relativeName);
        continue;
      }
      if (stat.isDirectory()) {
        yield { name: relativeName, absolutePath, stat };
        yield* walk(absolutePath, relativeName);
      } else if (stat.isFile() || stat.isSymbolicLink()) {
        yield { name: relativeName, absolutePath, stat };
      }
    }
  }
  yield* walk(contextDir, '');
}

/**
 * The context as a tar stream, produced while the files are read: each file is piped into its entry before the next
 * is opened, and the tar waits while the engine reads slowly. Owners and groups are 0, as the docker CLI sends them.
 * Aborting `signal` ends the stream with the cancellation.
 */
export function contextTar(context: BuildContext, signal?: AbortSignal): Pack {
  const tar = tarStream().pack();
  const fill = async (): Promise<void> => {
    // The next files are read while one goes into the tar; at most READS_AHEAD small files are held at once.
    const entries = walkContext(context.contextDir, context.excludes, signal);
    for await (const prepared of inOrderAhead(entries, READS_AHEAD, (entry) => prepareEntry(entry, signal))) {
      if (prepared.entry.name === '.dockerignore' && context.externalDockerfile !== undefined) continue;
      await addEntry(tar, prepared, signal);
    }
    if (context.externalDockerfile !== undefined) {
      // As the docker CLI does: the Dockerfile under its random name, which .dockerignore then leaves out of COPY.
      // Only a regular .dockerignore's bytes travel: a link's target may be any file of this machine (the docker CLI
      // reads the link's entry of the context tar, which has no bytes).
      const ignoreText = await regularFileOrEmpty(join(context.contextDir, '.dockerignore'));
      await addBuffer(tar, context.dockerfileInTar, context.externalDockerfile);
      await addBuffer(tar, '.dockerignore', Buffer.concat([ignoreText, Buffer.from(`\n${context.dockerfileInTar}\n`)]));
    }
    tar.finalize();
  };
  fill().catch((error: unknown) => tar.destroy(error instanceof Error ? error : new Error(String(error))));
  return tar;
}

/** A regular file's bytes; nothing for a link, a FIFO, a directory or a missing file (opened without following a link or blocking). */
async function regularFileOrEmpty(path: string): Promise<Buffer> {
  const handle = await fsPromises().open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (handle === undefined) return Buffer.alloc(0);
  try {
    return (await handle.stat()).isFile() ? await handle.readFile() : Buffer.alloc(0);
  } finally {
    await handle.close();
  }
}

/**
 * The tar's small pieces (a header, a file, its padding) joined into writes of about `size` bytes: each piece written
 * on its own costs a pass through the HTTP client and a socket write.
 */
export async function* inChunksOf(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer, void, undefined> {
  let pieces: Buffer[] = [];
  let length = 0;
  for await (const piece of source) {
    pieces.push(piece);
    length += piece.length;
    if (length >= size) {
      yield pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces, length);
      pieces = [];
      length = 0;
    }
  }
  if (length > 0) yield Buffer.concat(pieces, length);
}

/** The Dockerfile and `.dockerignore` always travel: their exceptions are added when the patterns exclude them. */
function keepBuildFiles(patterns: readonly string[], dockerfile: string | undefined): string[] {
  const excludes = [...patterns];
  const matches = (path: string): boolean => dockerignore({ ignorecase: false }).add(excludes).ignores(path);
  if (matches('.dockerignore')) excludes.push('!.dockerignore');
  if (dockerfile !== undefined && matches(dockerfile)) excludes.push(`!${dockerfile}`);
  return excludes;
}

async function locateDockerfile(contextDir: string, options: BuildContextOptions): Promise<string> {
  if (options.dockerfile !== undefined && options.dockerfile !== '') {
    const path = resolve(options.cwd ?? process.cwd(), options.dockerfile);
    if ((await lstatOrUndefined(path))?.isFile() !== true) {
      throw new EngineError('not-found', `Cannot locate specified Dockerfile: ${options.dockerfile}`, {
        hint: 'Check the path given with -f (it is relative to the current folder, not to the context)',
      });
    }
    return path;
  }
  for (const name of ['Dockerfile', 'dockerfile']) {
    const path = join(contextDir, name);
    if ((await lstatOrUndefined(path))?.isFile() === true) return path;
  }
  throw new EngineError('not-found', `Cannot locate specified Dockerfile: ${join(contextDir, 'Dockerfile')}`, {
    hint: 'Create a Dockerfile in the context folder, or name one with -f',
  });
}

async function readDockerignore(contextDir: string): Promise<string[]> {
  try {
    return parseDockerignore(await fsPromises().readFile(join(contextDir, '.dockerignore'), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Files up to this size are read whole into their entry; bigger ones are piped through. */
const SMALL_FILE_BYTES = 256 * 1024;

/** How many names of a directory are stat'ed at once. */
const STATS_AHEAD = 32;
/** How many entries are read ahead of the one going into the tar (small files whole, symlinks' targets). */
const READS_AHEAD = 16;

/** An entry with what it carries read already: a small file's bytes, a symlink's target. */
interface PreparedEntry {
  readonly entry: ContextEntry;
  readonly content?: Buffer;
  readonly linkname?: string;
}

async function prepareEntry(entry: ContextEntry, signal: AbortSignal | undefined): Promise<PreparedEntry> {
  const { stat } = entry;
  if (stat.isSymbolicLink()) return { entry, linkname: await fsPromises().readlink(entry.absolutePath) };
  // Most files of a context are small: one read and one entry cost less than a stream each, and stay bounded.
  if (stat.isFile() && stat.size <= SMALL_FILE_BYTES) return { entry, content: await fsPromises().readFile(entry.absolutePath, { signal }) };
  return { entry };
}

async function addEntry(tar: Pack, prepared: PreparedEntry, signal: AbortSignal | undefined): Promise<void> {
  const { entry, content } = prepared;
  const { stat } = entry;
  const header = { name: entry.name, mode: stat.mode & 0o7777, mtime: stat.mtime, uid: 0, gid: 0 };
  if (stat.isDirectory()) return addHeaderOnly(tar, { ...header, type: 'directory' });
  if (stat.isSymbolicLink()) return addHeaderOnly(tar, { ...header, type: 'symlink', linkname: prepared.linkname ?? (await fsPromises().readlink(entry.absolutePath)) });
  if (content !== undefined) {
    return new Promise<void>((resolveEntry, reject) =>
      tar.entry({ ...header, type: 'file', size: content.length }, content, (error) => (error ? reject(error) : resolveEntry())),
    );
  }
  await new Promise<void>((resolveEntry, reject) => {
    const sink = tar.entry({ ...header, type: 'file', size: stat.size }, (error) => (error ? reject(error) : resolveEntry()));
    const source = createReadStream(entry.absolutePath, { signal });
    source.on('error', (error) => {
      sink.destroy(error);
      reject(error);
    });
    source.pipe(sink);
  });
}

function addHeaderOnly(tar: Pack, header: Parameters<Pack['entry']>[0]): Promise<void> {
  return new Promise((resolveEntry, reject) => tar.entry(header, (error) => (error ? reject(error) : resolveEntry())));
}

function addBuffer(tar: Pack, name: string, content: Buffer): Promise<void> {
  return new Promise((resolveEntry, reject) =>
    tar.entry({ name, mode: 0o600, mtime: new Date(), uid: 0, gid: 0, type: 'file' }, content, (error) => (error ? reject(error) : resolveEntry())),
  );
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  return fsPromises().lstat(path).catch(() => undefined);
}

/** Go's filepath.Clean for `/` paths: `a//b/../c/` → `a/c`, `` → `.`. */
export function goClean(path: string): string {
  if (path === '') return '.';
  const cleaned = posix.normalize(path);
  return cleaned.length > 1 && cleaned.endsWith('/') ? cleaned.slice(0, -1) : cleaned;
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
