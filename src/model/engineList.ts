/**
 * Which engines Berth shows: the default one (resolved like the CLI: `berth.engine.host`, DOCKER_HOST,
 * DOCKER_CONTEXT, the current context, the default sockets), every docker context in the store, the default
 * sockets of Docker Desktop, OrbStack, Colima, Rancher Desktop and Podman that exist, and the hosts of the `berth.engines` setting. Two sources that reach the same
 * endpoint are one engine. Pure over an environment, a home directory and a file-system probe. No `vscode` here.
 */
import { errorMessage, toError } from '../common/errors';
import { homedir } from 'node:os';
import { DEFAULT_DOCKER_SOCKET, EngineError, knownSockets, parseHost, redactHost, resolveEndpoint, socketEndpoint, type Endpoint, type KnownSocket } from '../engine';
import { listDockerContexts, nodeContextStoreFs, type ContextStoreFs } from '../engine/connection';

export type EngineOrigin = 'local' | 'context' | 'podman' | 'socket' | 'settings';

/** One entry of the `berth.engines` setting. */
export interface ConfiguredEngine {
  readonly name: string;
  readonly host: string;
}

export interface EngineDescriptor {
  /** Stable: `local`, `context:<name>`, `podman:<socket path>`, `socket:<path>` (Docker Desktop, Colima, …), `settings:<name>`. */
  readonly id: string;
  readonly name: string;
  readonly origin: EngineOrigin;
  /** Ids of other sources that reach the same endpoint and were merged into this one. */
  readonly aliases: readonly string[];
  /** Undefined when the configuration is invalid (`configError` says why). */
  readonly endpoint: Endpoint | undefined;
  readonly configError: Error | undefined;
  /** The endpoint as shown to users: never carries credentials. */
  readonly display: string;
  /** Where the engine comes from, in words ("docker context", "berth.engines setting", …). */
  readonly sourceText: string;
}

export interface DiscoverEnginesOptions {
  /** The `berth.engine.host` setting ('' = the CLI's resolution). */
  readonly hostSetting: string;
  /** The `berth.engines` setting, already shaped (see `parseConfiguredEngines`). */
  readonly configured: readonly ConfiguredEngine[];
  readonly env?: NodeJS.ProcessEnv | undefined;
  readonly homeDir?: string | undefined;
  readonly fs?: ContextStoreFs | undefined;
}

export const LOCAL_ENGINE_ID = 'local';

/** Two engines are the same when they reach the same endpoint; `host` is normalised and credential-free. */
export function endpointKey(endpoint: Endpoint): string {
  return endpoint.host;
}

/**
 * The default sockets that exist, besides plain Docker's (that one is only the fallback of the local engine):
 * Docker Desktop, OrbStack, Colima, Rancher Desktop, rootless and rootful Podman, podman machine.
 */
export function knownEngineSockets(env: NodeJS.ProcessEnv, homeDir: string, fs: Pick<ContextStoreFs, 'exists'>, platform: NodeJS.Platform = process.platform): KnownSocket[] {
  return knownSockets(env, homeDir, platform).filter((socket) => socket.path !== DEFAULT_DOCKER_SOCKET && fs.exists(socket.path));
}

export function discoverEngines(options: DiscoverEnginesOptions): EngineDescriptor[] {
  const env = options.env ?? process.env;
  const homeDir = options.homeDir ?? homedir();
  const fs = options.fs ?? nodeContextStoreFs;
  const others: EngineDescriptor[] = [];
  for (const context of listDockerContexts({ env, homeDir, fs })) {
    others.push(
      descriptor(`context:${context.name}`, context.name, 'context', context.endpoint, context.error, `docker context "${context.name}"${context.description ? ` (${context.description})` : ''}`),
    );
  }
  for (const { product, path } of knownEngineSockets(env, homeDir, fs)) {
    const isPodman = product.startsWith('Podman');
    const name = path === '/run/podman/podman.sock' ? 'Podman (rootful)' : product;
    others.push(
      descriptor(`${isPodman ? 'podman' : 'socket'}:${path}`, name, isPodman ? 'podman' : 'socket', socketEndpoint(path, 'default', undefined), undefined, `${product} default socket`),
    );
  }
  for (const engine of options.configured) others.push(configuredEngine(engine, env, homeDir, fs));
  const local = namedAfterPodman(localEngine(options.hostSetting, env, homeDir, fs), others);
  // The default socket that resolution falls back to is noise beside real engines when nothing listens there.
  const localIsAbsentDefault =
    local.endpoint?.source === 'default' && local.endpoint.socketPath !== undefined && !fs.exists(local.endpoint.socketPath);
  return dedupeEngines(localIsAbsentDefault && others.length > 0 ? others : [local, ...others]);
}

