/**
 * How a connection to an endpoint is opened: a Unix socket, tcp, tcp with TLS client certificates (read once, when
 * the transport is made), or an ssh child process speaking HTTP over its stdio.
 */
import { readFileSync } from 'node:fs';
import { buildConnector } from './undici';
import type { Endpoint } from './endpoint';
import { EngineError } from './errors';
import { sshConnector } from './ssh';
import type { Connector } from './transport-types';

export function connectorFor(endpoint: Endpoint): Connector {
  switch (endpoint.kind) {
    case 'unix':
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
