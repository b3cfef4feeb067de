/**
 * The one error type of the engine client. Every failing engine call becomes an EngineError that
 * carries the HTTP status (when there was a response), the engine's own message, and a kind the
 * callers branch on. `message` is what a user should read: the engine's words plus what to do next.
 */
export type EngineErrorKind =
  | 'not-found'
  | 'conflict'
  | 'bad-request'
  | 'unauthorized'
  | 'unreachable'
  | 'version'
  | 'protocol'
  | 'server'
  | 'cancelled';

export interface EngineErrorOptions {
  readonly status?: number | undefined;
  /** The engine's own message, verbatim (`{"message": ...}` or an in-band stream error). */
  readonly engineMessage?: string | undefined;
  /** What the user can do next, appended to the message. */
  readonly hint?: string | undefined;
  /** The endpoint, e.g. `unix:///run/docker.sock`; never carries credentials. */
  readonly endpoint?: string | undefined;
  readonly cause?: unknown;
}

export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly kind: EngineErrorKind;
  readonly status: number | undefined;
  readonly engineMessage: string | undefined;
  readonly hint: string | undefined;
  readonly endpoint: string | undefined;

  constructor(kind: EngineErrorKind, message: string, options: EngineErrorOptions = {}) {
    super(options.hint ? `${message}. ${options.hint}` : message, { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.engineMessage = options.engineMessage;
    this.hint = options.hint;
    this.endpoint = options.endpoint;
  }
}

export function isEngineError(value: unknown, kind?: EngineErrorKind): value is EngineError {
  return value instanceof EngineError && (kind === undefined || value.kind === kind);
}

/** Maps an HTTP status to the error kind callers branch on. */
export function kindForStatus(status: number): EngineErrorKind {
  if (status === 404) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 400) return 'bad-request';
  return 'server';
}
