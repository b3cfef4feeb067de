/**
 * The connection the engine client's groups share: one transport, lazy API version negotiation, and the plumbing
 * every endpoint uses (versioned calls, JSON, streams, upgraded connections, request logging). Each group of the
 * Engine API (api/system.ts, api/containers.ts, api/images.ts, …) holds this one object; `EngineClient` composes the
 * groups. Failures are EngineErrors that show the engine's own message and what to do next.
 */
import type { Duplex } from 'node:stream';
import type { Endpoint } from './endpoint';
import { EngineError, engineErrorFromResponse, isEngineError, type ErrorSubject } from './errors';
import { Transport, type BufferedResponse, type StreamingBody, type TransportOptions, type TransportRequest } from './transport';
import type { CallOptions, PingInfo } from './types';
import { errorMessage } from '../../common/errors';
import { pathForLog } from './query';

/** The highest API version this client speaks. At least 1.44: Docker 29 refuses anything lower. */
export const CLIENT_MAX_API_VERSION = '1.51';
/** What the Go client assumes when a daemon's ping carries no Api-Version. */
const FALLBACK_API_VERSION = '1.24';

export type LogFunction = (line: string) => void;

export interface EngineClientOptions {
  readonly endpoint: Endpoint;
  /** A fixed API version (e.g. '1.41'); no negotiation then. */
  readonly apiVersion?: string | undefined;
  /** Request-level debug lines (method, path, status, time). Never headers, so never X-Registry-Auth. */
  readonly log?: LogFunction | undefined;
  readonly transport?: TransportOptions | undefined;
}

export const JSON_HEADERS: readonly string[] = Object.freeze(['content-type', 'application/json']);
export const TAR_HEADERS: readonly string[] = Object.freeze(['content-type', 'application/x-tar']);
const VERSION_PATTERN = /^\d+\.\d+$/;
/**
 * Waits, logs and events get their headers at once; their bodies run without a timeout and end through the signal.
 * Pulls and pushes wait for the registry before the first byte, so they have no headers timeout either.
 */
export const STREAM_HEADERS_TIMEOUT_MS = 60_000;

/** One call as the layers describe it: a transport request (path without the version prefix) and how to judge it. */
export interface CallSpec extends TransportRequest {
  readonly subject: ErrorSubject;
  /** Also accept 304 Not Modified (start and stop: already in that state). */
  readonly ok304?: boolean;
  /** Carries registry credentials, so a refusal means they are wrong. */
  readonly credentialsSent?: boolean | undefined;
}

export class EngineConnection {
  readonly endpoint: Endpoint;
  private readonly transport: Transport;
  private readonly log: LogFunction | undefined;
  /** `/v1.41`, set once negotiated or fixed. */
  private prefix: string | undefined;
  private apiVersion: string | undefined;
  private negotiation: Promise<string> | undefined;
  private lastPing: PingInfo | undefined;

  constructor(options: EngineClientOptions) {
    this.endpoint = options.endpoint;
    this.log = options.log;
    this.transport = new Transport(options.endpoint, options.transport);
    if (options.apiVersion !== undefined && options.apiVersion !== '') {
      const fixed = options.apiVersion.replace(/^v/, '');
      if (!VERSION_PATTERN.test(fixed)) {
        throw new EngineError('bad-request', `Invalid API version "${options.apiVersion}"`, {
          hint: 'Write it as major.minor, e.g. 1.41, or leave it unset to negotiate',
        });
      }
      this.apiVersion = fixed;
      this.prefix = `/v${fixed}`;
    }
  }

  // ---- version negotiation -------------------------------------------------------------------------------------

  /** The API version in use; pings once to negotiate it. A failed ping is retried on the next call. */
  async negotiatedVersion(options: CallOptions = {}): Promise<string> {
    if (this.apiVersion !== undefined) return this.apiVersion;
    const prefix = await this.negotiate(options.signal);
    return prefix.slice(2);
  }

