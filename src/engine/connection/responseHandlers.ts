/**
 * undici dispatch handlers, one object per request: buffering (small calls), streaming (logs, events, waits, pulls:
 * an async iterator with backpressure) and upgrading (exec and attach: the raw socket). Transport-level failures
 * become EngineErrors here, naming the endpoint and saying what to do next.
 */
import type { Duplex } from 'node:stream';
import type { Endpoint } from './endpoint';
import { EngineError } from './errors';
import { toTransportError } from './connectionErrors';
import type { BufferedResponse, StreamingBody, StreamingResponse, UpgradedConnection } from './transportTypes';

type RawHeaders = Buffer[] | string[] | null;

const EMPTY = Buffer.alloc(0);
/** A buffered answer (a list, an inspect, an error) is at most a few MiB; one past this is refused, not held in memory. */
export const MAX_BUFFERED_BODY_BYTES = 64 * 1024 * 1024;

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
export abstract class BaseHandler {
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
export class BufferingHandler extends BaseHandler implements BufferedResponse {
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
    if (this.length + chunk.length > MAX_BUFFERED_BODY_BYTES) {
      this.chunks = [];
      this.abort(
        new EngineError('protocol', `The engine's answer is larger than ${MAX_BUFFERED_BODY_BYTES / (1024 * 1024)} MiB; Berth stopped reading it`, {
          endpoint: this.endpoint.display,
          hint: 'An engine answers a call like this in a few MiB: check that the host is an engine, or narrow the call (filters)',
        }),
      );
      return false;
    }
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

/**
 * Kept small on purpose: a chunk that waits here while V8 runs two scavenges is promoted, and its buffer is then freed
 * only by a rare full collection. Podman's log chunks are ~2 KiB, so a scavenge comes every ~0.9 MB of output; with
 * 1 MiB queued for a slow reader nearly every chunk was promoted and `berth logs` held 17 MB of dead buffers (peak
 * 63-77 MB RSS). At 256 KiB they die young (58-59 MB; dockerd unchanged at 60-61 MB, throughput unchanged).
 */
const HIGH_WATER_BYTES = 256 * 1024;

/** Hands the body out as an async iterator; pauses the socket while more than HIGH_WATER_BYTES wait unread. */
export class StreamingHandler extends BaseHandler implements StreamingBody {
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

  takeQueued(): Buffer[] {
    if (this.head >= this.queue.length) return [];
    const taken = this.head === 0 ? this.queue : this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    this.queuedBytes = 0;
    if (this.paused) {
      this.paused = false;
      this.resume?.();
    }
    return taken;
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

export class UpgradeHandler extends BufferingHandler {
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

export function abortError(signal: AbortSignal): EngineError {
  const reason: unknown = signal.reason;
  const detail = reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
  return new EngineError('cancelled', `Cancelled${detail}`, { cause: reason });
}
