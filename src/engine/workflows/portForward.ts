/**
 * A port forward: Berth listens on `127.0.0.1:LOCAL` and carries each accepted connection through the engine API into
 * the container's network namespace (see forwardRelay.ts). Bytes flow both ways with backpressure; a half-close on
 * either side is passed on (the local client's FIN shuts the relay's stdin, which `nc` turns into a FIN to the port),
 * and closing one side closes the other. An idle forward makes no engine request and holds no timer: the only thing
 * open is the relay's event stream, which ends the forward when the container stops.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { EngineClient } from '../api';
import { FrameJoiner, EngineError } from '../connection';
import { ForwardRelay, type RelayEnd, type RelayOptions } from './forwardRelay';
import type { PortForwardSpec } from './portSpec';

export const FORWARD_HOST = '127.0.0.1';
const MAX_STDERR_BYTES = 4096;

export interface PortForwardHooks {
  /** A local connection was accepted (kubectl's "Handling connection for PORT"). */
  readonly onConnection?: ((forward: PortForward) => void) | undefined;
  /** A connection could not be carried (nothing listens on the port, the engine refused the exec). */
  readonly onConnectionError?: ((error: Error, forward: PortForward) => void) | undefined;
}

export class PortForward {
  private readonly sockets = new Set<Socket>();
  private endReason: RelayEnd | undefined;
  private readonly unsubscribe: () => void;
  private readonly endListeners = new Set<(end: RelayEnd) => void>();
  /** Resolves once, when the forward ends: stopped by the caller, or the container stopped. */
  readonly ended: Promise<RelayEnd>;
  /** Connections accepted so far. */
  accepted = 0;

  private constructor(
    private readonly server: Server,
    readonly relay: ForwardRelay,
    readonly localPort: number,
    readonly containerPort: number,
    private readonly hooks: PortForwardHooks,
  ) {
    this.ended = new Promise((resolve) => this.endListeners.add(resolve));
    server.on('connection', (socket) => this.carry(socket));
    this.unsubscribe = relay.onEnd((end) => this.finish(end));
  }

  /** Listens on 127.0.0.1:spec.localPort (0: a free port) for connections to spec.containerPort over `relay`. */
  static async listen(relay: ForwardRelay, spec: PortForwardSpec, hooks: PortForwardHooks = {}): Promise<PortForward> {
    if (!Number.isInteger(spec.containerPort) || spec.containerPort < 1 || spec.containerPort > 65535) {
      throw new EngineError('bad-request', `The container port ${spec.containerPort} is outside 1–65535`, { hint: 'Give a port from 1 to 65535' });
    }
    // allowHalfOpen: the local client's FIN must not close the answer still coming back.
    const server = createServer({ allowHalfOpen: true, noDelay: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: FORWARD_HOST, port: spec.localPort, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    }).catch((error: unknown) => {
      throw listenError(error, spec.localPort);
    });
    const address = server.address();
    const localPort = typeof address === 'object' && address !== null ? address.port : spec.localPort;
    return new PortForward(server, relay, localPort, spec.containerPort, hooks);
  }

  get address(): string {
    return `${FORWARD_HOST}:${this.localPort}`;
  }

  /** Connections open now. */
  get activeConnections(): number {
    return this.sockets.size;
  }

  get endedWith(): RelayEnd | undefined {
    return this.endReason;
  }

  /** Calls `listener` once when the forward ends (at once if it has). */
  onEnd(listener: (end: RelayEnd) => void): void {
    if (this.endReason) listener(this.endReason);
    else this.endListeners.add(listener);
  }

  /** Stops listening and closes every connection. The relay stays open for the caller to close. */
  close(): void {
    this.finish({ reason: 'closed', message: `Stopped forwarding ${this.address} -> ${this.containerPort}` });
  }

  private finish(end: RelayEnd): void {
    if (this.endReason) return;
    this.endReason = end;
    this.unsubscribe();
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    for (const listener of this.endListeners) listener(end);
    this.endListeners.clear();
  }

