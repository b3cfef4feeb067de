/**
 * The `[LOCAL:]PORT` argument of a port forward, read the way `kubectl port-forward` reads it: `8080` forwards
 * local 8080 to container 8080, `9000:8080` local 9000 to container 8080, and `:8080` or `0:8080` a free local port
 * to container 8080. Every refusal says which part is wrong and what is allowed.
 */
import { validatedBy } from '../../common/errors';
import { EngineError } from '../connection';

export interface PortForwardSpec {
  /** The local port on 127.0.0.1; 0 lets the system choose a free one. */
  readonly localPort: number;
  /** The port inside the container's network namespace. */
  readonly containerPort: number;
}

const PORT_HINT = 'Give [LOCAL:]PORT with ports from 1 to 65535, e.g. 8080, 9000:8080, or :8080 for a free local port';

function readPort(text: string, role: 'local' | 'container'): number {
  if (!/^\d{1,5}$/.test(text)) {
    throw new EngineError('bad-request', `The ${role} port "${text}" is not a number`, { hint: PORT_HINT });
  }
  const port = Number(text);
  const lowest = role === 'local' ? 0 : 1;
  if (port < lowest || port > 65535) {
    throw new EngineError('bad-request', `The ${role} port ${port} is outside ${lowest}–65535`, { hint: PORT_HINT });
  }
  return port;
}

/** Reads `[LOCAL:]PORT`; throws a bad-request EngineError naming the part that is wrong. */
export function parsePortForwardSpec(text: string): PortForwardSpec {
  const trimmed = text.trim();
  if (trimmed === '') throw new EngineError('bad-request', 'No port was given', { hint: PORT_HINT });
  const colon = trimmed.indexOf(':');
  if (colon < 0) {
    const port = readPort(trimmed, 'container');
    return { localPort: port, containerPort: port };
  }
  const localText = trimmed.slice(0, colon);
  const containerPort = readPort(trimmed.slice(colon + 1), 'container');
  return { localPort: localText === '' ? 0 : readPort(localText, 'local'), containerPort };
}

/** The refusal text for input typed into a prompt, or undefined when it reads. */
export const portForwardSpecProblem: (text: string) => string | undefined = validatedBy(parsePortForwardSpec);
