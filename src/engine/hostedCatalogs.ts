/**
 * Repository and tag listings for the two registries that do not serve `/v2/_catalog` to their users, through their
 * own web APIs: Docker Hub (`hub.docker.com/v2/repositories/{namespace}/`, signed in through `/v2/users/login`) and
 * GHCR (GitHub's packages API with the user's token). Plain Node over undici, like registry.ts: the extension, the
 * CLI and tests use it. Every failure is a RegistryError carrying the service's own words and what to do next.
 *
 * Credentials go only to the service's fixed HTTPS address, or to a loopback address named by the test override
 * (BERTH_DOCKER_HUB_API / BERTH_GITHUB_API, refused unless loopback): nothing a workspace sets can redirect them.
 */
import { Agent, request, type Dispatcher } from './undici';
import { isLoopbackHost } from './auth';
import { RegistryClient } from './registry';
import { RegistryError, parseLinkNext, parseRegistryAddress, type RegistryAuth } from './registry-protocol';

export const DOCKER_HUB_API = 'https://hub.docker.com';
export const GITHUB_API = 'https://api.github.com';
/** The registry keys that have a hosted catalog. */
export type HostedRegistry = 'docker.io' | 'ghcr.io';

export interface HostedCatalogOptions {
  readonly auth?: RegistryAuth | undefined;
  /** Where the service's API is; by default its public address, else a loopback test override (see apiBaseFor). */
  readonly apiBase?: string | undefined;
  readonly log?: ((line: string) => void) | undefined;
  readonly dispatcher?: Dispatcher | undefined;
  readonly requestTimeoutMs?: number | undefined;
}

