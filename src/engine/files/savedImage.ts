/**
 * Reads the saved-image stream (`GET /images/{name}/get`, what `docker save` writes) in one pass. The outer tar holds
 * manifest.json, the image config and one tar per layer (`<id>/layer.tar` on older engines, `blobs/sha256/<digest>` in
 * the OCI layout of newer ones, `<digest>.tar` from Podman), in no promised order. Each layer tar is parsed while it
 * streams: only its entries' headers are kept, its bytes are never written to disk or held whole in memory. Small
 * JSON documents are kept, since manifest.json may come after the layers it names.
 */
import type { EventEmitter } from 'node:events';
import type * as tar from 'tar-stream';
import { readHead, tarStream, zlib } from '../connection';
import { TarHeaderError, TarHeaderWalker, type LayerEntryKind } from './tarHeaders';

export type { LayerEntryKind } from './tarHeaders';

/** One entry of a layer tar, as its header says (the path without a leading `./` or `/`). */
export interface LayerTarEntry {
  readonly path: string;
  readonly kind: LayerEntryKind;
  readonly size: number;
  readonly mode: number;
  readonly linkTarget: string;
}

export interface SavedImageContents {
  /** Every entry of the outer tar that is itself a tar: its path there → its entries, in tar order. */
  readonly layerTars: ReadonlyMap<string, readonly LayerTarEntry[]>;
  /** The outer tar's small non-tar entries (manifest.json, the config, index.json), parsed as JSON. */
  readonly documents: ReadonlyMap<string, unknown>;
}

export interface ReadSavedImageOptions {
  /** Called after each outer entry, with the bytes of the outer stream read so far. */
  readonly onProgress?: ((bytesRead: number, entryPath: string) => void) | undefined;
}

/** The most entries all layers together may list: a hostile engine cannot make the headers fill the memory. */
export const MAX_LAYER_ENTRIES = 2_000_000;
/** manifest.json and the config are a few kB; anything larger that is not a tar is skipped unread. */
const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;
const TAR_BLOCK = 512;

/** Thrown when the stream is not a readable saved image; the caller words it for the user. */
export class SavedImageFormatError extends Error {
  override readonly name = 'SavedImageFormatError';
}

export async function readSavedImage(body: AsyncIterable<Buffer> | Iterable<Buffer>, options: ReadSavedImageOptions = {}): Promise<SavedImageContents> {
  const layerTars = new Map<string, LayerTarEntry[]>();
  const documents = new Map<string, unknown>();
  let bytesRead = 0;
  let entryCount = 0;
  const counted = (chunk: Buffer): void => {
    bytesRead += chunk.length;
  };
  await forEachOuterEntry(body, async (header, stream) => {
    const path = normalizePath(header.name);
    if (header.type !== 'file' && header.type !== 'contiguous-file') {
      await drain(stream);
      return;
    }
    const head = await readEntryHead(stream, (header.size ?? 0) > MAX_DOCUMENT_BYTES ? TAR_BLOCK : MAX_DOCUMENT_BYTES);
    if (isTar(head.bytes) || isGzip(head.bytes)) {
      const entries: LayerTarEntry[] = [];
      const keep = (entry: LayerTarEntry): void => {
        if (++entryCount > MAX_LAYER_ENTRIES) throw new SavedImageFormatError(`the layers list more than ${MAX_LAYER_ENTRIES} files`);
        entries.push(entry);
      };
      if (isGzip(head.bytes)) await parseLayerTar(head, keep);
      else await walkLayerHeaders(head, keep);
      layerTars.set(path, entries);
    } else if (header.size <= MAX_DOCUMENT_BYTES && head.ended) {
      const document = parseJson(head.bytes);
      if (document !== undefined) documents.set(path, document);
    } else {
      await drain(head.rest);
    }
    options.onProgress?.(bytesRead, path);
  }, counted);
  return { layerTars, documents };
}

/** The entry that answers for a path in one layer: the path itself, or the whiteout that removes it. */
export interface LayerFileHit {
  readonly entry: LayerTarEntry;
  /** The layer removes the path (`.wh.<name>`, or an opaque directory above it and no new version). */
  readonly whiteout: boolean;
}

export interface LayerFileSearch {
  /** The saved image holds the layer tar at `tarPath`. */
  readonly layerFound: boolean;
  readonly hit: LayerFileHit | undefined;
}

/** Thrown inside the inner extract to stop reading once the wanted entry is read: nothing after it is needed. */
class StopReading extends Error {}

/**
 * Finds `layerPath` (as `layerPathOf` normalises it) in the layer tar at `tarPath` of the outer tar and stops the
 * read there: the rest of the stream is never read. `take(hit)` returns where the entry's bytes go, or undefined to
 * leave them unread (a whiteout, a folder, a file over the caller's size cap).
 */
