/**
 * The docker context store as a list: every context under `<config>/contexts/meta/<sha256(name)>/meta.json`
 * (DOCKER_CONFIG honoured), each with the endpoint `resolveEndpoint` derives for it, so TLS directories and
 * host parsing follow exactly the rules used when the context is the current one. Plain Node, no `vscode`.
 */
import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { contextDirectoryName, dockerConfigDir, nodeEndpointFs, resolveEndpoint, type Endpoint, type EndpointFs } from './endpoint';
import { errorMessage } from '../../common/errors';
import { isObject } from '../../common/objects';

/** The file-system access listing needs: resolution's probe plus a directory listing. */
export interface ContextStoreFs extends EndpointFs {
  /** Entry names of a directory; empty when it does not exist or cannot be read. */
  list(path: string): string[];
}

export const nodeContextStoreFs: ContextStoreFs = {
  ...nodeEndpointFs,
  list: (path) => {
    try {
      return readdirSync(path);
    } catch {
      return [];
    }
  },
};

export interface DockerContext {
  readonly name: string;
  readonly description: string | undefined;
  /** True for config.json's `currentContext` (or DOCKER_CONTEXT when set). */
  readonly current: boolean;
  /** The docker endpoint; absent when the context has none or it does not parse (see `error`). */
  readonly endpoint: Endpoint | undefined;
  /** Why the context has no usable endpoint, in words for the user. */
  readonly error: string | undefined;
}

export interface ListContextsOptions {
  readonly env?: NodeJS.ProcessEnv | undefined;
  readonly homeDir?: string | undefined;
  readonly fs?: ContextStoreFs | undefined;
}

/** Every stored context, sorted by name. Unreadable or nameless `meta.json` files are skipped, like the docker CLI does. */
export function listDockerContexts(options: ListContextsOptions = {}): DockerContext[] {
  const env = options.env ?? process.env;
  const homeDir = options.homeDir ?? homedir();
  const fs = options.fs ?? nodeContextStoreFs;
  const configDir = dockerConfigDir(env, homeDir);
  const metaRoot = join(configDir, 'contexts', 'meta');
  const current = currentContextName(env, configDir, fs);
  const contexts: DockerContext[] = [];
  for (const entry of fs.list(metaRoot)) {
    const meta = parseObject(fs.readText(join(metaRoot, entry, 'meta.json')));
    const name = meta && field(meta, 'Name');
    // The directory must be the hash of the name: anything else is not a context the CLI would find.
    if (typeof name !== 'string' || name === '' || contextDirectoryName(name) !== entry) continue;
    const metadata = meta && field(meta, 'Metadata');
    const text = isObject(metadata) ? field(metadata, 'Description') : undefined;
    const description = typeof text === 'string' && text !== '' ? text : undefined;
    let endpoint: Endpoint | undefined;
    let error: string | undefined;
    try {
      // DOCKER_CONTEXT is how resolution reads one named context; DOCKER_HOST would win over it, so it is cleared.
      endpoint = resolveEndpoint({ env: { ...env, DOCKER_HOST: '', DOCKER_CONTEXT: name }, homeDir, fs });
    } catch (cause) {
      error = errorMessage(cause);
    }
    contexts.push({ name, description, current: name === current, endpoint, error });
  }
  return contexts.sort((a, b) => a.name.localeCompare(b.name));
}

function currentContextName(env: NodeJS.ProcessEnv, configDir: string, fs: EndpointFs): string | undefined {
  const fromEnv = env['DOCKER_CONTEXT'];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const config = parseObject(fs.readText(join(configDir, 'config.json')));
  if (!config) return undefined;
  const value = field(config, 'currentContext');
  return typeof value === 'string' && value !== '' ? value : undefined;
}

type JsonObject = Record<string, unknown>;


/** Go reads JSON keys case-insensitively, so files written by other tools may differ in case. */
function field(object: JsonObject, key: string): unknown {
  if (key in object) return object[key];
  const lower = key.toLowerCase();
  const match = Object.keys(object).find((candidate) => candidate.toLowerCase() === lower);
  return match === undefined ? undefined : object[match];
}

function parseObject(text: string | undefined): JsonObject | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