export interface ListOptions {
  /** Stop after this many entries (the view's limit). */
  readonly limit?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** One registry's listings, whatever API serves them. */
export interface RepositoryCatalog {
  /** Repository names as the registry pulls them, e.g. `team/app`. */
  repositories(options?: ListOptions): Promise<string[]>;
  tags(repository: string, options?: ListOptions): Promise<string[]>;
  /** Checks the credentials the way the service signs its users in. */
  verify(options?: { signal?: AbortSignal | undefined }): Promise<void>;
  close(): Promise<void>;
}

export function isHostedRegistry(key: string): key is HostedRegistry {
  return key === 'docker.io' || key === 'ghcr.io';
}

/**
 * The API address for a hosted registry: the public one, or the loopback address in the environment's override.
 * An override that is not loopback is ignored (and said so through `warn`): credentials never follow it elsewhere.
 */
export function apiBaseFor(registry: HostedRegistry, env: NodeJS.ProcessEnv = process.env, warn: (line: string) => void = () => undefined): string {
  const name = registry === 'docker.io' ? 'BERTH_DOCKER_HUB_API' : 'BERTH_GITHUB_API';
  const fallback = registry === 'docker.io' ? DOCKER_HUB_API : GITHUB_API;
  const override = env[name];
  if (override === undefined || override === '') return fallback;
  try {
    const url = new URL(override);
    if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url.origin;
  } catch {
    // Reported below like any other refused override.
  }
  warn(`${name}=${override} is ignored: only a loopback http:// address may stand in for ${fallback}`);
  return fallback;
}

const PAGE_SIZE = 100;
const MAX_PAGES = 200;
const MAX_BODY_BYTES = 16 * 1024 * 1024;

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function header(answer: Answer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** "in 42 s" / "at 14:05 UTC (in 3 min)" from Retry-After or a reset time in epoch seconds; undefined when neither is given. */
export function retryWhen(answer: Pick<Answer, 'headers'>, now = Date.now()): string | undefined {
  const after = Number(header(answer as Answer, 'retry-after'));
  if (Number.isFinite(after) && after > 0) return `in ${Math.ceil(after)} s`;
  const reset = Number(header(answer as Answer, 'x-ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) {
    if (reset * 1000 <= now) return 'now';
    const minutes = Math.max(1, Math.ceil((reset * 1000 - now) / 60_000));
    return `at ${new Date(reset * 1000).toISOString().slice(11, 16)} UTC (in ${minutes} min)`;
  }
  return undefined;
}

/** The hint for a rate limit: when to come back. */
function retryHint(answer: Answer): string {
  const when = retryWhen(answer);
  return when === undefined ? 'Wait a while, then refresh the Registries view' : `Refresh the Registries view ${when}`;
}

/** The service's own words from an error body: Hub's `detail`/`message`/`errinfo`, GitHub's `message`. */
function serviceWords(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { detail?: unknown; message?: unknown; errinfo?: { detail?: unknown } };
    for (const candidate of [parsed.detail, parsed.message]) if (typeof candidate === 'string' && candidate !== '') return candidate;
  } catch {
    const text = body.trim();
    if (text !== '' && text.length < 300 && !text.startsWith('<')) return text;
  }
  return undefined;
}

/** The HTTP and error plumbing both services share. */
abstract class HostedClient implements RepositoryCatalog {
  protected readonly registry: HostedRegistry;
  protected readonly auth: RegistryAuth | undefined;
  protected readonly base: URL;
  readonly #log: (line: string) => void;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;

  constructor(registry: HostedRegistry, options: HostedCatalogOptions, defaultBase: string) {
    this.registry = registry;
    this.auth = options.auth;
    this.base = new URL(options.apiBase ?? defaultBase);
    if (this.base.protocol !== 'https:' && !(this.base.protocol === 'http:' && isLoopbackHost(this.base.hostname))) {
      throw new RegistryError('insecure', registry, `Refusing to use ${this.base.origin} for ${registry}: only HTTPS, or a loopback address in tests`);
    }
    this.#log = options.log ?? (() => undefined);
    const timeout = options.requestTimeoutMs ?? 30_000;
    this.#ownsDispatcher = !options.dispatcher;
    this.#dispatcher = options.dispatcher ?? new Agent({ headersTimeout: timeout, bodyTimeout: timeout, connect: { timeout } });
  }

  abstract repositories(options?: ListOptions): Promise<string[]>;
  abstract tags(repository: string, options?: ListOptions): Promise<string[]>;
  abstract verify(options?: { signal?: AbortSignal | undefined }): Promise<void>;

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  /** Follows `next` links (same origin only) until the limit, collecting what `entries` reads off each page. */
  protected async collect(first: string, entries: (page: unknown) => string[], next: (page: unknown, answer: Answer) => string | undefined, options: ListOptions, authorization: () => Promise<string | undefined>): Promise<string[]> {
    const all: string[] = [];
    const seen = new Set<string>();
    let link: string | undefined = first;
    while (link !== undefined) {
      const url = new URL(link, this.base);
      if (url.origin !== this.base.origin) throw new RegistryError('protocol', this.registry, `The next-page link points to another server (${url.host})`);
      if (seen.has(url.href) || seen.size >= MAX_PAGES) throw new RegistryError('protocol', this.registry, `The listing's pages do not end (${seen.size} pages); Berth stops following them`);
      seen.add(url.href);
      const answer = await this.send('GET', url, await authorization(), options.signal);
      if (answer.status < 200 || answer.status >= 300) throw this.errorFor(answer, url);
      const page = this.parse(answer.body);
      const found = entries(page);
      all.push(...found);
      if (found.length === 0 || (options.limit !== undefined && all.length >= options.limit)) break;
      link = next(page, answer);
    }
    return options.limit !== undefined ? all.slice(0, options.limit) : all;
  }

  protected parse(body: string): unknown {
    try {
      return JSON.parse(body);
    } catch (error) {
      throw new RegistryError('protocol', this.registry, `${this.serviceName} answered with something other than JSON`, { cause: error });
    }
  }

  protected abstract get serviceName(): string;
  protected abstract errorFor(answer: Answer, url: URL): RegistryError;

  /** Never a secret in a message: a service could echo what it was sent. */
  protected scrub(text: string): string {
    const secret = this.auth ? ('password' in this.auth ? this.auth.password : this.auth.identitytoken) : '';
    return secret.length >= 3 ? text.split(secret).join('***') : text;
  }

  protected words(answer: Answer): string {
    const said = serviceWords(answer.body);
    // RegistryError appends ". <hint>": a sentence's own full stop would double it.
    return said ? `: ${this.scrub(said).replace(/\.$/, '')}` : '';
  }

  protected async send(method: 'GET' | 'POST', url: URL, authorization: string | undefined, signal: AbortSignal | undefined, json?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { 'user-agent': 'berth-registry-client', accept: this.accept };
    if (authorization) headers.authorization = authorization;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const where = `${method} ${url.host}${url.pathname}`;
    try {
      const response = await request(this.#dispatcher, url, { method, headers, body: json === undefined ? null : JSON.stringify(json), signal: signal ?? null });
      const chunks: Buffer[] = [];
      let length = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        length += chunk.length;
        if (length > MAX_BODY_BYTES) {
          response.body.destroy();
          throw new RegistryError('protocol', this.registry, `${this.serviceName}'s answer to ${where} is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB; Berth stops reading it`);
        }
        chunks.push(chunk);
      }
      this.#log(`${this.serviceName} ${where} → ${response.statusCode}`);
      return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks, length).toString('utf8') };
    } catch (error) {
      if (error instanceof RegistryError) throw error;
      if (signal?.aborted) throw new RegistryError('cancelled', this.registry, `Cancelled: ${where}`, { cause: error });
      const code = (error as { code?: string }).code ?? (error as Error).name;
      throw new RegistryError('unreachable', this.registry, `Cannot reach ${this.serviceName} at ${url.host} (${code})`, { hint: 'Check the network connection and any proxy, then refresh', cause: error });
    }
  }

