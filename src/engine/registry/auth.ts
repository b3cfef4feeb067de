/**
 * Registry credentials: the X-Registry-Auth encoding, lookup in the docker CLI's configuration (auths, credsStore,
 * credHelpers and the docker-credential-* helpers), and the rule that credentials only go to HTTPS or loopback
 * registries. Credentials never enter a log line, a URL or an error text.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { dockerConfigDir, EngineError, childProcess, fsPromises, type RegistryCredential } from '../connection';
import { DOCKER_HUB_REGISTRY, parseImageReference } from './reference';

/** Docker Hub's key in config.json and in credential helpers. */
export const DOCKER_HUB_AUTH_KEY = 'https://index.docker.io/v1/';

/** Finds the credential for a registry key (see registryKeyFor), or undefined for anonymous access. */
export type CredentialLookup = (registryKey: string) => Promise<RegistryCredential | undefined>;

/**
 * The X-Registry-Auth header value: URL-safe base64 (RFC 4648 §5, with padding, as Go's base64.URLEncoding decodes
 * it) of the JSON credential. An empty object stands for anonymous access, which push requires.
 */
export function encodeRegistryAuth(credential: RegistryCredential | undefined): string {
  const json = JSON.stringify(credential ?? {});
  return Buffer.from(json, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/** The registry host of a reference, or Docker Hub's config key. */
export function registryKeyFor(reference: string): string {
  const { registry } = parseImageReference(reference);
  return registry === DOCKER_HUB_REGISTRY ? DOCKER_HUB_AUTH_KEY : registry;
}

/** The host (with port) a registry key or address names: `https://r.example:5000/v1/` → `r.example:5000`. */
export function registryHost(registryKey: string): string {
  let host = registryKey.trim();
  const scheme = host.indexOf('://');
  if (scheme !== -1) host = host.slice(scheme + 3);
  const slash = host.indexOf('/');
  if (slash !== -1) host = host.slice(0, slash);
  host = host.toLowerCase();
  return host === 'index.docker.io' || host === 'registry-1.docker.io' || host === 'docker.io' ? DOCKER_HUB_REGISTRY : host;
}

export function isLoopbackHost(host: string): boolean {
  let name = host.toLowerCase();
  if (name.startsWith('[')) name = name.slice(1, name.indexOf(']'));
  else if (name.includes(':') && name.indexOf(':') === name.lastIndexOf(':')) name = name.slice(0, name.indexOf(':'));
  // Not `*.localhost`: only the resolver decides where such a name goes, and it may not be this machine.
  return name === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(name) || name === '::1';
}

export interface SafetyOptions {
  /**
   * Whether the engine reaches this registry over HTTPS. False for registries the engine marks insecure
   * (its `insecure-registries`); undefined when unknown, and then only an explicit http:// address is refused.
   */
  readonly secure?: boolean | undefined;
}

/**
 * Throws unless credentials may go to this registry: it is reached over HTTPS, or it is on the loopback interface.
 * The X-Registry-Auth encoding is not encryption: over plain HTTP the password crosses the network as clear text.
 */
export function assertSafeToSendCredentials(registry: string, options: SafetyOptions = {}): void {
  const host = registryHost(registry);
  const plainHttp = /^http:\/\//i.test(registry.trim()) || options.secure === false;
  if (!plainHttp || isLoopbackHost(host)) return;
  throw new EngineError(
    'bad-request',
    `Refusing to send credentials to ${host}: it is reached over plain HTTP, so the password would cross the network as clear text`,
    { hint: 'Serve the registry over HTTPS (remove it from the engine\'s insecure-registries), or use it anonymously' },
  );
}

/** What the engine-side check needs to know of an endpoint (endpoint.ts's Endpoint has it). */
export interface CredentialTransport {
  readonly kind: 'unix' | 'npipe' | 'tcp' | 'ssh';
  readonly origin: string;
  readonly display: string;
  readonly tls?: unknown;
}

/**
 * Throws unless registry credentials (X-Registry-Auth) may travel to this engine: a Unix socket, a named pipe, ssh,
 * TLS, or plain tcp:// to a loopback address. Over plain tcp:// to another host they would cross the network as readable text.
 */
export function assertEngineSafeForCredentials(endpoint: CredentialTransport): void {
  if (endpoint.kind !== 'tcp' || endpoint.tls !== undefined) return;
  if (isLoopbackHost(new URL(endpoint.origin).host)) return;
  throw new EngineError(
    'bad-request',
    `Refusing to send registry credentials to the engine at ${endpoint.display}: it is reached over plain TCP without TLS, so they would cross the network as readable text`,
    {
      hint: 'Reach the engine over TLS (tcp://…:2376 with DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH, or a docker context with certificates) or over ssh://; anonymous pulls still work',
      endpoint: endpoint.display,
    },
  );
}

/** Runs `docker-credential-<name> get` with the server URL on stdin; resolves its stdout. */
export type HelperRunner = (helper: string, serverUrl: string) => Promise<{ stdout: string }>;

export interface DockerConfigCredentialsOptions {
  readonly env?: NodeJS.ProcessEnv | undefined;
  readonly homeDir?: string | undefined;
  /** Replaces how helpers run; the default uses execFile, never a shell. */
  readonly runHelper?: HelperRunner | undefined;
  /** Where debug-level notes go (e.g. a credsStore helper that is not installed); never given a credential. */
  readonly debug?: ((message: string) => void) | undefined;
}

interface DockerConfigFile {
  auths?: Record<string, { auth?: string; username?: string; password?: string; identitytoken?: string }>;
  credsStore?: string;
  credHelpers?: Record<string, string>;
}

/** Reads credentials the way the docker CLI stores them: DOCKER_CONFIG or ~/.docker/config.json. */
export class DockerConfigCredentials {
  private readonly configPath: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly runHelper: HelperRunner;
  private readonly debug: (message: string) => void;

  constructor(options: DockerConfigCredentialsOptions = {}) {
    this.env = options.env ?? process.env;
    this.configPath = join(dockerConfigDir(this.env, options.homeDir ?? homedir()), 'config.json');
    this.runHelper = options.runHelper ?? ((helper, server) => runCredentialHelper(helper, server, this.env));
    this.debug = options.debug ?? (() => undefined);
  }

  /** A CredentialLookup bound to this configuration. */
  readonly lookup: CredentialLookup = (registryKey) => this.get(registryKey);

  /** The credential for a registry key (a host such as `127.0.0.1:5055`, or Docker Hub's key), or undefined. */
  async get(registryKey: string): Promise<RegistryCredential | undefined> {
    const config = await this.readConfig();
    if (!config) return undefined;
    const host = registryHost(registryKey);
    const serverAddress = host === DOCKER_HUB_REGISTRY ? DOCKER_HUB_AUTH_KEY : host;

    const helperKey = findKey(config.credHelpers, host);
    const helper = helperKey !== undefined ? config.credHelpers?.[helperKey] : config.credsStore;
    if (helper !== undefined && helper !== '') {
      const viaHelper = await this.fromHelper(helper, helperKey ?? serverAddress, serverAddress, helperKey === undefined);
      if (viaHelper !== HELPER_ABSENT && (viaHelper || helperKey !== undefined)) return viaHelper;
    }

    const authKey = findKey(config.auths, host);
    const entry = authKey !== undefined ? config.auths?.[authKey] : undefined;
    if (!entry) return undefined;
    if (entry.identitytoken) return { identitytoken: entry.identitytoken, serveraddress: serverAddress };
    if (entry.auth) {
      const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon === -1) {
        throw new EngineError('bad-request', `The saved credentials for ${host} in ${this.configPath} are malformed`, {
          hint: `Sign in to ${host} again (docker login or Berth: Sign In to Registry)`,
        });
      }
      return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1), serveraddress: serverAddress };
    }
    if (entry.username !== undefined && entry.password !== undefined) {
      return { username: entry.username, password: entry.password, serveraddress: serverAddress };
    }
    return undefined;
  }

  private async readConfig(): Promise<DockerConfigFile | undefined> {
    let text: string;
    try {
      text = await fsPromises().readFile(this.configPath, 'utf8');
    } catch {
      return undefined;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === 'object' && parsed !== null ? (parsed) : undefined;
    } catch (error) {
      // Not V8's message: it quotes the text around the error, which may be part of a base64 credential.
      throw new EngineError('bad-request', `${this.configPath} is not valid JSON (${jsonErrorPlace(text, error)})`, {
        hint: 'Fix or remove the file, then sign in again',
      });
    }
  }

  /**
   * `mayBeAbsent` is set for credsStore: a config copied from Docker Desktop names `desktop`, which is not installed
   * here. docker then uses the `auths` entries, and so does berth (noting the absence at debug level). A helper named
   * for one registry in credHelpers is a deliberate choice, so its absence stays an error.
   */
  private async fromHelper(
    helper: string,
    helperServer: string,
    serverAddress: string,
    mayBeAbsent: boolean,
  ): Promise<RegistryCredential | undefined | typeof HELPER_ABSENT> {
    if (!/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(helper)) {
      throw new EngineError('bad-request', `The credential helper name "${helper}" in ${this.configPath} is not valid`, {
        hint: 'Fix credsStore or credHelpers in the docker configuration',
      });
    }
    let stdout: string;
    try {
      ({ stdout } = await this.runHelper(helper, helperServer));
    } catch (error) {
      const output = helperOutput(error);
      if (/credentials not found/i.test(output)) return undefined;
      if (mayBeAbsent && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.debug(`credsStore "${helper}": docker-credential-${helper} is not installed; using the auths entries of ${this.configPath}`);
        return HELPER_ABSENT;
      }
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it is not installed' : firstLine(output) || 'it failed';
      throw new EngineError('unauthorized', `The credential helper docker-credential-${helper} could not be used: ${reason}`, {
        hint: `Install docker-credential-${helper} on PATH, or change credsStore/credHelpers in ${this.configPath}`,
        cause: undefined,
      });
    }
    let parsed: { Username?: string; Secret?: string };
    try {
      parsed = JSON.parse(stdout) as { Username?: string; Secret?: string };
    } catch {
      throw new EngineError('unauthorized', `The credential helper docker-credential-${helper} printed something that is not JSON`, {
        hint: 'Check the helper with: docker-credential-' + helper + ' list',
      });
    }
    if (!parsed.Secret) return undefined;
    if (parsed.Username === '<token>') return { identitytoken: parsed.Secret, serveraddress: serverAddress };
    return { username: parsed.Username ?? '', password: parsed.Secret, serveraddress: serverAddress };
  }
}

