// An in-process engine on a temporary Unix socket, for the faults a real dockerd cannot produce on demand: a
// response that stalls after its headers, a stream the engine drops mid-way. It speaks the real wire format:
// Api-Version/Ostype/Server headers on every response, HEAD and GET /_ping, `{"message"}` error bodies, chunked
// bodies, 8-byte multiplexed log frames and one-JSON-object-per-line streams. Plain Node: nothing from src/.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FAKE_API_VERSION = '1.41';

/** Handles a request and returns true, or returns false to leave it to the next route (then a 404). */
export type FakeRoute = (request: FakeRequest, response: ServerResponse) => boolean;
/** Handles a request that asks to hijack the connection (exec start, attach), as FakeRoute; `socket` is the raw connection. */
export type FakeUpgradeRoute = (request: FakeRequest, socket: Duplex) => boolean;

export interface FakeRequest {
  readonly method: string;
  /** The path without the `/vX.Y` prefix and without the query, e.g. `/containers/abc/logs`. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The version prefix the client sent, e.g. `1.41`; undefined when it sent none. */
  readonly version: string | undefined;
  readonly headers: IncomingMessage['headers'];
}

export interface FakeEngine {
  /** unix:// URL of the fake. */
  readonly host: string;
  readonly socketPath: string;
  /** Every request seen, `METHOD /path` without the version prefix. */
  readonly seen: string[];
  /** Responses that sent their headers and then stalled, still open. */
  readonly stalledCount: number;
  /** Resolves once `count` responses in total have stalled (headers sent, nothing more). */
  stalled(count: number): Promise<void>;
  close(): Promise<void>;
}

const ENGINE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Api-Version': FAKE_API_VERSION,
  Ostype: 'linux',
  Server: 'Docker/20.10.24 (linux)',
  'Docker-Experimental': 'false',
});

/** Writes the status and the engine's headers; the body follows chunked unless a length is given. */
export function writeEngineHead(response: ServerResponse, status: number, contentType?: string): void {
  const headers: Record<string, string> = { ...ENGINE_HEADERS };
  if (contentType !== undefined) headers['Content-Type'] = contentType;
  response.writeHead(status, headers);
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  writeEngineHead(response, status, 'application/json');
  response.end(`${JSON.stringify(value)}\n`);
}

export function sendError(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, { message });
}

/** One line of a JSON stream (events, pull progress), terminated the way dockerd does. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\r\n`;
}

/** A container event in the engine's shape. */
export function containerEvent(action: string, id: string, timeNano: bigint): Record<string, unknown> {
  return {
    status: action,
    id,
    from: 'busybox',
    Type: 'container',
    Action: action,
    Actor: { ID: id, Attributes: { image: 'busybox', name: `fake-${id.slice(0, 6)}` } },
    scope: 'local',
    time: Number(timeNano / 1_000_000_000n),
    timeNano: Number(timeNano),
  };
}

/**
 * dockerd's answer to a hijacked exec start without a TTY: 101, then FRAMES, then the end of the stream (the process
 * exited).
 */
export function answerUpgrade(socket: Duplex, frames: readonly Buffer[]): void {
  socket.write('HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.multiplexed-stream\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n');
  for (const frame of frames) socket.write(frame);
  socket.end();
}

/** Starts the fake; `routes` are tried in order after the built-in `_ping`, `upgrades` for requests that hijack. */
export async function startFakeEngine(routes: readonly FakeRoute[], upgrades: readonly FakeUpgradeRoute[] = []): Promise<FakeEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-fake-engine-'));
  const socketPath = join(dir, 'engine.sock');
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  let stalledTotal = 0;
  const openStalls = new Set<ServerResponse>();
  const stallWaiters: Array<{ count: number; resolve: () => void }> = [];

  const noteStall = (response: ServerResponse): void => {
    stalledTotal += 1;
    openStalls.add(response);
    response.once('close', () => openStalls.delete(response));
    for (const waiter of stallWaiters.splice(0)) {
      if (stalledTotal >= waiter.count) waiter.resolve();
      else stallWaiters.push(waiter);
    }
  };

  const describe = (request: IncomingMessage): FakeRequest => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const match = /^\/v(\d+\.\d+)(\/.*)$/.exec(url.pathname);
    const fake: FakeRequest = {
      method: request.method ?? 'GET',
      path: match ? (match[2] as string) : url.pathname,
      query: url.searchParams,
      version: match ? match[1] : undefined,
      headers: request.headers,
    };
    seen.push(`${fake.method} ${fake.path}`);
    return fake;
  };
  const server = createServer((request, response) => {
    const fake = describe(request);
    // Drain any request body so the connection stays usable.
    request.resume();
    response.on('stall', () => noteStall(response));
    if (fake.path === '/_ping') {
      writeEngineHead(response, 200, 'text/plain; charset=utf-8');
      response.end(fake.method === 'HEAD' ? undefined : 'OK');
      return;
    }
    if (routes.some((route) => route(fake, response))) return;
    sendError(response, 404, `page not found: ${fake.method} ${fake.path}`);
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    const fake = describe(request);
    if (upgrades.some((route) => route(fake, socket))) return;
    const body = jsonLine({ message: `page not found: ${fake.method} ${fake.path}` });
    socket.end(`HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });

  return {
    host: `unix://${socketPath}`,
    socketPath,
    seen,
    get stalledCount() {
      return openStalls.size;
    },
    stalled(count) {
      if (stalledTotal >= count) return Promise.resolve();
      return new Promise((resolve) => stallWaiters.push({ count, resolve }));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Sends the status and headers (and any `first` bytes, flushed as one chunk) and then nothing more: the engine
 * hangs with the connection open. Marks the response as stalled for `FakeEngine.stalled`.
 */
export function stallAfterHeaders(response: ServerResponse, status: number, contentType: string, first?: string | Buffer): void {
  writeEngineHead(response, status, contentType);
  response.flushHeaders();
  if (first !== undefined) response.write(first);
  response.emit('stall');
}

/**
 * GET /events played by the test: each request's `since` is pushed onto STREAMS, the headers are sent, and PLAY
 * answers it (events, an end, or nothing more) with its index from 0.
 */
export function playedEventsRoute(streams: Array<{ since: string | null }>, play: (index: number, response: ServerResponse) => void): FakeRoute {
  return (request, response) => {
    if (request.path !== '/events') return false;
    streams.push({ since: request.query.get('since') });
    writeEngineHead(response, 200, 'application/json');
    response.flushHeaders();
    play(streams.length - 1, response);
    return true;
  };
}

/** Accepts the request and never answers, not even headers. */
export function stallBeforeHeaders(response: ServerResponse): void {
  response.emit('stall');
}

/**
 * A quiet engine for the workbench: a version, an events stream that stays open with nothing on it, and no images,
 * networks or volumes. `containers` answers `/containers/json` (now or later); every other path goes to the next route.
 */
export function quietEngineRoute(containers: (response: ServerResponse) => void): FakeRoute {
  return (request, response) => {
    switch (request.path) {
      case '/version':
        sendJson(response, 200, { Version: '24.0.9', ApiVersion: FAKE_API_VERSION, MinAPIVersion: '1.12', Os: 'linux', Arch: 'amd64', Components: [] });
        return true;
      case '/events':
        stallAfterHeaders(response, 200, 'application/json');
        return true;
      case '/containers/json':
        containers(response);
        return true;
      case '/images/json':
      case '/networks':
        sendJson(response, 200, []);
        return true;
      case '/volumes':
        sendJson(response, 200, { Volumes: [], Warnings: null });
        return true;
      default:
        return false;
    }
  };
}