  private negotiate(signal: AbortSignal | undefined): Promise<string> {
    if (this.prefix !== undefined) return Promise.resolve(this.prefix);
    this.negotiation ??= this.pingFor(signal, 'HEAD').then(
      (info) => {
        const daemon = info.apiVersion ?? FALLBACK_API_VERSION;
        const version = compareVersions(daemon, CLIENT_MAX_API_VERSION) < 0 ? daemon : CLIENT_MAX_API_VERSION;
        this.apiVersion = version;
        this.prefix = `/v${version}`;
        this.log?.(`negotiated API version ${version} (engine ${info.apiVersion ?? 'unknown'}, client ${CLIENT_MAX_API_VERSION})`);
        return this.prefix;
      },
      (error: unknown) => {
        this.negotiation = undefined;
        throw error;
      },
    );
    // Concurrent callers share one ping; if another caller's signal cancelled it, this one tries again.
    return this.negotiation.catch((error: unknown) => {
      if (isEngineError(error, 'cancelled') && signal?.aborted !== true) return this.negotiate(signal);
      throw error;
    });
  }

  async pingFor(signal: AbortSignal | undefined, method: 'HEAD' | 'GET'): Promise<PingInfo> {
    let response = await this.send({ method, path: '/_ping', subject: 'engine', signal });
    if (response.status !== 200 && method === 'HEAD') {
      response = await this.send({ method: 'GET', path: '/_ping', subject: 'engine', signal });
    }
    const info: PingInfo = {
      apiVersion: response.header('api-version'),
      osType: response.header('ostype'),
      server: response.header('server'),
      libpodApiVersion: response.header('libpod-api-version'),
    };
    if (response.status !== 200 && info.apiVersion === undefined) {
      throw engineErrorFromResponse(response.status, response.body, { subject: 'engine', endpoint: this.endpoint.display });
    }
    this.lastPing = info;
    return info;
  }

  /** The last successful ping (engine kind, highest API version), if any. */
  get pingInfo(): PingInfo | undefined {
    return this.lastPing;
  }

  /** Closes kept-alive connections once requests in flight are done. */
  close(): Promise<void> {
    return this.transport.close();
  }

  /** The engine as a user knows it: `Podman` or `Docker`, with the API version spoken. */
  engineName(): string {
    const ping = this.lastPing;
    const product = ping?.server?.startsWith('Libpod/') === true || ping?.libpodApiVersion !== undefined ? 'Podman' : 'Docker Engine';
    return ping?.apiVersion !== undefined ? `${product} (API ${ping.apiVersion})` : product;
  }

  // ---- plumbing ------------------------------------------------------------------------------------------------

  /** A versioned call that asks the engine to hijack the connection; resolves the raw socket, or throws the mapped error. */
  async upgraded(spec: CallSpec): Promise<Duplex> {
    const prefix = this.prefix ?? (await this.negotiate(spec.signal));
    const path = prefix + spec.path;
    const started = this.log ? performance.now() : 0;
    const response = await this.transport.upgrade({ method: spec.method, path, headers: spec.headers, body: spec.body, signal: spec.signal }, 'tcp');
    if (this.log) this.log(`${spec.method} ${pathForLog(path)} → ${response.status} (${(performance.now() - started).toFixed(1)} ms)`);
    if ('socket' in response) return response.socket;
    if (response.status >= 200 && response.status < 300) {
      throw new EngineError('protocol', `The engine answered ${response.status} instead of upgrading the connection`, {
        endpoint: this.endpoint.display,
        hint: 'This engine does not support attaching over an upgraded connection',
      });
    }
    throw engineErrorFromResponse(response.status, response.body, { subject: spec.subject, endpoint: this.endpoint.display });
  }

  async json<T>(spec: CallSpec): Promise<T> {
    const response = await this.call(spec);
    return JSON.parse(response.body.toString('utf8')) as T;
  }

  /** A versioned, buffered call; non-success statuses become EngineErrors. */
  async call(spec: CallSpec): Promise<BufferedResponse> {
    const prefix = this.prefix ?? (await this.negotiate(spec.signal));
    const response = await this.send(spec, prefix);
    const status = response.status;
    if ((status >= 200 && status < 300) || (status === 304 && spec.ok304 === true)) return response;
    throw engineErrorFromResponse(status, response.body, { subject: spec.subject, endpoint: this.endpoint.display });
  }

  private send(spec: CallSpec, prefix = ''): Promise<BufferedResponse> {
    return this.log ? this.sendLogged(spec, prefix, this.log) : this.transport.request(spec, prefix);
  }

