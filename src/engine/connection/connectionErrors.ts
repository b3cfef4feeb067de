/**
 * Connection-level failures (no socket, refused, permission, TLS, timeouts, aborts) as EngineErrors that name the
 * endpoint and say what to do next.
 */
import type { Endpoint } from './endpoint';
import { EngineError } from './errors';
import { errorMessage } from '../../common/errors';

type ConnectError = { readonly problem: string; readonly hint: string };

const START_ENGINE = 'point DOCKER_HOST (or --host, or the berth.engine.host setting) at a running one';
const JOIN_DOCKER_GROUP = 'Add your user to the docker group (sudo usermod -aG docker $USER, then log in again) or fix the socket\'s permissions';
const CHECK_ADDRESS = 'Check the network and the address in DOCKER_HOST or --host';
const TIMED_OUT: ConnectError = { problem: 'the connection timed out', hint: 'Check that the engine is running and reachable at that address' };
const CLOSED_BY_ENGINE: ConnectError = { problem: 'the engine closed the connection', hint: 'Check that the engine is healthy and try again' };
const CLIENT_CLOSED: ConnectError = { problem: 'the client was closed', hint: 'Create a new client' };
const OVERLOADED = 'The engine may be overloaded or hung; check it and try again';

const CONNECT_ERRORS: Record<string, ConnectError> = {
  ENOENT: { problem: 'there is no socket at that path', hint: `Start the engine (Docker or Podman), or ${START_ENGINE}` },
  ECONNREFUSED: { problem: 'the connection was refused (is the engine running?)', hint: `Start the engine, or ${START_ENGINE}` },
  EACCES: { problem: 'permission denied on the socket', hint: JOIN_DOCKER_GROUP },
  EPERM: { problem: 'the operation is not permitted on the socket', hint: JOIN_DOCKER_GROUP },
  ENOTFOUND: { problem: 'the host name does not resolve', hint: 'Check the host name in DOCKER_HOST, --host or the docker context' },
  EAI_AGAIN: { problem: 'the host name could not be resolved right now', hint: 'Check the network and the host name in DOCKER_HOST, --host or the docker context' },
  EHOSTUNREACH: { problem: 'the host is unreachable', hint: CHECK_ADDRESS },
  ENETUNREACH: { problem: 'the network is unreachable', hint: CHECK_ADDRESS },
  ETIMEDOUT: TIMED_OUT,
  UND_ERR_CONNECT_TIMEOUT: TIMED_OUT,
  ECONNRESET: { problem: 'the engine reset the connection', hint: 'Check that the engine is healthy and try again' },
  EPIPE: CLOSED_BY_ENGINE,
  UND_ERR_SOCKET: CLOSED_BY_ENGINE,
  UND_ERR_CLOSED: CLIENT_CLOSED,
  UND_ERR_DESTROYED: CLIENT_CLOSED,
  UND_ERR_HEADERS_TIMEOUT: { problem: 'the engine did not answer in time', hint: OVERLOADED },
  UND_ERR_BODY_TIMEOUT: { problem: 'the engine stopped sending in the middle of a response', hint: OVERLOADED },
};

/** Maps a connection-level failure to an EngineError that names the endpoint and says what to do next. */
export function toTransportError(error: unknown, endpoint: Endpoint): EngineError {
  if (error instanceof EngineError) return error;
  const code = errorCode(error);
  const message = errorMessage(error);
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
  if (endpoint.kind === 'ssh' && code === 'ENOENT') {
    return new EngineError('unreachable', `Cannot reach the engine at ${endpoint.display}: the ssh command was not found`, {
      endpoint: endpoint.display,
      hint: 'Install an OpenSSH client (ssh on PATH), as the docker CLI needs for ssh:// hosts too',
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
      hint: tlsHint(code, error, endpoint),
      cause: error,
    });
  }
  return new EngineError('unreachable', `Cannot reach the engine at ${endpoint.display}: ${message}`, {
    endpoint: endpoint.display,
    hint: endpoint.kind === 'ssh' ? sshHint(endpoint) : 'Check that the engine is running and that DOCKER_HOST or --host points at it',
    cause: error,
  });
}

const GENERIC_TLS_HINT = 'Check DOCKER_TLS_VERIFY and the certificates in DOCKER_CERT_PATH (ca.pem, cert.pem, key.pem) or the context';

/** Verification failures that mean "this CA did not sign the engine's certificate". */
const UNTRUSTED_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
]);

function tlsHint(code: string | undefined, error: unknown, endpoint: Endpoint): string {
  const where = endpoint.context !== undefined ? `the TLS directory of docker context "${endpoint.context}"` : 'DOCKER_CERT_PATH';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const dialled = new URL(endpoint.origin).hostname;
    const names = certificateNames(error);
    if (names.length > 0) {
      const port = new URL(endpoint.origin).port;
      const alternatives = names.map((name) => `tcp://${name.includes(':') ? `[${name}]` : name}:${port}`).join(' or ');
      return `The engine's certificate is for ${names.join(', ')}: connect to ${alternatives}, or reissue the certificate with ${dialled} among its subject alternative names`;
    }
    return `Connect to a name the engine's certificate lists, or reissue the certificate with ${dialled} among its subject alternative names`;
  }
  if (code !== undefined && UNTRUSTED_CODES.has(code)) {
    const ca = endpoint.tls?.caFile;
    if (ca === undefined) {
      return `The engine's certificate is not signed by a CA this system trusts: put the CA that signed it in ${where} as ca.pem`;
    }
    return `The engine's certificate is not signed by the CA in ${ca}: put the CA that signed it there (${where}), or check that you are connecting to the right engine`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return "The engine's certificate is outside its validity period: reissue it, and check this machine's clock";
  }
  return GENERIC_TLS_HINT;
}

/** The names a server certificate is valid for: its subject alternative names, else its common name. */
function certificateNames(error: unknown): string[] {
  const cert = findProperty(error, 'cert') as { subjectaltname?: unknown; subject?: { CN?: unknown } } | undefined;
  const alt = cert?.subjectaltname;
  if (typeof alt === 'string' && alt !== '') {
    return alt.split(/,\s*/).map((entry) => entry.replace(/^(DNS|IP Address):/, '')).filter((name) => name !== '');
  }
  const cn = cert?.subject?.CN;
  if (typeof cn === 'string' && cn !== '') return [cn];
  // Without the certificate object, node's own reason lists the names ("… is not in the cert's list: a, b").
  const reason = error instanceof Error ? /cert's list: (.*)$/.exec(error.message)?.[1] : undefined;
  return reason ? reason.split(/,\s*/) : [];
}

/** What a user can try in a terminal to see why ssh fails: the same login and a docker command on the far side. */
function sshHint(endpoint: Endpoint): string {
  const target = endpoint.ssh;
  if (!target) return 'Check that the engine is running and that DOCKER_HOST or --host points at it';
  const port = target.port !== undefined ? `-p ${target.port} ` : '';
  const login = `${target.user !== undefined ? `${target.user}@` : ''}${target.host}`;
  return `Check that \`ssh ${port}${login} docker version\` works in a terminal: it must log in without a password prompt and find docker on the far side`;
}

function findProperty(error: unknown, name: string): unknown {
  for (let current: unknown = error, depth = 0; typeof current === 'object' && current !== null && depth < 5; depth++) {
    const value = (current as Record<string, unknown>)[name];
    if (value !== undefined) return value;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error ? errorCode(cause) : undefined;
}