  private carry(local: Socket): void {
    if (this.endReason) {
      local.destroy();
      return;
    }
    this.accepted++;
    this.sockets.add(local);
    local.pause();
    const closed = new AbortController();
    local.on('close', () => {
      this.sockets.delete(local);
      closed.abort();
    });
    local.on('error', () => local.destroy());
    this.hooks.onConnection?.(this);
    this.relay.connect(this.containerPort, closed.signal).then(
      (upstream) => this.pipe(local, upstream),
      (error: unknown) => {
        local.destroy();
        if (!closed.signal.aborted || !(error instanceof EngineError && error.kind === 'cancelled')) {
          this.hooks.onConnectionError?.(error instanceof Error ? error : new Error(String(error)), this);
        }
      },
    );
  }

  private pipe(local: Socket, upstream: Duplex): void {
    if (local.destroyed) {
      upstream.destroy();
      return;
    }
    let answered = false;
    let stderr = '';
    const frames = new FrameJoiner();
    local.on('drain', () => upstream.resume());
    upstream.on('data', (data: Buffer) => {
      try {
        frames.push(data);
        for (const chunk of frames.take()) {
          if (chunk.stream === 'stderr') {
            if (stderr.length < MAX_STDERR_BYTES) stderr += chunk.data.toString('utf8');
            continue;
          }
          answered = true;
          if (!local.write(chunk.data)) upstream.pause();
        }
      } catch (error) {
        this.hooks.onConnectionError?.(error instanceof Error ? error : new Error(String(error)), this);
        upstream.destroy();
        local.destroy();
      }
    });
    upstream.on('end', () => {
      // `nc` ended: the port closed its side (pass the FIN on), or nothing was listening (say so, and drop the client).
      if (!answered && stderr.trim() !== '') {
        this.hooks.onConnectionError?.(this.relay.refusal(this.containerPort, stderr), this);
        local.destroy();
        return;
      }
      local.end();
    });
    upstream.on('error', () => local.destroy());
    upstream.on('close', () => {
      if (!local.writableEnded) local.destroy();
    });
    upstream.on('drain', () => local.resume());
    local.on('data', (data: Buffer) => {
      if (!upstream.write(data)) local.pause();
    });
    // The client's half-close: shut the exec's stdin; `nc` passes the FIN on and keeps reading the answer.
    local.on('end', () => upstream.end());
    local.on('close', () => upstream.destroy());
    local.resume();
  }
}

function listenError(error: unknown, port: number): EngineError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new EngineError('conflict', `Local port ${port} is already in use on ${FORWARD_HOST}`, {
      hint: 'Choose another local port, or 0 (or :PORT) for a free one',
      cause: error,
    });
  }
  if (code === 'EACCES') {
    return new EngineError('bad-request', `Local port ${port} needs privileges Berth does not have`, {
      hint: 'Choose a local port above 1023, or 0 (or :PORT) for a free one',
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new EngineError('server', `Could not listen on ${FORWARD_HOST}:${port}: ${message}`, { cause: error });
}

export interface ForwardSession {
  readonly relay: ForwardRelay;
  readonly forwards: readonly PortForward[];
  /** Resolves once: the container stopped, the engine was lost, or close() was called. */
  readonly ended: Promise<RelayEnd>;
  /** Stops every forward and the relay (its helper removed). */
  close(): Promise<void>;
}

/**
 * Forwards each spec to CONTAINER over one relay. All or nothing: if one port cannot be listened on, the others
 * are closed and the helper (if any) removed before the error is thrown.
 */
export async function forwardPorts(
  client: EngineClient,
  container: string,
  specs: readonly PortForwardSpec[],
  options: RelayOptions & PortForwardHooks = {},
): Promise<ForwardSession> {
  const relay = await ForwardRelay.open(client, container, options);
  const forwards: PortForward[] = [];
  try {
    for (const spec of specs) forwards.push(await PortForward.listen(relay, spec, options));
  } catch (error) {
    for (const forward of forwards) forward.close();
    await relay.close();
    throw error;
  }
  return {
    relay,
    forwards,
    ended: relay.ended,
    close: async () => {
      for (const forward of forwards) forward.close();
      await relay.close();
    },
  };
}
