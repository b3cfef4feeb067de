/**
 * Pull (or push) with the credentials the chain finds; when the registry refuses (401, "no basic auth
 * credentials", "unauthorized"), offer to sign in and try again. Pure: the offer is a callback, so the CLI,
 * unit tests and the extension's commands share it.
 */
import { errorMessage } from '../common/errors';
import { isEngineError, type RegistryCredential } from '../engine/connection';
import { parseImageReference } from '../engine/registry';
import { isRegistryError } from '../engine/registry';
import type { CredentialChain, CredentialSourceName } from './credentialChain';

const AUTH_FAILURE_TEXT = /no basic auth credentials|unauthori[sz]ed|authentication required|access denied|denied: requested access|\b401\b/i;

/** True for an error that means "the registry wants (other) credentials". */
export function isRegistryAuthFailure(error: unknown): boolean {
  if (isEngineError(error, 'unauthorized') || isRegistryError(error, 'unauthorized')) return true;
  if (isEngineError(error) || isRegistryError(error)) {
    const text = `${error.message} ${isEngineError(error) ? (error.engineMessage ?? '') : (error.registryMessage ?? '')}`;
    return AUTH_FAILURE_TEXT.test(text);
  }
  return false;
}

export interface AuthRetryAttempt {
  readonly credential: RegistryCredential | undefined;
  readonly source: CredentialSourceName | undefined;
  /** 1 for the first try, 2 after the first sign-in, … */
  readonly attempt: number;
}

export interface AuthRetryOptions {
  readonly chain: CredentialChain;
  /**
   * Called when the registry refused: offer to sign in (the message is the engine's, free of secrets).
   * Resolve true once new credentials are stored, false when the user declined.
   */
  readonly offerSignIn: (registry: string, message: string) => Promise<boolean>;
  /** How many sign-ins to offer before giving up; default 2. */
  readonly maxSignIns?: number | undefined;
  readonly log?: ((line: string) => void) | undefined;
}

/**
 * Runs `operation` with the credential for `reference`'s registry; on an auth failure offers a sign-in and runs it
 * again with the new credential. Rethrows the last failure when the user declines or retries run out.
 */
export async function withRegistryAuthRetry<T>(
  reference: string,
  operation: (attempt: AuthRetryAttempt) => Promise<T>,
  options: AuthRetryOptions,
): Promise<T> {
  const registry = parseImageReference(reference).registry;
  const maxSignIns = options.maxSignIns ?? 2;
  for (let attempt = 1; ; attempt++) {
    const found = await options.chain.find(registry, (source, error) =>
      options.log?.(`Credential lookup in ${source} for ${registry} failed: ${errorMessage(error)}`),
    );
    options.log?.(`${reference}: attempt ${attempt} ${found ? `with credentials from ${found.source}` : 'without credentials'}`);
    try {
      return await operation({ credential: found?.credential, source: found?.source, attempt });
    } catch (error) {
      if (!isRegistryAuthFailure(error) || attempt > maxSignIns) throw error;
      const message = errorMessage(error);
      if (!(await options.offerSignIn(registry, message))) throw error;
    }
  }
}

/** A run whose pull the registry refused and the user did not sign in: nothing was created; the engine's words end it. */
export function runRefusedMessage(image: string, engineMessage: string): string {
  return `${parseImageReference(image).registry} refused the pull of ${image}, so nothing was created: ${engineMessage}`;
}
