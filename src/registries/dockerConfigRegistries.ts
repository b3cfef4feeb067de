/**
 * The registries the docker configuration knows (keys of `auths` and `credHelpers` in DOCKER_CONFIG/config.json),
 * for the Registries view. Only the keys are read here; credentials are read on demand by DockerConfigCredentials.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DockerConfigCredentials } from '../engine/registry';
import { dockerConfigDir } from '../engine/connection';
import { registryKey, type CredentialSource } from './credentialChain';

export interface DockerConfigLocation {
  readonly env?: NodeJS.ProcessEnv | undefined;
  readonly homeDir?: string | undefined;
}

export function dockerConfigPath(location: DockerConfigLocation = {}): string {
  return join(dockerConfigDir(location.env ?? process.env, location.homeDir ?? homedir()), 'config.json');
}

/** Registry keys named in config.json, normalized (`https://index.docker.io/v1/` → `docker.io`), sorted, unique. */
export async function dockerConfigRegistries(location: DockerConfigLocation = {}): Promise<string[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(dockerConfigPath(location), 'utf8'));
  } catch {
    // No file or not JSON: nothing to list (the credential lookup reports a broken file when it is used).
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null) return [];
  const { auths, credHelpers } = parsed as { auths?: unknown; credHelpers?: unknown };
  const keys = new Set<string>();
  for (const map of [auths, credHelpers]) {
    if (typeof map !== 'object' || map === null) continue;
    for (const name of Object.keys(map)) {
      try {
        keys.add(registryKey(name));
      } catch {
        // A key that is not a registry address is the docker CLI's business, not ours.
      }
    }
  }
  return [...keys].sort();
}

/** The docker configuration as the second link of the credential chain. */
export function dockerConfigSource(location: DockerConfigLocation = {}): CredentialSource {
  const credentials = new DockerConfigCredentials({ env: location.env, homeDir: location.homeDir });
  return { name: 'docker-config', lookup: (key) => credentials.get(key) };
}