  private async sendLogged(spec: CallSpec, prefix: string, log: LogFunction): Promise<BufferedResponse> {
    const started = performance.now();
    try {
      const response = await this.transport.request(spec, prefix);
      log(`${spec.method} ${pathForLog(prefix + spec.path)} → ${response.status} (${(performance.now() - started).toFixed(1)} ms)`);
      return response;
    } catch (error) {
      log(`${spec.method} ${pathForLog(prefix + spec.path)} failed: ${errorMessage(error)}`);
      throw error;
    }
  }

  /**
   * `json` for endpoints an engine may lack (volumes, networks, disk usage, prune): a 404 without the engine's usual
   * "No such …" text means the route itself is missing (an older API version, or Podman's compat layer), which
   * becomes an error naming the engine and the endpoint instead of "not found".
   */
  async endpointJson<T>(spec: CallSpec): Promise<T> {
    try {
      return await this.json<T>(spec);
    } catch (error) {
      throw this.missingEndpointOr(error, spec);
    }
  }

  /** `call` with the missing-route error of `endpointJson`. */
  async endpointCall(spec: CallSpec): Promise<void> {
    try {
      await this.call(spec);
    } catch (error) {
      throw this.missingEndpointOr(error, spec);
    }
  }

  private missingEndpointOr(error: unknown, spec: CallSpec): unknown {
    if (!isEngineError(error, 'not-found') || !MISSING_ROUTE.test(error.engineMessage ?? '')) return error;
    const route = `${spec.method} ${spec.path.split('?')[0] ?? spec.path}`;
    return new EngineError('version', `${this.engineName()} at ${this.endpoint.display} has no ${route} endpoint`, {
      status: error.status,
      engineMessage: error.engineMessage,
      endpoint: this.endpoint.display,
      hint: 'This engine or its API version does not offer it; use a newer engine, or do it with the engine\'s own tools',
      cause: error,
    });
  }

  /**
   * A versioned streaming call; resolves once the headers are in, or throws the mapped error. Unless the spec says
   * otherwise, the headers may take STREAM_HEADERS_TIMEOUT_MS and the body never times out (streams idle for long).
   */
  async openStream(spec: CallSpec): Promise<{ body: StreamingBody; cancel(): void }> {
    const prefix = this.prefix ?? (await this.negotiate(spec.signal));
    const path = prefix + spec.path;
    const started = this.log ? performance.now() : 0;
    let response;
    try {
      response = await this.transport.stream({
        method: spec.method,
        path,
        headers: spec.headers,
        body: spec.body,
        signal: spec.signal,
        headersTimeout: spec.headersTimeout ?? STREAM_HEADERS_TIMEOUT_MS,
        bodyTimeout: spec.bodyTimeout ?? 0,
      });
    } catch (error) {
      this.log?.(`${spec.method} ${pathForLog(path)} failed: ${errorMessage(error)}`);
      throw error;
    }
    this.log?.(`${spec.method} ${pathForLog(path)} → ${response.status}, streaming (${(performance.now() - started).toFixed(1)} ms to headers)`);
    if (response.status >= 200 && response.status < 300) return response;
    const body = await collect(response.body);
    throw engineErrorFromResponse(response.status, body, {
      subject: spec.subject,
      endpoint: this.endpoint.display,
      credentialsSent: spec.credentialsSent,
    });
  }
}

/** dockerd's answer for an unknown route is `page not found`; Podman's is the bare text `Not Found`. */
const MISSING_ROUTE = /^(404 )?(page )?not found$/i;

export function compareVersions(a: string, b: string): number {
  const [aMajor = 0, aMinor = 0] = a.split('.').map(Number);
  const [bMajor = 0, bMinor = 0] = b.split('.').map(Number);
  return aMajor !== bMajor ? aMajor - bMajor : aMinor - bMinor;
}

export async function collect(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

/**
 * The first LIMIT bytes of ITERATOR or a little more (whole chunks), or all of it when it is shorter; ENOUGH may say
 * sooner that what has come suffices. The caller goes on reading ITERATOR after the head unless it ended.
 */
export async function readHead(
  iterator: AsyncIterator<Buffer | string>,
  limit: number,
  enough?: (chunks: readonly Buffer[], length: number) => boolean,
): Promise<{ bytes: Buffer; ended: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < limit) {
    const next = await iterator.next();
    if (next.done === true) return { bytes: Buffer.concat(chunks, length), ended: true };
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    length += chunk.length;
    if (enough?.(chunks, length) === true) break;
  }
  return { bytes: Buffer.concat(chunks, length), ended: false };
}
