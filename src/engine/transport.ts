/**
 * The HTTP transport: one undici Pool per endpoint (Unix socket, tcp, tcp+TLS, or a custom connector such as ssh),
 * kept alive. Requests go through `dispatch` with minimal handlers, the lightest path undici offers: small calls
 * buffer the body in one handler object; streaming calls hand out the body as an async iterable with backpressure;
 * upgrades hand out the raw socket. Transport-level failures (no socket, refused, permission, TLS, abort) become
 * EngineErrors here, naming the endpoint and saying what to do next.
 */
import { readFileSync } from 'node:fs';
import type { Duplex } from 'node:stream';
import { Pool, buildConnector, type Connector as UndiciConnector, type Dispatcher } from './undici';
import type { Endpoint } from './endpoint';
import { EngineError } from './errors';
import { toTransportError } from './connection-errors';
import { sshConnector } from './ssh';

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

export interface StreamingResponse extends ResponseHead {
  /** The body, chunk by chunk. Breaking out of the iteration closes the connection. */
  readonly body: AsyncIterableIterator<Buffer>;
  /** Ends the request; the iteration finishes without an error. */
  cancel(): void;
}

export interface UpgradedConnection extends ResponseHead {
  readonly socket: Duplex;
}

/** Opens the byte stream a connection runs over; undici's connector signature. */
export type Connector = UndiciConnector;

export interface TransportOptions {
  /** Replaces how connections are opened (e.g. a test double or another tunnel). */
  readonly connector?: Connector | undefined;
  /** How long an idle kept-alive connection stays open. */
  readonly keepAliveTimeoutMs?: number | undefined;
}

/** Default time for the response headers of ordinary calls. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 300_000;

/** Connections for short calls; many parallel inspects share these instead of opening one socket each. */
export const SHORT_CALL_CONNECTIONS = 8;

/**
 * Two pools over the same connector: short calls on a bounded set of kept-alive connections, and long ones (streams,
 * waits, upgrades, stops, commits) on their own, unbounded, so a followed log can never starve an inspect.
 */
export class Transport {
  private readonly shortCalls: Pool;
  private readonly longCalls: Pool;

  constructor(
    readonly endpoint: Endpoint,
    options: TransportOptions = {},
  ) {
    const connect = options.connector ?? connectorFor(endpoint);
    const keepAliveTimeout = options.keepAliveTimeoutMs ?? 30_000;
    this.shortCalls = new Pool(endpoint.origin, {
      connect,
      connections: SHORT_CALL_CONNECTIONS,
      keepAliveTimeout,
      keepAliveMaxTimeout: 600_000,
      pipelining: 1,
    });
    this.longCalls = new Pool(endpoint.origin, { connect, keepAliveTimeout, keepAliveMaxTimeout: 600_000, pipelining: 1 });
  }

  /** Sends a request (its path after `pathPrefix`, e.g. `/v1.41`) and buffers the whole response body. */
  request(request: TransportRequest, pathPrefix = ''): Promise<BufferedResponse> {
    return new Promise<BufferedResponse>((resolve, reject) => {
      const handler = new BufferingHandler(this.endpoint, request.signal, resolve, reject);
      this.dispatch(request.long === true ? this.longCalls : this.shortCalls, request, handler, undefined, pathPrefix);
    });
  }

  /** Sends a request and resolves once the response headers are in; the body streams with backpressure. */
  stream(request: TransportRequest): Promise<StreamingResponse> {
    return new Promise<StreamingResponse>((resolve, reject) => {
      const handler = new StreamingHandler(this.endpoint, request.signal, resolve, reject);
      this.dispatch(this.longCalls, request, handler, undefined);
    });
  }

  /**
   * Sends a request asking to upgrade the connection (`Connection: Upgrade`, `Upgrade: <protocol>`). Resolves with the
   * raw socket on 101; on any other status, with the buffered response instead so the caller can map the error.
   */
  upgrade(request: TransportRequest, protocol: string): Promise<UpgradedConnection | BufferedResponse> {
    return new Promise<UpgradedConnection | BufferedResponse>((resolve, reject) => {
      const handler = new UpgradeHandler(this.endpoint, request.signal, resolve, reject);
      this.dispatch(this.longCalls, request, handler, protocol);
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.shortCalls.close(), this.longCalls.close()]);
  }

