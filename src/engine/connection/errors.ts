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

/** dockerd's and Podman's words for refusing to remove a running container without force. */
const RUNNING_REMOVE_REFUSED = /cannot remove a running container|cannot remove container .* as it is running|cannot be removed without force/;

/** The engine refused to remove a container because it runs (the caller did not ask for force). */
export function isRunningRemoveRefusal(error: unknown): error is EngineError {
  return isEngineError(error, 'conflict') && RUNNING_REMOVE_REFUSED.test((error.engineMessage ?? error.message).toLowerCase());
}

/** Maps an HTTP status to the error kind callers branch on. */
export function kindForStatus(status: number): EngineErrorKind {
  if (status === 404) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 400) return 'bad-request';
  return 'server';
}

/** What a failed call was about, so the error can say what to do next. */
export type ErrorSubject = 'container' | 'image' | 'exec' | 'pull' | 'push' | 'volume' | 'network' | 'engine';

export interface ResponseErrorContext {
  readonly subject: ErrorSubject;
  readonly endpoint?: string | undefined;
  /** The call carried registry credentials (X-Registry-Auth): a refusal then means they are wrong. */
  readonly credentialsSent?: boolean | undefined;
}

/** Go's answer on a TLS port to a request sent as plain HTTP. */
const PLAIN_HTTP_TO_TLS = 'client sent an http request to an https server';
/** dockerd (500) and Podman (404) when a short id matches several containers. */
const AMBIGUOUS_PREFIX = /multiple ids found with provided prefix|more than one result for container/;
const REGISTRY_REFUSED = /unauthori[sz]ed|authentication required|no basic auth credentials|access denied|denied:|incorrect username or password/;

/** What to do when the registry refused credentials that were sent. */
export const WRONG_CREDENTIALS_HINT = 'The registry refused these credentials: check the user name and password, then sign in again';

/**
 * Builds the EngineError for an HTTP error response: the engine's own message (`{"message": ...}`, or the body
 * text) and a hint for what to do next, chosen from the status, the subject and the engine's words.
 */
export function engineErrorFromResponse(status: number, body: Buffer | string, context: ResponseErrorContext): EngineError {
  const engineMessage = engineMessageOf(status, body);
  const lower = engineMessage.toLowerCase();
  if (lower.startsWith(PLAIN_HTTP_TO_TLS)) return plainHttpToTls(status, engineMessage, context.endpoint);
  let kind = kindForStatus(status);
  if (status === 400 && /client version .* is too (new|old)/.test(lower)) kind = 'version';
  // Podman answers some conflicts (a container name in use) with 500.
  if (kind === 'server' && /name .* is already in use/.test(lower)) kind = 'conflict';
  // Podman 4.3 answers an inspect of a container removed a moment before with 500 "container <id> does not exist in
  // database: no such container": it is gone, as a 404 says.
  if (kind === 'server' && /does not exist in database: no such (container|pod)/.test(lower)) kind = 'not-found';
  // Podman answers the remove of a running container with 500 "... cannot be removed without force": a conflict with
  // the container's state, as dockerd's 409 says.
  if (kind === 'server' && RUNNING_REMOVE_REFUSED.test(lower)) kind = 'conflict';
  if (AMBIGUOUS_PREFIX.test(lower)) kind = 'bad-request';
  if ((context.subject === 'pull' || context.subject === 'push') && kind === 'server') {
    if (REGISTRY_REFUSED.test(lower)) kind = 'unauthorized';
    else if (/manifest unknown|not found|does not exist/.test(lower)) kind = 'not-found';
  }
  const hint = kind === 'unauthorized' && context.credentialsSent === true ? WRONG_CREDENTIALS_HINT : hintFor(kind, lower, context.subject);
  return new EngineError(kind, withoutFinalPeriod(withoutRepetition(engineMessage)), {
    status,
    engineMessage,
    hint,
    endpoint: context.endpoint,
  });
}

function plainHttpToTls(status: number, engineMessage: string, endpoint: string | undefined): EngineError {
  const where = endpoint !== undefined ? `the engine at ${endpoint}` : 'the engine';
  return new EngineError('unreachable', `Cannot reach ${where}: it speaks TLS, and this client sent plain HTTP (the engine said "${withoutFinalPeriod(engineMessage)}")`, {
    status,
    engineMessage,
    endpoint,
    hint: 'Set DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH to the directory holding ca.pem, cert.pem and key.pem (or use a docker context with TLS)',
  });
}

/** dockerd sometimes wraps a message in itself ("no such image: x: No such image: x"); show it once. */
export function withoutRepetition(message: string): string {
  for (let at = message.indexOf(': '); at !== -1; at = message.indexOf(': ', at + 1)) {
    const head = message.slice(0, at);
    const tail = message.slice(at + 2);
    if (head.toLowerCase() === withoutFinalPeriod(tail).toLowerCase()) return tail;
  }
  return message;
}

