/**
 * The HTTP transport: one undici Pool per endpoint (Unix socket, tcp, tcp+TLS, or a custom connector such as ssh),
 * kept alive. Requests go through `dispatch` with minimal handlers, the lightest path undici offers: small calls
 * buffer the body in one handler object; streaming calls hand out the body as an async iterable with backpressure;
 * upgrades hand out the raw socket (see response-handlers.ts). How connections open is in connectors.ts.
 */
import { Pool, type Dispatcher } from './undici';
import type { Endpoint } from './endpoint';
import { connectorFor } from './connectors';
import { BufferingHandler, StreamingHandler, UpgradeHandler, abortError, type BaseHandler } from './responseHandlers';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  type BufferedResponse,
  type Connector,
  type StreamingResponse,
  type TransportRequest,
  type UpgradedConnection,
} from './transportTypes';

export * from './transportTypes';

export interface TransportOptions {
  /** Replaces how connections are opened (e.g. a test double or another tunnel). */
  readonly connector?: Connector | undefined;
  /** How long an idle kept-alive connection stays open. */
  readonly keepAliveTimeoutMs?: number | undefined;
}

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
