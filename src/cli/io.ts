/**
 * What a command may touch: its two output streams, its input, the environment, the clock, the process's signals,
 * the engine client and the credentials. `src/cli.ts` provides the real ones; nothing here is loaded before use.
 */
import type { CredentialLookup, Endpoint, EngineClient } from '../engine';

/** One of berth's output streams, with the backpressure and the failure of the stream underneath. */
export interface OutputStream {
  /** For berth's own short lines: written in order, never awaited. */
  write(text: string): void;
  /**
   * For container output: resolves once the stream can take more, so a slow reader holds the engine's stream back
   * instead of berth buffering without bound. Undefined when it can take more at once.
   */
  deliver(data: Uint8Array): Promise<void> | undefined;
  /** Set once a write failed (a closed pipe, a full disk); from then on writes are dropped. */
  readonly failure: NodeJS.ErrnoException | undefined;
  /** Aborted when a write fails. */
  readonly failed: AbortSignal;
}

export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** What `-i` hands to the container. */
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  readonly env: NodeJS.ProcessEnv;
  readonly stderrIsTerminal: boolean;
  /** The size of the terminal berth's stdout is, or undefined when it is not one. */
  readonly terminalSize: () => TerminalSize | undefined;
  /** Milliseconds since the epoch; tables show ages relative to it. */
  readonly now: () => number;
}

/** The signals a running container may receive through berth (Ctrl-C is the `signal`/`interrupt` below). */
export type ForwardedSignal = 'SIGTERM' | 'SIGHUP' | 'SIGQUIT';

export interface ProcessSignals {
  /**
   * Takes over SIGTERM, SIGHUP and SIGQUIT until the returned function is called; without a taker berth exits on
   * them as any process does (128 + the signal's number).
   */
  forward(handler: (signal: ForwardedSignal) => void): () => void;
  /** Calls `handler` on SIGWINCH until the returned function is called. */
  onResize(handler: () => void): () => void;
}

export interface CommandContext {
  readonly io: CliIo;
  /** Aborted by Ctrl-C (SIGINT), and when berth's output can no longer be written. */
  readonly signal: AbortSignal;
}

export interface CommandDeps extends CommandContext {
  /** The engine client for --host / DOCKER_HOST / the context, made on first use and closed by the caller. */
  readonly client: () => EngineClient;
  /** Where that client would connect, resolved without creating it (for commands that hand the endpoint on). */
  readonly endpoint: () => Endpoint;
  /** Registry credentials from the docker configuration. */
  readonly credentials: () => CredentialLookup;
  readonly signals: ProcessSignals;
  /** Berth's own version. */
  readonly version: string;
}
