/**
 * Save Logs: a container's logs written to a file as `docker logs` prints them, through the current filter and
 * time range, streamed: the engine's stream is read only as fast as the file takes it, so memory stays bounded
 * whatever the size of the log. No `vscode` here: the command gives the path, the progress and the cancellation.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { EngineClient } from '../engine';
import { FilteredSink, type LineFilter } from './lineFilter';
import { LogMessageReader } from './logMessages';

export type SaveLogsClient = { readonly containers: Pick<EngineClient['containers'], 'logs' | 'inspect'> };

export interface SaveLogsOptions {
  readonly filter?: LineFilter | undefined;
  /** Unix seconds; `until` defaults to the moment the save starts, so a running container's save ends. */
  readonly since?: number | undefined;
  readonly until?: number | undefined;
  readonly signal: AbortSignal;
  /** Bytes written so far, called at most once per chunk from the engine. */
  readonly onProgress?: (bytesWritten: number) => void;
  readonly now?: () => number;
}

export interface SavedLogs {
  readonly bytes: number;
  /** Lines read from the engine and lines written (the same without a filter). */
  readonly linesRead: number;
  readonly linesWritten: number;
}

/** A file that cannot be written: the system's reason and what to do. */
export class SaveLogsError extends Error {
  override readonly name = 'SaveLogsError';
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`Cannot write ${path}: ${reasonOf(code)}. Choose a folder you can write to.`);
  }
}

function reasonOf(code: string): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'the folder does not exist';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    default:
      return code;
  }
}

async function openForWriting(path: string): Promise<WriteStream> {
  const file = createWriteStream(path, { flags: 'w' });
  const failed = once(file, 'error').then(([error]) => {
    throw error;
  });
  await Promise.race([once(file, 'open'), failed]);
  // Later write errors are awaited through `finished` below; this one was read.
  failed.catch(() => undefined);
  return file;
}

/** Resolves when FILE drained or failed (the failure is read from its error handler); rejects on a cancellation. */
function drained(file: WriteStream, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      file.off('drain', done);
      file.off('error', done);
      signal.removeEventListener('abort', aborted);
      resolve();
    };
    const aborted = (): void => {
      done();
      reject(signal.reason instanceof Error ? signal.reason : new DOMException('The save was cancelled', 'AbortError'));
    };
    if (signal.aborted) return aborted();
    file.once('drain', done);
    file.once('error', done);
    signal.addEventListener('abort', aborted, { once: true });
  });
}

function codeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Writes the logs of container ID to PATH; on a failure or a cancellation the partial file is removed. */
export async function saveContainerLogs(client: SaveLogsClient, id: string, path: string, options: SaveLogsOptions): Promise<SavedLogs> {
  const { signal } = options;
  const inspect = await client.containers.inspect(id, { signal });
  const tty = inspect.Config.Tty;
  const until = options.until ?? (options.now ?? Date.now)() / 1000;
  let file: WriteStream;
  try {
    file = await openForWriting(path);
  } catch (error) {
    const code = codeOf(error);
    if (code !== undefined) throw new SaveLogsError(path, code);
    throw error;
  }
  let bytes = 0;
  let writeError: Error | undefined;
  file.on('error', (error: Error) => (writeError ??= error));
  const sink = new FilteredSink(
    {
      output: (_stream, text) => {
        const data = Buffer.from(text, 'utf8');
        bytes += data.length;
        file.write(data);
      },
      notice: () => undefined,
    },
    options.filter,
  );
  const reader = new LogMessageReader((stream, text) => sink.output(stream, text));
  let clean = false;
  try {
    const query = { timestamps: true, tty, rawFrames: true, until, signal, ...(options.since === undefined ? {} : { since: options.since }) };
    for await (const chunk of client.containers.logs(id, query)) {
      reader.push(chunk, !tty);
      if (writeError !== undefined) throw writeError;
      options.onProgress?.(bytes);
      // The next chunk is read once the file took this one: the engine's stream waits, memory does not grow.
      if (file.writableNeedDrain) await drained(file, signal);
    }
    clean = true;
  } catch (error) {
    file.destroy();
    await rm(path, { force: true });
    const code = codeOf(error);
    if (code !== undefined && !signal.aborted && error === writeError) throw new SaveLogsError(path, code);
    throw error;
  } finally {
    if (clean) {
      reader.end(true);
      sink.flush();
    }
  }
  file.end();
  try {
    await once(file, 'finish');
  } catch (error) {
    await rm(path, { force: true });
    const code = codeOf(error);
    throw code === undefined ? error : new SaveLogsError(path, code);
  }
  if (writeError !== undefined) {
    await rm(path, { force: true });
    const code = codeOf(writeError);
    throw code === undefined ? writeError : new SaveLogsError(path, code);
  }
  options.onProgress?.(bytes);
  return { bytes, linesRead: sink.read, linesWritten: sink.kept };
}
