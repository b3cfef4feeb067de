/**
 * Where the engine is, resolved the way the docker CLI does it: an explicit host, DOCKER_HOST, DOCKER_CONTEXT,
 * config.json `currentContext` (through the context store), then the default sockets of Docker, Docker Desktop and
 * Podman. Pure functions over an environment, a home directory and a file-system probe, so they are unit-testable.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { EngineError } from './errors';
import { crypto } from './lazyModules';
import { isObject } from '../../common/objects';

/** `npipe`: a Windows named pipe (`npipe:////./pipe/docker_engine`), reached like a socket through its path. */
export type EndpointKind = 'unix' | 'npipe' | 'tcp' | 'ssh';

/** How the endpoint was found, for messages ("set by DOCKER_HOST"). */
export type EndpointSource = 'explicit' | 'DOCKER_HOST' | 'DOCKER_CONTEXT' | 'config-context' | 'default';

export interface EndpointTls {
  /** Verify the server against `caFile` (or the system roots when absent). */
  readonly verify: boolean;
  readonly caFile?: string | undefined;
  readonly certFile?: string | undefined;
  readonly keyFile?: string | undefined;
}

export interface SshTarget {
  readonly user?: string | undefined;
  readonly host: string;
  readonly port?: number | undefined;
}

export interface Endpoint {
  readonly kind: EndpointKind;
  /** The host as the docker CLI writes it, without any password. */
  readonly host: string;
  /** Safe to show to users and in logs: never carries credentials. */
  readonly display: string;
  /** The HTTP origin requests go to: `http://localhost` over a Unix socket or ssh, else `http(s)://host:port`. */
  readonly origin: string;
  /** A Unix socket's path, or a named pipe's (`\\.\pipe\docker_engine`). */
  readonly socketPath?: string | undefined;
  readonly tls?: EndpointTls | undefined;
  readonly ssh?: SshTarget | undefined;
  readonly source: EndpointSource;
  /** The docker context the endpoint came from, if any. */
  readonly context?: string | undefined;
}

/** The file-system access resolution needs; the default uses node:fs synchronously. */
export interface EndpointFs {
  exists(path: string): boolean;
  /** The file's text, or undefined when it cannot be read. */
  readText(path: string): string | undefined;
}

export const nodeEndpointFs: EndpointFs = {
  exists: (path) => existsSync(path),
  readText: (path) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
};

export interface ResolveEndpointOptions {
  /** An explicit host (the `--host` flag or the `berth.engine.host` setting). Wins over everything. */
  readonly host?: string | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  readonly homeDir?: string | undefined;
  readonly fs?: EndpointFs | undefined;
  /** The machine's platform (process.platform): on Windows the defaults are named pipes. */
  readonly platform?: NodeJS.Platform | undefined;
}

export const DEFAULT_DOCKER_SOCKET = '/var/run/docker.sock';

/** The docker CLI's configuration directory: DOCKER_CONFIG, else ~/.docker. */
export function dockerConfigDir(env: NodeJS.ProcessEnv, homeDir: string): string {
  const configured = env['DOCKER_CONFIG'];
  return configured !== undefined && configured !== '' ? configured : join(homeDir, '.docker');
}

export function resolveEndpoint(options: ResolveEndpointOptions = {}): Endpoint {
  const env = options.env ?? process.env;
  const homeDir = options.homeDir ?? homedir();
  const fs = options.fs ?? nodeEndpointFs;

  if (options.host !== undefined && options.host.trim() !== '') {
    return parseHost(options.host.trim(), env, { homeDir, fs, source: 'explicit' });
  }
  const dockerHost = env['DOCKER_HOST'];
  if (dockerHost !== undefined && dockerHost.trim() !== '') {
    return parseHost(dockerHost.trim(), env, { homeDir, fs, source: 'DOCKER_HOST' });
  }

  const configDir = dockerConfigDir(env, homeDir);
  const envContext = env['DOCKER_CONTEXT'];
  if (envContext !== undefined && envContext !== '') {
    if (envContext !== 'default') return contextEndpoint(envContext, configDir, fs, 'DOCKER_CONTEXT');
  } else {
    const current = readCurrentContext(configDir, fs);
    if (current !== undefined && current !== 'default') {
      return contextEndpoint(current, configDir, fs, 'config-context');
    }
  }
  return defaultEndpoint(env, homeDir, fs, options.platform ?? process.platform);
}

/** A place a local engine listens by default, and the product that puts it there. */
export interface KnownSocket {
  readonly product: string;
  /** A Unix socket's path, or a named pipe's on Windows. */
  readonly path: string;
}

