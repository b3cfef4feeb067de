/**
 * How a connection to an endpoint is opened: a Unix socket, tcp, tcp with TLS client certificates (read once, when
 * the transport is made), or an ssh child process speaking HTTP over its stdio.
 */
import { readFileSync } from 'node:fs';
import { buildConnector } from './undici';
import type { Endpoint } from './endpoint';
import { EngineError } from './errors';
import { sshConnector } from './ssh';
import type { Connector } from './transportTypes';

/** `platform` is the machine's (process.platform); tests pass another to connect a pipe's path as Windows would. */
export function connectorFor(endpoint: Endpoint, platform: NodeJS.Platform = process.platform): Connector {
  switch (endpoint.kind) {
    case 'unix':
      return buildConnector({ socketPath: endpoint.socketPath });
    case 'npipe':
      // Node opens a named pipe through the same `path` option as a Unix socket, and undici passes socketPath on.
      if (platform !== 'win32') throw notOnWindows(endpoint, platform);
      return buildConnector({ socketPath: endpoint.socketPath });
    case 'ssh':
      return sshConnector(endpoint);
    case 'tcp': {
      const tls = endpoint.tls;
      if (!tls) return buildConnector({});
      const read = (path: string | undefined): Buffer | undefined => (path ? readTlsFile(endpoint, path) : undefined);
      return buildConnector({
        ca: read(tls.caFile),
        cert: read(tls.certFile),
        key: read(tls.keyFile),
        rejectUnauthorized: tls.verify,
      });
    }
  }
}

function notOnWindows(endpoint: Endpoint, platform: NodeJS.Platform): EngineError {
  return new EngineError('bad-request', `Cannot reach the engine at ${endpoint.display}: it is a Windows named pipe, and this machine runs ${platform}, which has none`, {
    endpoint: endpoint.display,
    hint: 'On this machine use the engine\'s socket (unix:///var/run/docker.sock, or leave the host empty to find it), tcp://host:port or ssh://user@host',
  });
}

function readTlsFile(endpoint: Endpoint, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new EngineError('unreachable', `Cannot read the TLS file ${path} for the engine at ${endpoint.display}`, {
      endpoint: endpoint.display,
      hint: 'Check DOCKER_CERT_PATH (it must hold ca.pem, cert.pem and key.pem) or the docker context TLS files',
      cause: error,
    });
  }
}