  protected abstract get accept(): string;
}

/** Docker Hub: a JWT from `/v2/users/login`, then the repositories of the user's namespace and their tags. */
export class DockerHubCatalog extends HostedClient {
  #token: string | undefined;

  constructor(options: HostedCatalogOptions = {}) {
    super('docker.io', options, DOCKER_HUB_API);
  }

  protected get serviceName(): string {
    return 'Docker Hub';
  }

  protected get accept(): string {
    return 'application/json';
  }

  /** The namespace listed: the signed-in user's (Hub has no "everything I can see" listing). */
  get namespace(): string | undefined {
    return this.auth && 'username' in this.auth ? this.auth.username.toLowerCase() : undefined;
  }

  async verify(options: { signal?: AbortSignal | undefined } = {}): Promise<void> {
    this.#token = undefined;
    await this.#login(options.signal);
  }

  async repositories(options: ListOptions = {}): Promise<string[]> {
    const namespace = this.namespace;
    if (namespace === undefined) {
      throw new RegistryError('unauthorized', this.registry, 'Docker Hub lists repositories only for a signed-in user', { hint: 'Sign in to docker.io with your Docker ID, or type a repository' });
    }
    const names = await this.collect(`/v2/repositories/${encodeURIComponent(namespace)}/?page_size=${PAGE_SIZE}`, (page) => hubResults(page).map((entry) => `${typeof entry.namespace === 'string' ? entry.namespace : namespace}/${String(entry.name)}`), hubNext, options, () => this.#authorization(options.signal));
    return names;
  }

  async tags(repository: string, options: ListOptions = {}): Promise<string[]> {
    // Official images are `library/<name>` on Hub's API; a bare name means that.
    const path = repository.includes('/') ? repository : `library/${repository}`;
    const encoded = path.split('/').map(encodeURIComponent).join('/');
    return this.collect(`/v2/repositories/${encoded}/tags/?page_size=${PAGE_SIZE}`, (page) => hubResults(page).map((entry) => String(entry.name)), hubNext, options, () => this.#authorization(options.signal));
  }

  async #authorization(signal: AbortSignal | undefined): Promise<string | undefined> {
    if (!this.auth) return undefined;
    this.#token ??= await this.#login(signal);
    return `Bearer ${this.#token}`;
  }

  async #login(signal: AbortSignal | undefined): Promise<string> {
    const auth = this.auth;
    if (!auth || !('username' in auth)) throw new RegistryError('unauthorized', this.registry, 'Docker Hub needs a Docker ID and a password or personal access token', { hint: 'Sign in to docker.io' });
    const url = new URL('/v2/users/login', this.base);
    const answer = await this.send('POST', url, undefined, signal, { username: auth.username, password: auth.password });
    if (answer.status !== 200) throw this.errorFor(answer, url);
    const token = (this.parse(answer.body) as { token?: unknown }).token;
    if (typeof token !== 'string' || token === '') throw new RegistryError('protocol', this.registry, 'Docker Hub signed in but sent no token');
    return token;
  }