export async function findLayerFile(
  body: AsyncIterable<Buffer>,
  tarPath: string,
  layerPath: string,
  take: (hit: LayerFileHit) => ((chunk: Buffer) => void) | undefined,
): Promise<LayerFileSearch> {
  const slash = layerPath.lastIndexOf('/');
  const directory = slash === -1 ? '' : layerPath.slice(0, slash + 1);
  const whiteoutPath = `${directory}.wh.${layerPath.slice(slash + 1)}`;
  const opaquePath = `${directory}.wh..wh..opq`;
  let layerFound = false;
  let hit: LayerFileHit | undefined;
  let opaque: LayerTarEntry | undefined;
  await forEachOuterEntry(body, async (header, stream) => {
    if (normalizePath(header.name) !== tarPath) {
      await drain(stream);
      return;
    }
    layerFound = true;
    const head = await readEntryHead(stream, TAR_BLOCK);
    try {
      await parseLayerTar(head, undefined, async (header, data) => {
        const entry = layerTarEntry(header);
        const path = entry === undefined ? '' : layerPathOf(entry.path);
        if (entry !== undefined && path === opaquePath) opaque = entry;
        if (entry === undefined || (path !== layerPath && path !== whiteoutPath)) return drain(data);
        hit = { entry: { ...entry, path: layerPath }, whiteout: path === whiteoutPath };
        const sink = take(hit);
        if (sink !== undefined) for await (const chunk of data) sink(chunk as Buffer);
        throw new StopReading();
      });
    } catch (error) {
      if (!(error instanceof StopReading)) throw error;
    }
    return 'stop';
  });
  // An opaque directory hides what lower layers held below it; a path it hides and the layer does not add is removed.
  if (hit === undefined && opaque !== undefined) hit = { entry: { ...opaque, path: layerPath }, whiteout: true };
  return { layerFound, hit };
}

/**
 * A path inside a layer as Berth names it: no `.` or empty segments, and `..` resolved without ever climbing above
 * the layer's root, so a hostile entry name stays inside the layer and `./a`, `/a/` and `b/../a` are the same path.
 */
export function layerPathOf(name: string): string {
  const kept: string[] = [];
  for (const segment of name.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') kept.pop();
    else kept.push(segment);
  }
  return kept.join('/');
}

type OuterHandler = (header: tar.Header, stream: AsyncIterable<Buffer>) => Promise<void | 'stop'>;

/**
 * Feeds the body straight into tar-stream's extract, waiting on its backpressure, and hands each entry to `handle`.
 * No stream adapter sits between: every chunk of a saved image (thousands, many of them a few bytes where the
 * response's chunking splits them) would otherwise cross an extra async generator and a Readable on its way.
 */
async function forEachOuterEntry(body: AsyncIterable<Buffer> | Iterable<Buffer>, handle: OuterHandler, onChunk?: (chunk: Buffer) => void): Promise<void> {
  const outer = tarStream().extract();
  let stopped = false;
  const feeding = (async () => {
    for await (const chunk of body) {
      if (stopped) return;
      onChunk?.(chunk);
      await write(outer, chunk);
    }
    outer.end(undefined);
  })();
  // A failed feed ends the entries' loop with its error; a feed stopped by the reader is no failure.
  feeding.catch((error: unknown) => outer.destroy(error instanceof Error ? error : new Error(String(error))));
  try {
    for await (const entry of outer) {
      if ((await handle(entry.header, entry as AsyncIterable<Buffer>)) === 'stop') return;
    }
    await feeding;
  } finally {
    stopped = true;
    outer.destroy();
  }
}

interface Head {
  /** At least one tar block, unless the entry is shorter. */
  readonly bytes: Buffer;
  /** The entry ended within `bytes`. */
  readonly ended: boolean;
  /** The chunks after `bytes`. */
  readonly rest: AsyncIterator<Buffer> & AsyncIterable<Buffer>;
}

/** The entry's first `limit` bytes or more (whole chunks), or all of it when it is shorter. */
async function readEntryHead(stream: AsyncIterable<Buffer>, limit: number): Promise<Head> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterableIterator<Buffer>;
  // A document is read whole (up to the limit); a tar needs only its first block to be told apart, looked at once:
  // when the chunks first reach a block.
  const firstBlockIsArchive = (chunks: readonly Buffer[], length: number): boolean =>
    length >= TAR_BLOCK && length - (chunks.at(-1)?.length ?? 0) < TAR_BLOCK && (isTar(Buffer.concat(chunks)) || isGzip(chunks[0] as Buffer));
  const { bytes, ended } = await readHead(iterator, limit, firstBlockIsArchive);
  return { bytes, ended, rest: iterator };
}

