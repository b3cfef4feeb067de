/**
 * The Engine API's archive endpoints: stat a path (`HEAD .../archive`), read a path as a tar stream (`GET`), and
 * extract a tar into a directory (`PUT`), offered as `client.containers.statPath`, `getArchive` and `putArchive`. They work on any container, running, stopped or only created, with or
 * without a shell, which is why Berth's file system is built on them rather than on `ls` through exec.
 */
import { EngineError, buildQuery, type CallOptions, type EngineConnection, TAR_HEADERS } from '../connection';

/** The X-Docker-Container-Path-Stat header, decoded. `mode` is Go's os.FileMode (type bits high, permissions low). */
export interface ContainerPathStat {
  readonly name: string;
  readonly size: number;
  readonly mode: number;
  /** RFC 3339, nanoseconds. */
  readonly mtime: string;
  /** Set for a symbolic link: where it points (as written in the link). */
  readonly linkTarget: string;
}

export interface PutArchiveOptions extends CallOptions {
  /** Refuse to replace a directory with a non-directory and the other way round (docker cp does). */
  readonly noOverwriteDirNonDir?: boolean | undefined;
}

/** An archive being read: the tar bytes, and how to stop the request once enough was read. */
export interface ArchiveStream {
  readonly body: AsyncIterableIterator<Buffer>;
  cancel(): void;
}

/** `HEAD /containers/{id}/archive?path=`: the path's stat (not following a final symlink), or a `not-found` EngineError. */
export async function statContainerPath(connection: EngineConnection, id: string, path: string, options: CallOptions = {}): Promise<ContainerPathStat> {
  const response = await send404Aware(connection, 'HEAD', id, path, options);
  const stat = decodePathStat(response.header('x-docker-container-path-stat'));
  if (stat === undefined) {
    throw new EngineError('protocol', `The engine sent no X-Docker-Container-Path-Stat header for ${path}`, {
      endpoint: connection.endpoint.display,
      hint: 'This engine does not support the archive API; update it',
    });
  }
  return stat;
}

/** `GET /containers/{id}/archive?path=`: the path (a file, or a directory and everything under it) as a tar stream. */
export async function getArchive(connection: EngineConnection, id: string, path: string, options: CallOptions = {}): Promise<ArchiveStream> {
  const response = await connection.openStream({
    method: 'GET',
    path: archivePath(id, path),
    subject: 'container',
    signal: options.signal,
  });
  return { body: response.body, cancel: () => response.cancel() };
}

/** `PUT /containers/{id}/archive?path=`: extracts a tar into the directory `path` (which must exist). */
export async function putArchive(connection: EngineConnection, id: string, path: string, tar: Buffer | NodeJS.ReadableStream, options: PutArchiveOptions = {}): Promise<void> {
  const query = buildQuery({ path, noOverwriteDirNonDir: options.noOverwriteDirNonDir });
  await connection.call({
    method: 'PUT',
    path: `/containers/${encodeURIComponent(id)}/archive${query}`,
    subject: 'container',
    headers: TAR_HEADERS,
    body: tar,
    signal: options.signal,
    long: true,
  });
}

/**
 * A HEAD answer has no body, so a failed stat carries no message of the engine's ("not a directory"): the same path
 * is asked with GET, whose error answer holds it. Should the GET succeed meanwhile, the HEAD's error stands.
 */
async function withEngineMessage(connection: EngineConnection, headError: EngineError, id: string, path: string, options: CallOptions): Promise<EngineError> {
  try {
    const response = await connection.openStream({ method: 'GET', path: archivePath(id, path), subject: 'container', signal: options.signal });
    response.cancel();
    return headError;
  } catch (error) {
    return error instanceof EngineError && error.status !== undefined ? error : headError;
  }
}

/**
 * HEAD answers 404 with an empty body, for a missing path and a missing container alike: inspect tells them
 * apart, so the message says which one is gone.
 */
async function send404Aware(connection: EngineConnection, method: 'HEAD', id: string, path: string, options: CallOptions) {
  try {
    return await connection.call({ method, path: archivePath(id, path), subject: 'container', signal: options.signal });
  } catch (error) {
    if (error instanceof EngineError && error.status !== undefined && error.status !== 404) throw await withEngineMessage(connection, error, id, path, options);
    if (!(error instanceof EngineError && error.status === 404)) throw error;
    await connection.json({ method: 'GET', path: `/containers/${encodeURIComponent(id)}/json`, subject: 'container', signal: options.signal });
    throw new EngineError('not-found', `No such file or directory in the container: ${path}`, {
      status: 404,
      endpoint: connection.endpoint.display,
      hint: 'Check the path; the file may have been removed or renamed in the container',
    });
  }
}

function archivePath(id: string, path: string): string {
  return `/containers/${encodeURIComponent(id)}/archive${buildQuery({ path })}`;
}

/** Decodes the base64 JSON of X-Docker-Container-Path-Stat; undefined when absent or unreadable. */
export function decodePathStat(header: string | undefined): ContainerPathStat | undefined {
  if (header === undefined || header === '') return undefined;
  try {
    const raw = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as Partial<ContainerPathStat>;
    return {
      name: String(raw.name ?? ''),
      size: Number(raw.size ?? 0),
      mode: Number(raw.mode ?? 0),
      mtime: String(raw.mtime ?? ''),
      linkTarget: String(raw.linkTarget ?? ''),
    };
  } catch {
    return undefined;
  }
}