/**
 * Where local engines listen by default, in the order the fallback tries them: Docker, Docker Desktop, OrbStack,
 * Colima, Rancher Desktop, rootless and rootful Podman, and `podman machine` (macOS); on Windows, Docker Desktop's
 * and podman machine's named pipes.
 */
export function knownSockets(env: NodeJS.ProcessEnv, homeDir: string, platform: NodeJS.Platform = process.platform): KnownSocket[] {
  if (platform === 'win32') {
    return [
      { product: 'Docker Desktop', path: '\\\\.\\pipe\\docker_engine' },
      { product: 'Docker Desktop (Linux engine)', path: '\\\\.\\pipe\\dockerDesktopLinuxEngine' },
      { product: 'Podman machine', path: '\\\\.\\pipe\\podman-machine-default' },
    ];
  }
  const home = (...parts: string[]): string => join(homeDir, ...parts);
  const sockets: KnownSocket[] = [
    { product: 'Docker', path: DEFAULT_DOCKER_SOCKET },
    { product: 'Docker Desktop', path: home('.docker', 'run', 'docker.sock') },
    { product: 'OrbStack', path: home('.orbstack', 'run', 'docker.sock') },
    { product: 'Colima', path: join(nonEmpty(env['COLIMA_HOME']) ?? home('.colima'), 'default', 'docker.sock') },
    { product: 'Rancher Desktop', path: home('.rd', 'docker.sock') },
  ];
  const runtimeDir = nonEmpty(env['XDG_RUNTIME_DIR']);
  if (runtimeDir !== undefined) sockets.push({ product: 'Podman', path: join(runtimeDir, 'podman', 'podman.sock') });
  sockets.push({ product: 'Podman', path: '/run/podman/podman.sock' });
  if (platform === 'darwin') {
    // podman machine forwards its API socket here (Podman 4 under qemu/, Podman 5 without).
    sockets.push({ product: 'Podman machine', path: home('.local', 'share', 'containers', 'podman', 'machine', 'podman.sock') });
    sockets.push({ product: 'Podman machine', path: home('.local', 'share', 'containers', 'podman', 'machine', 'qemu', 'podman.sock') });
  }
  return sockets;
}

/** The default sockets' paths, in the order the fallback tries them (see knownSockets). */
export function defaultSocketCandidates(env: NodeJS.ProcessEnv, homeDir: string, platform: NodeJS.Platform = process.platform): string[] {
  return knownSockets(env, homeDir, platform).map((socket) => socket.path);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value !== '' ? value : undefined;
}

function defaultEndpoint(env: NodeJS.ProcessEnv, homeDir: string, fs: EndpointFs, platform: NodeJS.Platform): Endpoint {
  const candidates = defaultSocketCandidates(env, homeDir, platform);
  const found = candidates.find((candidate) => fs.exists(candidate)) ?? candidates[0] ?? DEFAULT_DOCKER_SOCKET;
  return socketEndpoint(found, 'default', undefined);
}

/** The endpoint of a socket's path: a Unix socket, or a named pipe (`\\.\pipe\name`). */
export function socketEndpoint(path: string, source: EndpointSource, context: string | undefined): Endpoint {
  if (path.startsWith('\\\\')) {
    const pipe = npipeEndpoint(path, source, context);
    if (pipe) return pipe;
  }
  return unixEndpoint(path, source, context);
}

export interface ParseHostOptions {
  readonly homeDir?: string | undefined;
  readonly fs?: EndpointFs | undefined;
  readonly source?: EndpointSource | undefined;
}

/**
 * Parses a docker host string: `unix:///path`, `tcp://host[:port]` (TLS when DOCKER_TLS_VERIFY or DOCKER_TLS is set,
 * certificates from DOCKER_CERT_PATH), `http://` / `https://`, `ssh://[user@]host[:port]`, or a bare absolute path.
 * Throws EngineError('bad-request') naming what is wrong.
 */
export function parseHost(host: string, env: NodeJS.ProcessEnv = process.env, options: ParseHostOptions = {}): Endpoint {
  const tls = tlsFromEnvironment(env, options.homeDir ?? homedir(), options.fs ?? nodeEndpointFs);
  const endpoint = parseHostWithTls(host, tls?.files, options.source ?? 'explicit', undefined);
  if (tls && endpoint.tls === tls.files) assertCaPresent(endpoint, tls.dir, env);
  return endpoint;
}

/**
 * Like the docker CLI, DOCKER_TLS_VERIFY without a ca.pem is an error, not a silent fall-back to the system's CAs:
 * the user asked to verify the engine against their own CA.
 */