/** fromHelper's answer when a credsStore helper is not installed: fall back to `auths`. */
const HELPER_ABSENT = Symbol('helper-absent');

function runCredentialHelper(helper: string, serverUrl: string, env: NodeJS.ProcessEnv): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = childProcess().execFile(`docker-credential-${helper}`, ['get'], { env, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error as Error, { stdout, stderr }));
      else resolve({ stdout });
    });
    child.stdin?.end(serverUrl);
  });
}

function helperOutput(error: unknown): string {
  const { stdout, stderr } = error as { stdout?: string; stderr?: string };
  return `${stdout ?? ''}\n${stderr ?? ''}`.trim();
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

/** The key of a config map that names this host: exact, with a scheme or a path, or any Docker Hub alias. */
function findKey(map: Record<string, unknown> | undefined, host: string): string | undefined {
  if (!map) return undefined;
  if (host === DOCKER_HUB_REGISTRY && DOCKER_HUB_AUTH_KEY in map) return DOCKER_HUB_AUTH_KEY;
  if (host in map) return host;
  return Object.keys(map).find((key) => registryHost(key) === host);
}

/** The engine's view of which registries are insecure: IndexConfigs[host].Secure, then InsecureRegistryCIDRs. */
export class RegistrySecurity {
  private readonly indexConfigs: Record<string, { Secure?: boolean }>;
  private readonly insecureCidrs: string[];

  constructor(registryConfig: unknown) {
    const config = (registryConfig ?? {}) as { IndexConfigs?: Record<string, { Secure?: boolean }>; InsecureRegistryCIDRs?: string[] };
    this.indexConfigs = config.IndexConfigs ?? {};
    this.insecureCidrs = config.InsecureRegistryCIDRs ?? [];
  }

  isSecure(registry: string): boolean | undefined {
    const configured = this.indexConfigs[registry];
    if (configured && typeof configured.Secure === 'boolean') return configured.Secure;
    const host = registry.replace(/:\d+$/, '');
    if (/^\d+\.\d+\.\d+\.\d+$/.test(host) && this.insecureCidrs.some((cidr) => ipv4InCidr(host, cidr))) return false;
    return undefined;
  }
}

function ipv4InCidr(ip: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  if (base === undefined || !/^\d+\.\d+\.\d+\.\d+$/.test(base) || !Number.isInteger(bits)) return false;
  const toNumber = (address: string): number => address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  const mask = bits === 0 ? 0 : 2 ** 32 - 2 ** (32 - bits);
  return (toNumber(ip) & mask) >>> 0 === (toNumber(base) & mask) >>> 0;
}

/** Where JSON.parse failed, as `line L, column C` (from V8's `position N`), without quoting any of the text. */
export function jsonErrorPlace(text: string, error: unknown): string {
  const position = /position (\d+)/.exec(error instanceof Error ? error.message : '');
  if (!position) return text.trim() === '' ? 'the file is empty' : 'the text ends too early or has a syntax error';
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `syntax error at line ${line}, column ${column}`;
}
