/**
 * Connection-level failures (no socket, refused, permission, TLS, timeouts, aborts) as EngineErrors that name the
 * endpoint and say what to do next.
 */
import type { Endpoint } from './endpoint';
import { EngineError } from './errors';

const CONNECT_ERRORS: Record<string, { problem: string; hint: string }> = {
  ENOENT: {
    problem: 'there is no socket at that path',
    hint: 'Start the engine (Docker or Podman), or point DOCKER_HOST (or --host, or the berth.engine.host setting) at a running one',
  },
  ECONNREFUSED: {
    problem: 'the connection was refused (is the engine running?)',
    hint: 'Start the engine, or point DOCKER_HOST (or --host, or the berth.engine.host setting) at a running one',
  },
  EACCES: {
    problem: 'permission denied on the socket',
    hint: 'Add your user to the docker group (sudo usermod -aG docker $USER, then log in again) or fix the socket\'s permissions',
  },
  EPERM: {
    problem: 'the operation is not permitted on the socket',
    hint: 'Add your user to the docker group (sudo usermod -aG docker $USER, then log in again) or fix the socket\'s permissions',
  },
  ENOTFOUND: {
    problem: 'the host name does not resolve',
    hint: 'Check the host name in DOCKER_HOST, --host or the docker context',
  },
  EAI_AGAIN: {
    problem: 'the host name could not be resolved right now',
    hint: 'Check the network and the host name in DOCKER_HOST, --host or the docker context',
  },
  EHOSTUNREACH: { problem: 'the host is unreachable', hint: 'Check the network and the address in DOCKER_HOST or --host' },
  ENETUNREACH: { problem: 'the network is unreachable', hint: 'Check the network and the address in DOCKER_HOST or --host' },
  ETIMEDOUT: { problem: 'the connection timed out', hint: 'Check that the engine is running and reachable at that address' },
  UND_ERR_CONNECT_TIMEOUT: {
    problem: 'the connection timed out',
    hint: 'Check that the engine is running and reachable at that address',
  },
  ECONNRESET: { problem: 'the engine reset the connection', hint: 'Check that the engine is healthy and try again' },
  EPIPE: { problem: 'the engine closed the connection', hint: 'Check that the engine is healthy and try again' },
  UND_ERR_SOCKET: { problem: 'the engine closed the connection', hint: 'Check that the engine is healthy and try again' },
  UND_ERR_CLOSED: { problem: 'the client was closed', hint: 'Create a new client' },
  UND_ERR_DESTROYED: { problem: 'the client was closed', hint: 'Create a new client' },
  UND_ERR_HEADERS_TIMEOUT: {
    problem: 'the engine did not answer in time',
    hint: 'The engine may be overloaded or hung; check it and try again',
  },
  UND_ERR_BODY_TIMEOUT: {
    problem: 'the engine stopped sending in the middle of a response',
    hint: 'The engine may be overloaded or hung; check it and try again',
  },
};

/** Maps a connection-level failure to an EngineError that names the endpoint and says what to do next. */
export function toTransportError(error: unknown, endpoint: Endpoint): EngineError {
  if (error instanceof EngineError) return error;
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'UND_ERR_ABORTED' || (error instanceof Error && error.name === 'AbortError')) {
    return new EngineError('cancelled', 'Cancelled', { endpoint: endpoint.display, cause: error });
  }
  const closedEarly = code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
  if (closedEarly && endpoint.tls && (endpoint.tls.certFile === undefined || endpoint.tls.keyFile === undefined)) {
    return new EngineError('unreachable', `Cannot reach the engine at ${endpoint.display}: it closed the TLS connection`, {
      endpoint: endpoint.display,
      hint: 'It may require a client certificate: put cert.pem and key.pem beside ca.pem in DOCKER_CERT_PATH (or the context\'s TLS directory)',
      cause: error,
    });
  }
  const known = code !== undefined ? CONNECT_ERRORS[code] : undefined;
  if (known) {
    return new EngineError('unreachable', `Cannot reach the engine at ${endpoint.display}: ${known.problem}`, {
      endpoint: endpoint.display,
      hint: known.hint,
      cause: error,
    });
  }
  if ((code !== undefined && /^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code)) || /SSL|TLS/.test(message)) {
    return new EngineError('unreachable', `Cannot reach the engine at ${endpoint.display}: TLS failed (${message})`, {
      endpoint: endpoint.display,
      hint: 'Check DOCKER_TLS_VERIFY and the certificates in DOCKER_CERT_PATH (ca.pem, cert.pem, key.pem) or the context',
      cause: error,
    });
  }
  return new EngineError('unreachable', `Cannot reach the engine at ${endpoint.display}: ${message}`, {
    endpoint: endpoint.display,
    hint: 'Check that the engine is running and that DOCKER_HOST or --host points at it',
    cause: error,
  });
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error ? errorCode(cause) : undefined;
}