function assertCaPresent(endpoint: Endpoint, dir: string, env: NodeJS.ProcessEnv): void {
  if (!endpoint.tls?.verify || endpoint.tls.caFile !== undefined) return;
  const certPath = env['DOCKER_CERT_PATH'];
  const from = certPath !== undefined && certPath !== '' ? 'DOCKER_CERT_PATH' : 'the docker config directory, as DOCKER_CERT_PATH is unset';
  throw new EngineError('bad-request', `DOCKER_TLS_VERIFY is set, but there is no ca.pem in ${dir} (${from}) to verify the engine at ${endpoint.display} with`, {
    hint: "Put the CA certificate that signed the engine's certificate there as ca.pem (with cert.pem and key.pem), or point DOCKER_CERT_PATH at the directory that holds them",
  });
}

const SAFE_SSH_USER = /^[A-Za-z0-9._][A-Za-z0-9._-]*$/;
const SAFE_SSH_HOST = /^[A-Za-z0-9.:_][A-Za-z0-9.:_-]*$/;

function parseHostWithTls(
  host: string,
  tls: EndpointTls | undefined,
  source: EndpointSource,
  context: string | undefined,
): Endpoint {
  const where = describeSource(source, context);
  const bad = (why: string): never => {
    throw new EngineError('bad-request', `Invalid engine host "${redactHost(host)}"${where}: ${why}`, {
      hint: 'Use unix:///path/to/socket, tcp://host:port or ssh://user@host',
    });
  };
  if (host.startsWith('/')) return unixEndpoint(host, source, context);
  const schemeEnd = host.indexOf('://');
  if (schemeEnd === -1) bad('it has no scheme');
  const scheme = host.slice(0, schemeEnd).toLowerCase();
  const rest = host.slice(schemeEnd + 3);
  switch (scheme) {
    case 'unix':
      if (!rest.startsWith('/')) bad('the socket path must be absolute');
      return unixEndpoint(rest, source, context);
    case 'tcp':
    case 'http':
    case 'https': {
      const url = safeUrl(`${scheme === 'https' ? 'https' : 'http'}://${rest}`) ?? bad('it is not a valid address');
      if (url.hostname === '') bad('the host name is missing');
      const effectiveTls = scheme === 'https' ? (tls ?? { verify: true }) : scheme === 'http' ? undefined : tls;
      const port = url.port !== '' ? url.port : effectiveTls ? '2376' : '2375';
      const origin = `${effectiveTls ? 'https' : 'http'}://${url.hostname}:${port}`;
      const shown = `tcp://${url.hostname}:${port}`;
      return { kind: 'tcp', host: shown, display: shown, origin, tls: effectiveTls, source, context };
    }
    case 'ssh': {
      const url = safeUrl(`ssh://${rest}`) ?? bad('it is not a valid ssh address');
      if (url.hostname === '') bad('the host name is missing');
      if (url.pathname !== '' && url.pathname !== '/') bad('an ssh host takes no path');
      const user = url.username !== '' ? decodeURIComponent(url.username) : undefined;
      const port = url.port !== '' ? Number(url.port) : undefined;
      // ssh gets the user and host as arguments: nothing it could read as an option or a shell could read as syntax.
      const sshHost = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      if (user !== undefined && !SAFE_SSH_USER.test(user)) bad('the ssh user may hold only letters, digits, ".", "_" and "-", and must not start with "-"');
      if (!SAFE_SSH_HOST.test(sshHost)) bad('the ssh host may hold only letters, digits, ".", "-" and ":" (IPv6), and must not start with "-"');
      const shown = `ssh://${user !== undefined ? `${user}@` : ''}${url.hostname}${port !== undefined ? `:${port}` : ''}`;
      return {
        kind: 'ssh',
        host: shown,
        display: shown,
        origin: 'http://localhost',
        ssh: { user, host: sshHost, port },
        source,
        context,
      };
    }
    case 'npipe':
      return npipeEndpoint(rest, source, context) ?? bad('a named pipe is written npipe:////./pipe/<name>');
    default:
      return bad(`the scheme "${scheme}" is not supported`);
  }
}

/**
 * `npipe:////./pipe/docker_engine` (the docker CLI's form; forward or back slashes) as the pipe path Windows opens,
 * `\\.\pipe\docker_engine`. Parsed on every platform, so contexts copied from Windows read the same; only
 * connecting needs Windows (connectors.ts says so elsewhere).
 */
function npipeEndpoint(rest: string, source: EndpointSource, context: string | undefined): Endpoint | undefined {
  const match = /^[/\\]{2}([^/\\]+)[/\\]pipe[/\\]([^/\\]+)$/i.exec(rest);
  if (!match) return undefined;
  const [, server = '.', name = ''] = match;
  const host = `npipe:////${server}/pipe/${name}`;
  return { kind: 'npipe', host, display: host, origin: 'http://localhost', socketPath: `\\\\${server}\\pipe\\${name}`, source, context };
}