/** Keeps the first engine of each endpoint, in order, and records the others as its aliases. */
export function dedupeEngines(candidates: readonly EngineDescriptor[]): EngineDescriptor[] {
  const byKey = new Map<string, { first: EngineDescriptor; aliases: string[] }>();
  const seenIds = new Set<string>();
  for (const candidate of candidates) {
    if (seenIds.has(candidate.id)) continue;
    seenIds.add(candidate.id);
    // An engine without a usable endpoint cannot be the same as another one.
    const key = candidate.endpoint ? endpointKey(candidate.endpoint) : `invalid:${candidate.id}`;
    const entry = byKey.get(key);
    if (entry) entry.aliases.push(candidate.id, ...candidate.aliases);
    else byKey.set(key, { first: candidate, aliases: [...candidate.aliases] });
  }
  return [...byKey.values()].map(({ first, aliases }) => ({ ...first, aliases }));
}

/** The default resolution falls back to Podman's socket when Docker's is absent: then the engine is Podman. */
function namedAfterPodman(local: EngineDescriptor, others: readonly EngineDescriptor[]): EngineDescriptor {
  if (local.endpoint?.source !== 'default') return local;
  const key = endpointKey(local.endpoint);
  const podman = others.find((other) => other.origin === 'podman' && other.endpoint !== undefined && endpointKey(other.endpoint) === key);
  return podman ? { ...local, name: podman.name, sourceText: podman.sourceText } : local;
}

function localEngine(hostSetting: string, env: NodeJS.ProcessEnv, homeDir: string, fs: ContextStoreFs): EngineDescriptor {
  const host = hostSetting.trim();
  try {
    const endpoint = resolveEndpoint({ host: host || undefined, env, homeDir, fs });
    return descriptor(LOCAL_ENGINE_ID, endpoint.context ?? 'default', 'local', endpoint, undefined, localSourceText(endpoint));
  } catch (error) {
    const shown = host ? redactHost(host) : 'the default engine endpoint';
    return { ...descriptor(LOCAL_ENGINE_ID, 'default', 'local', undefined, describeError(error), host ? 'berth.engine.host setting' : 'environment'), display: shown };
  }
}

function localSourceText(endpoint: Endpoint): string {
  switch (endpoint.source) {
    case 'explicit':
      return 'berth.engine.host setting';
    case 'DOCKER_HOST':
      return 'DOCKER_HOST';
    case 'DOCKER_CONTEXT':
      return `docker context "${endpoint.context ?? ''}" (DOCKER_CONTEXT)`;
    case 'config-context':
      return `docker context "${endpoint.context ?? ''}" (current context)`;
    case 'default':
      return 'default socket';
  }
}

/**
 * A tcp host uses TLS as DOCKER_HOST does: when DOCKER_TLS_VERIFY (or DOCKER_TLS) is set, with the certificates of
 * DOCKER_CERT_PATH (or the docker config directory). An engine with its own certificates is a docker context.
 */
function configuredEngine(engine: ConfiguredEngine, env: NodeJS.ProcessEnv, homeDir: string, fs: ContextStoreFs): EngineDescriptor {
  const id = `settings:${engine.name}`;
  const problem = engineHostProblem(engine.host);
  if (problem) {
    return { ...descriptor(id, engine.name, 'settings', undefined, problem, 'berth.engines setting'), display: redactHost(engine.host) };
  }
  try {
    return descriptor(id, engine.name, 'settings', parseHost(engine.host.trim(), env, { homeDir, fs }), undefined, 'berth.engines setting');
  } catch (error) {
    return { ...descriptor(id, engine.name, 'settings', undefined, describeError(error), 'berth.engines setting'), display: redactHost(engine.host) };
  }
}

