/**
 * The transport's request and response shapes, apart from the Transport itself so that the response handlers and
 * the connectors (ssh) can name them without importing the Transport that imports them.
 */
import type { Duplex } from 'node:stream';
import type { Connector as UndiciConnector } from './undici';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

/** A request body: bytes, text, or a stream of bytes (an image tarball). */
export type RequestBody = Buffer | string | NodeJS.ReadableStream;

export interface TransportRequest {
  readonly method: HttpMethod;
  /** Path and query, already carrying the API version prefix. */
  readonly path: string;
  /** Flat `[name, value, name, value, …]`; callers reuse constant arrays. */
  readonly headers?: readonly string[] | null | undefined;
  readonly body?: RequestBody | null | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Milliseconds until the response headers must arrive; 0 waits for ever (until the signal aborts). */
  readonly headersTimeout?: number | undefined;
  /** Milliseconds between body chunks; 0 for long streams that end through their signal. */
  readonly bodyTimeout?: number | undefined;
  /** A buffered call that may take long (stop, commit, import): kept off the bounded pool of short calls. */
  readonly long?: boolean | undefined;
}

export interface ResponseHead {
  readonly status: number;
  /** A response header by lower-case name. */
  header(name: string): string | undefined;
}

export interface BufferedResponse extends ResponseHead {
  readonly body: Buffer;
}

export interface StreamingBody extends AsyncIterableIterator<Buffer> {
  /**
   * Takes at once every chunk received and not yet iterated, in order (none when nothing waits). A chunked response
   * arrives as one chunk per HTTP chunk, a log line each; a consumer that joins them takes what one read from the
   * connection carried in one go instead of one iteration per line.
   */
  takeQueued?(): Buffer[];
}

/** `first` and whatever the body has queued behind it, as one buffer: what one read from the connection carried. */
export function withQueued(first: Buffer, body: StreamingBody): Buffer {
  const queued = body.takeQueued?.() ?? [];
  return queued.length === 0 ? first : Buffer.concat([first, ...queued]);
}

export interface StreamingResponse extends ResponseHead {
  /** The body, chunk by chunk. Breaking out of the iteration closes the connection. */
  readonly body: StreamingBody;
  /** Ends the request; the iteration finishes without an error. */
  cancel(): void;
}

export interface UpgradedConnection extends ResponseHead {
  readonly socket: Duplex;
}

/** Opens the byte stream a connection runs over; undici's connector signature. */
export type Connector = UndiciConnector;

/** Default time for the response headers of ordinary calls. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 300_000;