function isTar(bytes: Buffer): boolean {
  return bytes.length >= TAR_BLOCK && bytes.toString('latin1', 257, 262) === 'ustar';
}

function isGzip(bytes: Buffer): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** An uncompressed layer tar: headers only, bodies skipped by count (the common case, and most of the bytes). */
async function walkLayerHeaders(head: Head, onHeader: (entry: LayerTarEntry) => void): Promise<void> {
  const walker = new TarHeaderWalker((header) => {
    const path = normalizePath(header.name);
    if (path !== '') onHeader({ path, kind: header.kind, size: header.size, mode: header.mode, linkTarget: header.linkTarget });
  });
  try {
    walker.push(head.bytes);
    if (!head.ended) for await (const chunk of head.rest) walker.push(chunk);
  } catch (error) {
    if (error instanceof TarHeaderError) throw new SavedImageFormatError(error.message);
    throw error;
  }
  if (!walker.ended && !walker.atBoundary) throw new SavedImageFormatError('a layer tar ends inside an entry');
}

type InnerEntry = ReturnType<typeof tar.extract> extends AsyncIterable<infer E> ? E : never;

/**
 * Feeds one layer tar (gzip-compressed or not) through an inner extract with backpressure: headers go to
 * `onHeader`, bodies are drained unless `onEntry` takes them.
 */
async function parseLayerTar(
  head: Head,
  onHeader: ((entry: LayerTarEntry) => void) | undefined,
  onEntry?: (header: tar.Header, data: InnerEntry) => Promise<void>,
): Promise<void> {
  const inner = tarStream().extract();
  let sink: Sink = inner;
  if (isGzip(head.bytes)) {
    const gunzip = zlib().createGunzip();
    gunzip.on('error', (error) => inner.destroy(error));
    gunzip.pipe(inner);
    sink = gunzip;
  }
  const consumed = (async () => {
    for await (const entry of inner) {
      const tarEntry = layerTarEntry(entry.header);
      if (tarEntry !== undefined) onHeader?.(tarEntry);
      if (onEntry) await onEntry(entry.header, entry);
      else await drain(entry);
    }
  })();
  // The consumer's failure must stop the writer, and the writer's the consumer.
  consumed.catch((error: unknown) => sink.destroy(error instanceof Error ? error : new Error(String(error))));
  try {
    await write(sink, head.bytes);
    if (!head.ended) for await (const chunk of head.rest) await write(sink, chunk);
    sink.end();
  } catch (error) {
    inner.destroy(error instanceof Error ? error : new Error(String(error)));
  }
  await consumed;
}

/** What the layer bytes are written to: the extract itself, or the gunzip in front of it. */
interface Sink extends EventEmitter {
  readonly destroyed: boolean;
  write(chunk: Buffer): boolean;
  end(data?: unknown): unknown;
  destroy(error?: Error): void;
}

async function write(sink: Sink, chunk: Buffer): Promise<void> {
  if (sink.destroyed) throw new SavedImageFormatError('the layer tar could not be read');
  if (sink.write(chunk)) return;
  // A sink the consumer destroyed (a file found, a failure) never drains: its close ends the wait too. Plain
  // listeners, removed by hand: an AbortSignal per wait would build an AbortError (a stack trace) each time.
  await new Promise<void>((resolve) => {
    const done = (): void => {
      sink.off('drain', done);
      sink.off('close', done);
      resolve();
    };
    sink.on('drain', done);
    sink.on('close', done);
  });
  if (sink.destroyed) throw new SavedImageFormatError('the layer tar could not be read');
}

function layerTarEntry(header: tar.Header): LayerTarEntry | undefined {
  const path = normalizePath(header.name);
  if (path === '') return undefined;
  return { path, kind: kindOf(header.type), size: header.type === 'file' || header.type === 'contiguous-file' ? (header.size ?? 0) : 0, mode: header.mode ?? 0, linkTarget: header.linkname ?? '' };
}

function kindOf(type: tar.Header['type']): LayerEntryKind {
  if (type === 'file' || type === 'contiguous-file') return 'file';
  if (type === 'directory') return 'directory';
  if (type === 'symlink') return 'symlink';
  if (type === 'link') return 'link';
  return 'other';
}

/** A tar name without `./`, leading or trailing slashes: `./etc/` and `etc` are the same path. */
export function normalizePath(name: string): string {
  return name.replace(/^(\.\/|\/)+/, '').replace(/\/+$/, '').replace(/^\.$/, '');
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of stream) {
    // Only read past it.
  }
}