function descriptor(
  id: string,
  name: string,
  origin: EngineOrigin,
  endpoint: Endpoint | undefined,
  error: string | Error | undefined,
  sourceText: string,
): EngineDescriptor {
  const configError = error === undefined ? undefined : typeof error === 'string' ? new EngineError('bad-request', error) : error;
  return { id, name, origin, aliases: [], endpoint, configError, display: endpoint?.display ?? name, sourceText };
}

function describeError(error: unknown): Error {
  return toError(error);
}

const ALLOWED_SCHEMES = ['unix', 'tcp', 'ssh'];

/**
 * What is wrong with a host for `berth.engines` / Add Engine…, or undefined. Only `unix://`, `tcp://` and
 * `ssh://`; never a password (settings are plain text), and no user name on tcp (the Engine API has none).
 */
export function engineHostProblem(value: string): string | undefined {
  const host = value.trim();
  if (host === '') return 'Enter a host such as unix:///run/podman/podman.sock, tcp://build-host:2376 or ssh://user@build-host';
  const schemeEnd = host.indexOf('://');
  const scheme = schemeEnd === -1 ? '' : host.slice(0, schemeEnd).toLowerCase();
  if (!ALLOWED_SCHEMES.includes(scheme)) {
    return `"${redactHost(host)}" must start with unix://, tcp:// or ssh://`;
  }
  if (scheme !== 'unix') {
    const authority = host.slice(schemeEnd + 3).split(/[/?#]/, 1)[0] ?? '';
    const at = authority.lastIndexOf('@');
    if (at !== -1) {
      const userInfo = authority.slice(0, at);
      if (userInfo.includes(':')) {
        return scheme === 'tcp'
          ? 'A tcp host must not carry a user name and password (user:pass@): settings are stored in plain text. Secure a remote engine with TLS client certificates (DOCKER_CERT_PATH or a docker context) instead.'
          : 'An ssh host must not carry a password (user:pass@): settings are stored in plain text. Use an ssh key or ssh-agent instead.';
      }
      if (scheme === 'tcp') return 'A tcp host takes no user name (user@): the Engine API has no login. Use TLS client certificates to secure it.';
    }
  }
  try {
    parseHost(host, {});
  } catch (error) {
    return errorMessage(error);
  }
  return undefined;
}

/** What is wrong with a new engine's name, or undefined. Names are unique in `berth.engines` (case-insensitive). */
export function engineNameProblem(value: string, existing: readonly string[]): string | undefined {
  const name = value.trim();
  if (name === '') return 'Enter a name for the engine, e.g. build-host';
  if (name.length > 64) return 'Keep the name under 64 characters';
  if ([...name].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return 'The name must not contain control characters';
  if (existing.some((other) => other.trim().toLowerCase() === name.toLowerCase())) return `An engine named "${name}" is already configured`;
  return undefined;
}

/** The `berth.engines` setting as entries; malformed entries are reported, not thrown. */
export function parseConfiguredEngines(value: unknown): { engines: ConfiguredEngine[]; problems: string[] } {
  const engines: ConfiguredEngine[] = [];
  const problems: string[] = [];
  if (value === undefined || value === null) return { engines, problems };
  if (!Array.isArray(value)) return { engines, problems: ['berth.engines must be an array of { "name", "host" } objects'] };
  const names = new Set<string>();
  for (const [index, entry] of value.entries()) {
    const record = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : undefined;
    const name = typeof record?.['name'] === 'string' ? record['name'].trim() : '';
    const host = typeof record?.['host'] === 'string' ? record['host'].trim() : '';
    if (!name || !host) {
      problems.push(`berth.engines[${index}] needs a "name" and a "host"; it is ignored`);
      continue;
    }
    if (names.has(name.toLowerCase())) {
      problems.push(`berth.engines[${index}]: the name "${name}" is used twice; the later entry is ignored`);
      continue;
    }
    names.add(name.toLowerCase());
    engines.push({ name, host });
  }
  return { engines, problems };
}

export { redactHost };

/** Add Engine's confirmation: where the entry went, and where its row is (the host without any credentials in it). */
export function addedEngineMessage(name: string, host: string, where: string, revealed: boolean): string {
  const row = revealed ? ' Its row is selected in the Containers view.' : '';
  return `Added the engine "${name}" (${redactHost(host)}) to berth.engines in the ${where}.${row}`;
}
