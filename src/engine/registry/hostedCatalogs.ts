/**
 * Repository and tag listings for the two registries that do not serve `/v2/_catalog` to their users, through their
 * own web APIs: Docker Hub (`hub.docker.com/v2/repositories/{namespace}/`, signed in through `/v2/users/login`) and
 * GHCR (GitHub's packages API with the user's token). Plain Node over undici, like registry.ts: the extension, the
 * CLI and tests use it. Every failure is a RegistryError carrying the service's own words and what to do next.
 *
 * Credentials go only to the service's fixed HTTPS address, or to a loopback address named by the test override
 * (BERTH_DOCKER_HUB_API / BERTH_GITHUB_API, refused unless loopback): nothing a workspace sets can redirect them.
 */
import { RegistryClient } from './registry';
import { RegistryError, parseLinkNext, parseRegistryAddress } from './registryProtocol';
import {
  apiBaseFor,
  DOCKER_HUB_API,
  GITHUB_API,
  header,
  HostedClient,
  isHostedRegistry,
  PAGE_SIZE,
  retryHint,
  serviceWords,
  type Answer,
  type HostedCatalogOptions,
  type ListOptions,
  type RepositoryCatalog,
} from './hostedClient';

// Callers import the hosted catalogs' whole surface from here.
export { apiBaseFor, DOCKER_HUB_API, GITHUB_API, isHostedRegistry, retryWhen } from './hostedClient';
export type { HostedCatalogOptions, HostedRegistry, ListOptions, RepositoryCatalog } from './hostedClient';

/** Docker Hub: a JWT from `/v2/users/login`, then the repositories of the user's namespace and their tags. */
export class DockerHubCatalog extends HostedClient {
  #token: string | undefined;

  constructor(options: HostedCatalogOptions = {}) {
    super({ registry: 'docker.io', defaultBase: DOCKER_HUB_API, name: 'Docker Hub', accept: 'application/json' }, options);
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
    super({ registry: 'ghcr.io', defaultBase: GITHUB_API, name: 'GitHub', accept: 'application/vnd.github+json' }, options);
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