  /** Closes at once, failing requests in flight (used when a client is dropped). */
  async destroy(): Promise<void> {
    await Promise.all([this.shortCalls.destroy(), this.longCalls.destroy()]);
  }

  private dispatch(pool: Pool, request: TransportRequest, handler: BaseHandler, upgrade: string | undefined, pathPrefix = ''): void {
    if (request.signal?.aborted) {
      handler.onError(abortError(request.signal));
      return;
    }
    const options: Dispatcher.DispatchOptions = {
      method: request.method,
      path: pathPrefix + request.path,
      headers: request.headers as string[] | null | undefined,
      body: request.body as Dispatcher.DispatchOptions['body'],
      headersTimeout: request.headersTimeout ?? DEFAULT_HEADERS_TIMEOUT_MS,
      bodyTimeout: request.bodyTimeout ?? DEFAULT_HEADERS_TIMEOUT_MS,
      upgrade,
    };
    // undici's native handler interface is the callback one (onConnect/onHeaders/onData/onComplete/onError);
    // using it directly avoids the adapter the controller-style interface goes through.
    pool.dispatch(options, handler);
  }
}

function connectorFor(endpoint: Endpoint): Connector {
  switch (endpoint.kind) {
    case 'unix':
      return buildConnector({ socketPath: endpoint.socketPath });
    case 'ssh':
      return sshConnector(endpoint);
    case 'tcp': {
      const tls = endpoint.tls;
      if (!tls) return buildConnector({});
      const read = (path: string | undefined): Buffer | undefined => (path ? readTlsFile(endpoint, path) : undefined);
      return buildConnector({
        ca: read(tls.caFile),
        cert: read(tls.certFile),
        key: read(tls.keyFile),
        rejectUnauthorized: tls.verify,
      });
    }
  }
}

function readTlsFile(endpoint: Endpoint, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new EngineError('unreachable', `Cannot read the TLS file ${path} for the engine at ${endpoint.display}`, {
      endpoint: endpoint.display,
      hint: 'Check DOCKER_CERT_PATH (it must hold ca.pem, cert.pem and key.pem) or the docker context TLS files',
      cause: error,
    });
  }
}

type RawHeaders = Buffer[] | string[] | null;

const EMPTY = Buffer.alloc(0);

function findHeader(rawHeaders: RawHeaders, name: string): string | undefined {
  if (!rawHeaders) return undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const key = rawHeaders[i] as Buffer | string;
    if (key.length === name.length && key.toString('latin1').toLowerCase() === name) {
      return (rawHeaders[i + 1] as Buffer | string).toString('latin1');
    }
  }
  return undefined;
}

function headerLookup(rawHeaders: RawHeaders): (name: string) => string | undefined {
  return (name) => findHeader(rawHeaders, name);
}

type Abort = (reason?: Error) => void;

/** Shared abort and failure plumbing of the handlers below. */
abstract class BaseHandler {
  protected abortRequest: Abort | undefined;
  private abortReason: Error | undefined;
  private readonly onAbort: (() => void) | undefined;