function engineMessageOf(status: number, body: Buffer | string): string {
  const text = (typeof body === 'string' ? body : body.toString('utf8')).trim();
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as { message?: unknown };
      if (typeof parsed.message === 'string' && parsed.message.trim() !== '') return parsed.message.trim();
    } catch {
      // Not JSON after all: show the text itself.
    }
  }
  return text !== '' ? text.slice(0, 2000) : `The engine answered HTTP ${status} with no message`;
}

function withoutFinalPeriod(text: string): string {
  return text.endsWith('.') ? text.slice(0, -1) : text;
}

/** Volumes and networks: never a registry or container hint for them. */
function volumeOrNetworkHint(kind: EngineErrorKind, lower: string, subject: 'volume' | 'network'): string | undefined {
  if (lower.includes('pre-defined network') || lower.includes('default network')) return 'The engine keeps its predefined networks; remove only networks you created';
  switch (kind) {
    case 'not-found':
      return `Check the ${subject} name (berth ${subject} ls lists them); it may have been removed`;
    case 'conflict':
      return subject === 'volume' ? 'Remove the containers that use it first' : 'Disconnect the containers attached to it first';
    case 'bad-request':
      return 'Names must start with a letter or digit and use only letters, digits, _ . and -';
    case 'server':
      return lower.includes('names must match') ? 'Names must start with a letter or digit and use only letters, digits, _ . and -' : "This is the engine's own failure; check its log, then try again";
    default:
      return undefined;
  }
}

function hintFor(kind: EngineErrorKind, lower: string, subject: ErrorSubject): string | undefined {
  // dockerd answers 404 "network x not found", Podman 500 "unable to find network ...: network not found": either
  // way the network name is what to fix, not a container id, and not the engine.
  if (/\bnetwork\b.*\bnot found\b/.test(lower)) return 'Check the network name: give an existing network, or a mode such as none or host';
  // These name what to fix whichever call met them: `network connect NET CTR` and `cp` reach a missing container or
  // folder, `volume create --driver` a missing plugin.
  if (lower.startsWith('no such container')) return 'Check the container id or name; the container may have been removed';
  if (/could not find the file .* in container/.test(lower)) return 'A folder on that path does not exist in the container: create it first, or copy to an existing folder';
  if (/\bnot a directory\b/.test(lower)) return 'A part of that path is a file in the container, not a folder: check the path';
  if (/error looking up volume plugin|plugin "[^"]*" not found/.test(lower)) {
    return "No volume plugin of that name is installed in the engine: check the driver name, or leave --driver out for the engine's local driver";
  }
  if (subject === 'volume' || subject === 'network') return volumeOrNetworkHint(kind, lower, subject);
  switch (kind) {
    case 'version':
      return 'Leave the API version unset so Berth negotiates one, or set a version the engine supports';
    case 'not-found':
      if (subject === 'pull') return 'Check the image name and tag, and sign in if the repository is private';
      if (subject === 'push') return 'Tag the image with this name first, or check the name';
      if (subject === 'image' || lower.includes('no such image') || lower.includes('image not known')) return 'Pull it first, or check the image name and tag';
      if (subject === 'exec') return 'The exec session is gone; start a new one';
      return 'Check the container id or name; the container may have been removed';
    case 'conflict':
      if (lower.includes('is already in use')) return 'Choose another name or remove the existing container';
      if (RUNNING_REMOVE_REFUSED.test(lower) || lower.includes('stop the container')) {
        return 'Stop it first, or remove it with force';
      }
      if (lower.includes('is not running')) return 'Start the container first';
      if (lower.includes('is using its referenced image') || lower.includes('image is being used')) {
        return 'Remove the containers that use the image first, or remove it with force';
      }
      if (lower.includes('is paused')) return 'Unpause the container first';
      return 'Check the current state and try again';
    case 'unauthorized':
      return 'Sign in to the registry (Berth: Sign In to Registry, or docker login) and try again';
    case 'bad-request':
      if (AMBIGUOUS_PREFIX.test(lower)) return "Give more characters of the id, or use the container's name";
      return 'Check the values given';
    case 'server':
      return "This is the engine's own failure; check its log, then try again";
    default:
      return undefined;
  }
}

/**
 * CALL, tried again while the engine refuses it because the same operation already runs (dockerd allows one disk
 * usage and one build-cache prune at a time): up to ATTEMPTS tries, STEP_MS longer between each, never once SIGNAL
 * has aborted. Any other failure is thrown at once.
 */
export async function retryWhileBusy<T>(call: () => Promise<T>, busy: RegExp, options: { attempts: number; stepMs: number; signal?: AbortSignal | undefined }): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= options.attempts || options.signal?.aborted === true || !isEngineError(error) || !busy.test(error.engineMessage ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, options.stepMs * attempt));
    }
  }
}