function unixEndpoint(socketPath: string, source: EndpointSource, context: string | undefined): Endpoint {
  const host = `unix://${socketPath}`;
  return { kind: 'unix', host, display: host, origin: 'http://localhost', socketPath, source, context };
}

function tlsFromEnvironment(env: NodeJS.ProcessEnv, homeDir: string, fs: EndpointFs): { files: EndpointTls; dir: string } | undefined {
  const verify = (env['DOCKER_TLS_VERIFY'] ?? '') !== '';
  const enabled = verify || (env['DOCKER_TLS'] ?? '') !== '';
  if (!enabled) return undefined;
  const certPath = env['DOCKER_CERT_PATH'];
  const dir = certPath !== undefined && certPath !== '' ? certPath : dockerConfigDir(env, homeDir);
  return { files: tlsFiles(dir, verify, fs), dir };
}

function tlsFiles(dir: string, verify: boolean, fs: EndpointFs): EndpointTls {
  const file = (name: string): string | undefined => {
    const path = join(dir, name);
    return fs.exists(path) ? path : undefined;
  };
  return { verify, caFile: file('ca.pem'), certFile: file('cert.pem'), keyFile: file('key.pem') };
}

/** The context store's directory name for a context: the sha256 hex of its name. */
export function contextDirectoryName(name: string): string {
  return crypto().createHash('sha256').update(name).digest('hex');
}

function readCurrentContext(configDir: string, fs: EndpointFs): string | undefined {
  const text = fs.readText(join(configDir, 'config.json'));
  if (text === undefined) return undefined;
  // Like the docker CLI, a config.json that does not parse is ignored for finding the engine.
  const config = parseJsonObject(text);
  const current = config && getCaseInsensitive(config, 'currentContext');
  return typeof current === 'string' && current !== '' ? current : undefined;
}

function contextEndpoint(name: string, configDir: string, fs: EndpointFs, source: EndpointSource): Endpoint {
  const hash = contextDirectoryName(name);
  const metaPath = join(configDir, 'contexts', 'meta', hash, 'meta.json');
  const origin = source === 'DOCKER_CONTEXT' ? 'DOCKER_CONTEXT' : `currentContext in ${join(configDir, 'config.json')}`;
  const text = fs.readText(metaPath);
  if (text === undefined) {
    throw new EngineError('bad-request', `Docker context "${name}" (from ${origin}) does not exist`, {
      hint: `Create it with docker context create, pick another with docker context use, or unset ${source === 'DOCKER_CONTEXT' ? 'DOCKER_CONTEXT' : 'currentContext'}`,
    });
  }
  const meta = parseJsonObject(text);
  const endpoints = meta && getCaseInsensitive(meta, 'Endpoints');
  const docker = isObject(endpoints) ? getCaseInsensitive(endpoints, 'docker') : undefined;
  const host = isObject(docker) ? getCaseInsensitive(docker, 'Host') : undefined;
  if (typeof host !== 'string' || host === '') {
    throw new EngineError('bad-request', `Docker context "${name}" has no docker endpoint host in ${metaPath}`, {
      hint: 'Recreate the context with docker context create --docker host=...',
    });
  }
  const skipVerify = isObject(docker) && getCaseInsensitive(docker, 'SkipTLSVerify') === true;
  const tlsDir = join(configDir, 'contexts', 'tls', hash, 'docker');
  const files = tlsFiles(tlsDir, !skipVerify, fs);
  const hasTlsFiles = files.caFile !== undefined || files.certFile !== undefined || files.keyFile !== undefined;
  return parseHostWithTls(host, hasTlsFiles || skipVerify ? files : undefined, source, name);
}

function describeSource(source: EndpointSource, context: string | undefined): string {
  if (context !== undefined) return ` (docker context "${context}")`;
  if (source === 'DOCKER_HOST') return ' (from DOCKER_HOST)';
  return '';
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Hides a password in a host (`tcp://user:secret@…`) before it goes into a message or the log. */
export function redactHost(host: string): string {
  return host.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@');
}

type JsonObject = Record<string, unknown>;


function parseJsonObject(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The context store's JSON is written by Go, which matches keys case-insensitively on read. */
function getCaseInsensitive(object: JsonObject, key: string): unknown {
  if (key in object) return object[key];
  const lower = key.toLowerCase();
  for (const [candidate, value] of Object.entries(object)) if (candidate.toLowerCase() === lower) return value;
  return undefined;
}
