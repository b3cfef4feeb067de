/**
 * Engines reached in a way that exposes them: plain tcp:// (no TLS: anyone on the path reads and drives the engine,
 * which is root on its host) and TLS that does not verify the engine (SkipTLSVerify, DOCKER_TLS without _VERIFY).
 * The status bar tooltip and the log say so; engine/registry/auth.ts keeps registry credentials off plain tcp:// itself.
 */
import type { Endpoint } from '../engine';
import { isLoopbackHost } from '../engine/registry';

/** The warning for an engine's transport, or undefined when it is a Unix socket, ssh, or verified TLS. */
export function transportWarning(endpoint: Endpoint | undefined): string | undefined {
  if (endpoint?.kind !== 'tcp') return undefined;
  if (endpoint.tls === undefined) {
    const credentials = isLoopbackHost(new URL(endpoint.origin).host)
      ? ''
      : ' Berth does not send registry credentials to it.';
    return `Warning: ${endpoint.display} is plain TCP without TLS: whoever can reach it controls the engine.${credentials} Use TLS (DOCKER_TLS_VERIFY=1) or ssh://.`;
  }
  if (!endpoint.tls.verify) {
    return `Warning: ${endpoint.display} uses TLS without verifying the engine's certificate (SkipTLSVerify): another host could pose as it. Verify it (DOCKER_TLS_VERIFY=1 and a CA).`;
  }
  return undefined;
}
