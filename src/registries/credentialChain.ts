/**
 * The per-registry credential lookup chain: Berth's own sign-ins first, then the docker configuration
 * (auths, credHelpers, credsStore under DOCKER_CONFIG). Pure: no `vscode`, so the CLI and unit tests use it too.
 */
import type { RegistryCredential } from '../engine/connection';
import { parseRegistryAddress, type RegistryAuth } from '../engine/registry';

export type CredentialSourceName = 'berth' | 'docker-config';

/** One place credentials may live; `lookup` gets the normalized registry key (host[:port], `docker.io` for Hub). */
export interface CredentialSource {
  readonly name: CredentialSourceName;
  lookup(registryKey: string): Promise<RegistryCredential | undefined>;
}

export interface FoundCredential {
  readonly credential: RegistryCredential;
  readonly source: CredentialSourceName;
}

/** The key credentials are filed under: `127.0.0.1:5055`, `registry.example.com`, `docker.io`. */
export function registryKey(address: string): string {
  return parseRegistryAddress(address).key;
}

export class CredentialChain {
  readonly #sources: readonly CredentialSource[];

  constructor(sources: readonly CredentialSource[]) {
    this.#sources = sources;
  }

  /** The first source that knows the registry wins; a failing source (e.g. a broken helper) is reported, then skipped. */
  async find(address: string, onSourceError?: (source: CredentialSourceName, error: unknown) => void): Promise<FoundCredential | undefined> {
    const key = registryKey(address);
    for (const source of this.#sources) {
      let credential: RegistryCredential | undefined;
      try {
        credential = await source.lookup(key);
      } catch (error) {
        onSourceError?.(source.name, error);
        continue;
      }
      if (credential) return { credential, source: source.name };
    }
    return undefined;
  }

  /** The shape `sequences.ts` and the engine client take: `(registryKey) => credential | undefined`. */
  asLookup(onSourceError?: (source: CredentialSourceName, error: unknown) => void): (registry: string) => Promise<RegistryCredential | undefined> {
    return async (registry) => (await this.find(registry, onSourceError))?.credential;
  }
}

/** The engine's credential shape as the registry API client's. */
export function toRegistryAuth(credential: RegistryCredential): RegistryAuth {
  return 'identitytoken' in credential ? { identitytoken: credential.identitytoken } : { username: credential.username, password: credential.password };
}