  constructor(
    protected readonly endpoint: Endpoint,
    protected readonly signal: AbortSignal | undefined,
  ) {
    if (signal) {
      this.onAbort = () => this.abort(abortError(signal));
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  onConnect(abort: Abort): void {
    if (this.abortReason) abort(this.abortReason);
    else this.abortRequest = abort;
  }

  abstract onError(error: Error): void;

  protected abort(reason: Error): void {
    if (this.abortRequest) this.abortRequest(reason);
    else this.abortReason = reason;
  }

  protected release(): void {
    if (this.onAbort) this.signal?.removeEventListener('abort', this.onAbort);
  }

  protected transportError(error: Error): EngineError {
    return toTransportError(error, this.endpoint);
  }
}

/** Collects the body; once complete, the handler itself is the response (one object per call). */
class BufferingHandler extends BaseHandler implements BufferedResponse {
  status = 0;
  body: Buffer = EMPTY;
  private rawHeaders: RawHeaders = null;
  private chunks: Buffer[] = [];
  private length = 0;

  constructor(
    endpoint: Endpoint,
    signal: AbortSignal | undefined,
    private readonly resolve: (response: BufferedResponse) => void,
    private readonly reject: (error: EngineError) => void,
  ) {
    super(endpoint, signal);
  }

  header(name: string): string | undefined {
    return findHeader(this.rawHeaders, name);
  }

  onHeaders(status: number, rawHeaders: RawHeaders): boolean {
    this.status = status;
    this.rawHeaders = rawHeaders;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    this.length += chunk.length;
    return true;
  }

  onComplete(): void {
    this.release();
    const chunks = this.chunks;
    if (chunks.length > 0) this.body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.length);
    this.chunks = [];
    this.resolve(this);
  }

  onError(error: Error): void {
    this.release();
    this.reject(this.transportError(error));
  }
}

const HIGH_WATER_BYTES = 1 << 20;

/** Hands the body out as an async iterator; pauses the socket while more than HIGH_WATER_BYTES wait unread. */
class StreamingHandler extends BaseHandler implements AsyncIterableIterator<Buffer> {
  private queue: Buffer[] = [];
  private head = 0;
  private queuedBytes = 0;
  private paused = false;
  private resume: (() => void) | undefined;
  private ended = false;
  private failure: EngineError | undefined;
  private waiter: { resolve: (result: IteratorResult<Buffer>) => void; reject: (error: unknown) => void } | undefined;
  private settleHeaders:
    | { resolve: (response: StreamingResponse) => void; reject: (error: EngineError) => void }
    | undefined;

  constructor(
    endpoint: Endpoint,
    signal: AbortSignal | undefined,
    resolve: (response: StreamingResponse) => void,
    reject: (error: EngineError) => void,
  ) {
    super(endpoint, signal);
    this.settleHeaders = { resolve, reject };
  }

  onHeaders(status: number, rawHeaders: RawHeaders, resume: () => void): boolean {
    this.resume = resume;
    const settle = this.settleHeaders;
    this.settleHeaders = undefined;
    settle?.resolve({ status, header: headerLookup(rawHeaders), body: this, cancel: () => this.cancel() });
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter.resolve({ value: chunk, done: false });
      return true;
    }
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (this.queuedBytes > HIGH_WATER_BYTES) this.paused = true;
    return !this.paused;
  }

  onComplete(): void {
    this.release();
    this.ended = true;
    this.wake();
  }

  onError(error: Error): void {
    this.release();
    const failure = this.ended ? undefined : this.transportError(error);
    if (this.settleHeaders) {
      const settle = this.settleHeaders;
      this.settleHeaders = undefined;
      settle.reject(failure ?? this.transportError(error));
      return;
    }
    if (this.ended) return;
    this.failure = failure;
    this.wake();
  }

  next(): Promise<IteratorResult<Buffer>> {
    if (this.head < this.queue.length) {
      const value = this.queue[this.head] as Buffer;
      this.queue[this.head++] = EMPTY;
      this.queuedBytes -= value.length;
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
      }
      if (this.paused && this.queuedBytes <= HIGH_WATER_BYTES / 2) {
        this.paused = false;
        this.resume?.();
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<Buffer>> {
    this.cancel();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Buffer> {
    return this;
  }

  private cancel(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue = [];
    this.head = 0;
    this.queuedBytes = 0;
    this.abort(new EngineError('cancelled', 'The response stream was closed'));
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = undefined;
    if (this.failure) waiter.reject(this.failure);
    else waiter.resolve({ value: undefined, done: true });
  }
}


class UpgradeHandler extends BufferingHandler {
  constructor(
    endpoint: Endpoint,
    signal: AbortSignal | undefined,
    private readonly resolveUpgrade: (response: UpgradedConnection | BufferedResponse) => void,
    reject: (error: EngineError) => void,
  ) {
    super(endpoint, signal, resolveUpgrade, reject);
  }

  onUpgrade(status: number, rawHeaders: RawHeaders, socket: Duplex): void {
    this.release();
    this.resolveUpgrade({ status, header: headerLookup(rawHeaders), socket });
  }
}

function abortError(signal: AbortSignal): EngineError {
  const reason: unknown = signal.reason;
  const detail = reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
  return new EngineError('cancelled', `Cancelled${detail}`, { cause: reason });
}