  protected errorFor(answer: Answer, url: URL): RegistryError {
    const common = { status: answer.status, registryMessage: serviceWords(answer.body) };
    const said = this.words(answer);
    if (answer.status === 429) {
      return new RegistryError('server', this.registry, `Docker Hub is limiting requests (429)${said}`, { ...common, hint: retryHint(answer) });
    }
    if (url.pathname === '/v2/users/login' && (answer.status === 401 || answer.status === 403)) {
      const twoFactor = /login_2fa_token/.test(answer.body);
      return new RegistryError('unauthorized', this.registry, `Docker Hub refused the sign-in (${answer.status})${said}`, {
        ...common,
        hint: twoFactor
          ? 'This Docker ID uses two-factor authentication: sign in with a personal access token (Docker Hub → Account settings → Personal access tokens) as the password'
          : 'Check the Docker ID and the password or personal access token, then sign in to docker.io again',
      });
    }
    if (answer.status === 401) return new RegistryError('unauthorized', this.registry, `Docker Hub refused the request (401)${said}`, { ...common, hint: 'Sign in to docker.io again' });
    if (answer.status === 403) return new RegistryError('denied', this.registry, `Docker Hub denied access (403)${said}`, { ...common, hint: 'The Docker ID lacks access to this repository' });
    if (answer.status === 404) return new RegistryError('not-found', this.registry, `Docker Hub has no ${url.pathname.replace(/^\/v2\/repositories\//, '').replace(/\/(tags\/)?$/, '')} (404)${said}`, { ...common, hint: 'Check the name, or refresh the Registries view' });
    return new RegistryError('server', this.registry, `Docker Hub failed (${answer.status})${said}`, { ...common, hint: 'Try again later' });
  }
}

interface HubEntry {
  readonly name?: unknown;
  readonly namespace?: unknown;
}

function hubResults(page: unknown): HubEntry[] {
  const results = (page as { results?: unknown } | null)?.results;
  return Array.isArray(results) ? results.filter((entry): entry is HubEntry => typeof entry === 'object' && entry !== null && typeof (entry as HubEntry).name === 'string') : [];
}

function hubNext(page: unknown): string | undefined {
  const next = (page as { next?: unknown } | null)?.next;
  return typeof next === 'string' && next !== '' ? next : undefined;
}

/** GHCR: the user's container packages and their tagged versions, from GitHub's REST API with the user's token. */
export class GhcrCatalog extends HostedClient {
  constructor(options: HostedCatalogOptions = {}) {
    super('ghcr.io', options, GITHUB_API);
  }

  protected get serviceName(): string {
    return 'GitHub';
  }

  protected get accept(): string {
    return 'application/vnd.github+json';
  }

  async verify(options: { signal?: AbortSignal | undefined } = {}): Promise<void> {
    const url = new URL('/user', this.base);
    const answer = await this.send('GET', url, this.#authorization(), options.signal);
    if (answer.status !== 200) throw this.errorFor(answer, url);
  }

  async repositories(options: ListOptions = {}): Promise<string[]> {
    return this.collect(`/user/packages?package_type=container&per_page=${PAGE_SIZE}`, (page) =>
      ghList(page).flatMap((entry) => {
        const owner = (entry.owner as { login?: unknown } | undefined)?.login;
        return typeof entry.name === 'string' && typeof owner === 'string' ? [`${owner.toLowerCase()}/${entry.name}`] : [];
      }), (_page, answer) => parseLinkNext(answer.headers.link), options, () => Promise.resolve(this.#authorization()));
  }

  /** The tags of `owner/package` (a package name may hold slashes: `owner/app/api`), newest versions first. */
  async tags(repository: string, options: ListOptions = {}): Promise<string[]> {
    const slash = repository.indexOf('/');
    const name = slash >= 0 ? repository.slice(slash + 1) : repository;
    const versions = await this.collect(`/user/packages/container/${encodeURIComponent(name)}/versions?per_page=${PAGE_SIZE}`, (page) =>
      ghList(page).flatMap((entry) => {
        const tags = ((entry.metadata as { container?: { tags?: unknown } } | undefined)?.container?.tags);
        return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
      }), (_page, answer) => parseLinkNext(answer.headers.link), { signal: options.signal }, () => Promise.resolve(this.#authorization()));
    const unique = [...new Set(versions)];
    return options.limit !== undefined ? unique.slice(0, options.limit) : unique;
  }

  #authorization(): string {
    const auth = this.auth;
    const token = auth ? ('password' in auth ? auth.password : auth.identitytoken) : '';
    if (token === '') throw new RegistryError('unauthorized', this.registry, 'Listing GHCR packages needs a GitHub token', { hint: 'Sign in to ghcr.io with your GitHub user name and a token with the read:packages scope' });
    return `Bearer ${token}`;
  }

  protected errorFor(answer: Answer, url: URL): RegistryError {
    const common = { status: answer.status, registryMessage: serviceWords(answer.body) };
    const said = this.words(answer);
    const scopes = header(answer, 'x-oauth-scopes');
    const rateLimited = answer.status === 429 || (answer.status === 403 && header(answer, 'x-ratelimit-remaining') === '0');
    if (rateLimited) {
      return new RegistryError('server', this.registry, `GitHub's API rate limit is used up (${answer.status})${said}`, { ...common, hint: retryHint(answer) });
    }
    if (answer.status === 401) {
      return new RegistryError('unauthorized', this.registry, `GitHub refused the token (401)${said}`, { ...common, hint: 'The token is wrong, expired or revoked: create a new one with the read:packages scope, then sign in to ghcr.io again' });
    }
    if (answer.status === 403) {
      const lacksScope = /read:packages/.test(answer.body) || (scopes !== undefined && !/\bread:packages\b|\bwrite:packages\b/.test(scopes));
      return new RegistryError('denied', this.registry, `GitHub denied the package listing (403)${said}`, {
        ...common,
        hint: lacksScope
          ? `The token lacks the read:packages scope${scopes !== undefined ? ` (it has: ${scopes || 'none'})` : ''}: add it on GitHub (Settings → Developer settings → Personal access tokens), then sign in to ghcr.io again`
          : 'The token has no access to these packages',
      });
    }
    if (answer.status === 404) return new RegistryError('not-found', this.registry, `GitHub has no ${decodeURIComponent(url.pathname.replace(/^\/user\/packages\/container\//, '').replace(/\/versions$/, ''))} package for this token (404)${said}`, { ...common, hint: 'Check the name, or refresh the Registries view' });
    return new RegistryError('server', this.registry, `GitHub failed (${answer.status})${said}`, { ...common, hint: 'Try again later' });
  }
}

function ghList(page: unknown): Array<Record<string, unknown>> {
  return Array.isArray(page) ? page.filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null) : [];
}

/** Entries per page asked of a v2 registry's `_catalog` and tag lists. */
const V2_PAGE_SIZE = 100;

/**
 * The listings and sign-in check of any registry address: Docker Hub's and GHCR's own APIs for those two, the v2
 * API (`_catalog`, `tags/list`, `/v2/`) for every other. One place, for the Registries view and Sign In alike.
 */
export function repositoryCatalogFor(address: string, options: Omit<HostedCatalogOptions, 'apiBase'> & { env?: NodeJS.ProcessEnv | undefined } = {}): RepositoryCatalog {
  const hosted = hostedCatalogFor(parseRegistryAddress(address).key, options);
  if (hosted) return hosted;
  const client = new RegistryClient({ address, auth: options.auth, log: options.log, dispatcher: options.dispatcher, requestTimeoutMs: options.requestTimeoutMs });
  return {
    repositories: (list) => client.catalog({ pageSize: V2_PAGE_SIZE, limit: list?.limit, signal: list?.signal }),
    tags: (repository, list) => client.tags(repository, { pageSize: V2_PAGE_SIZE, limit: list?.limit, signal: list?.signal }),
    verify: async (check) => {
      await client.ping(check);
    },
    close: () => client.close(),
  };
}

/** The hosted catalog for a registry key, or undefined for a registry that keeps the v2 `_catalog`. */
export function hostedCatalogFor(registryKey: string, options: Omit<HostedCatalogOptions, 'apiBase'> & { env?: NodeJS.ProcessEnv | undefined } = {}): RepositoryCatalog | undefined {
  if (!isHostedRegistry(registryKey)) return undefined;
  const apiBase = apiBaseFor(registryKey, options.env, options.log);
  return registryKey === 'docker.io' ? new DockerHubCatalog({ ...options, apiBase }) : new GhcrCatalog({ ...options, apiBase });
}
