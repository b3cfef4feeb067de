/**
 * A client for the Registry HTTP API v2 (the CNCF distribution spec): ping, catalog and tag lists with `Link`
 * paging, Basic auth and the Bearer token flow. Plain Node over undici: the extension, the CLI and tests use it.
 *
 * Credentials never leave through a URL, a log line or an error text, and they are only ever sent over HTTPS
 * or to a loopback address: the check runs before the first byte is sent.
 */
import { Agent, request, type Dispatcher } from '../connection';
import {
  RegistryError,
  insecureCredentialTransport,
  isRegistryError,
  parseLinkNext,
  parseRegistryAddress,
  parseRegistryErrorBody,
  parseWwwAuthenticate,
  type AuthChallenge,
  type RegistryAddress,
  type RegistryAuth,
} from './registryProtocol';

// Callers import the whole registry surface from here.
export * from './registryProtocol';

/** `/v2/team/app/tags/list?n=1` → `repository team/app`, for error texts. */
function describePath(path: string): string {
  const bare = path.split('?')[0] ?? path;
  const tags = /^\/v2\/(.+)\/tags\/list$/.exec(bare);
  if (tags) return `repository ${tags[1]}`;
  if (bare === '/v2/_catalog') return 'catalog';
  return bare;
}

export interface RegistryClientOptions {
  /** A registry address, see `parseRegistryAddress`. */
  readonly address: string;
  readonly auth?: RegistryAuth | undefined;
  /** Receives one line per request (method, path, status); never headers or credentials. */
  readonly log?: ((line: string) => void) | undefined;
  /** For tests and proxies; by default the client owns an undici Agent, closed by `close()`. */
  readonly dispatcher?: Dispatcher | undefined;
  readonly requestTimeoutMs?: number | undefined;
}

export interface PageOptions {
  /** `n`: entries per page; the registry may return fewer. */
  readonly pageSize?: number | undefined;
  /** Stop after this many entries in all (a guard against a huge catalog). */
  readonly limit?: number | undefined;
  /** Fail after this many pages (default MAX_PAGES): a registry that hands out fresh links for ever is not followed for ever. */
  readonly maxPages?: number | undefined;
  /** The whole listing, every page, must finish within this (default LISTING_TIMEOUT_MS). */
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** Pages followed at most in one listing: 1,000 pages of 100 are 100,000 entries, more than any view shows. */
export const MAX_PAGES = 1000;
/** A registry's answer larger than this is not read further (a catalog page of 100 names is a few KiB). */
export const MAX_REGISTRY_BODY_BYTES = 16 * 1024 * 1024;
export const LISTING_TIMEOUT_MS = 60_000;

interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const USER_AGENT = 'berth-registry-client';

export class RegistryClient {
  readonly address: RegistryAddress;
  readonly #auth: RegistryAuth | undefined;
  readonly #log: (line: string) => void;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #timeoutMs: number;
  /** Bearer tokens by scope; a registry hands out one per scope set. */
  readonly #tokens = new Map<string, { token: string; expiresAt: number }>();
  /** Set after the first 401: whether the registry wants Basic credentials up front. */
  #usesBasic = false;

  constructor(options: RegistryClientOptions) {
    this.address = parseRegistryAddress(options.address);
    this.#auth = options.auth;
    this.#log = options.log ?? (() => undefined);
    this.#timeoutMs = options.requestTimeoutMs ?? 30_000;
    if (options.auth) {
      const problem = insecureCredentialTransport(this.address.origin);
      if (problem) throw new RegistryError('insecure', this.address.key, problem, { hint: 'Use an https:// address, or a registry on this machine' });
    }
    this.#ownsDispatcher = !options.dispatcher;
    this.#dispatcher = options.dispatcher ?? new Agent({ headersTimeout: this.#timeoutMs, bodyTimeout: this.#timeoutMs, connect: { timeout: this.#timeoutMs } });
  }

  /** `GET /v2/`: succeeds when the registry speaks v2 and accepts the credentials (or needs none). */
  async ping(options: { signal?: AbortSignal | undefined } = {}): Promise<{ apiVersion: string | undefined }> {
    // No scope: /v2/ accepts any valid token, and a catalog scope could be refused on registries without a catalog.
    const response = await this.#get('/v2/', '', options.signal, true);
    const version = response.headers['docker-distribution-api-version'];
    return { apiVersion: Array.isArray(version) ? version[0] : version };
  }

  /** Every repository in `/v2/_catalog`, following `Link` pages. */
  async catalog(options: PageOptions = {}): Promise<string[]> {
    const all: string[] = [];
    for await (const page of this.catalogPages(options)) all.push(...page);
    return all;
  }

  catalogPages(options: PageOptions = {}): AsyncGenerator<string[]> {
    return this.#pages('/v2/_catalog', 'repositories', 'registry:catalog:*', options);
  }

  /** Every tag of `repository` in `/v2/<name>/tags/list`, following `Link` pages. */
  async tags(repository: string, options: PageOptions = {}): Promise<string[]> {
    const all: string[] = [];
    for await (const page of this.tagPages(repository, options)) all.push(...page);
    return all;
  }

  tagPages(repository: string, options: PageOptions = {}): AsyncGenerator<string[]> {
    if (!/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/.test(repository)) {
      throw new RegistryError('bad-request', this.address.key, `"${repository}" is not a valid repository name`, {
        hint: 'Repository names are lower-case path components such as team/app',
      });
    }
    return this.#pages(`/v2/${repository}/tags/list`, 'tags', `repository:${repository}:pull`, options);
  }

  async close(): Promise<void> {
    this.#tokens.clear();
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  async *#pages(path: string, field: 'repositories' | 'tags', scope: string, options: PageOptions): AsyncGenerator<string[]> {
    const maxPages = options.maxPages ?? MAX_PAGES;
    const timeoutMs = options.timeoutMs ?? LISTING_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    const what = describePath(path);
    let next: string | undefined = options.pageSize ? `${path}?n=${options.pageSize}` : path;
    let count = 0;
    let pages = 0;
    const seen = new Set<string>();
    while (next !== undefined) {
      if (seen.has(next)) throw new RegistryError('protocol', this.address.key, `The registry sent the same page link twice (${next})`);
      if (pages >= maxPages) {
        throw new RegistryError('protocol', this.address.key, `The registry ${this.address.key} sent more than ${maxPages} pages for the ${what}, each linking to another; Berth stops following them there`, {
          hint: "Ask the registry's operator to check its paging",
        });
      }
      seen.add(next);
      pages += 1;
      const response = await this.#get(next, scope, signal, false).catch((error: unknown) => {
        throw deadline.aborted && !options.signal?.aborted ? this.#listingTimedOut(what, timeoutMs, error) : error;
      });
      const entries = this.#parseList(response.body, field);
      count += entries.length;
      // An empty page ends the listing whatever its Link says: a fresh link to another empty page is a loop.
      if (entries.length === 0) return;
      yield entries;
      if (options.limit !== undefined && count >= options.limit) return;
      next = this.#sameOriginPath(parseLinkNext(response.headers.link));
    }
  }

  #listingTimedOut(what: string, timeoutMs: number, cause: unknown): RegistryError {
    return new RegistryError('unreachable', this.address.key, `The registry ${this.address.key} did not finish listing the ${what} within ${timeoutMs / 1000} s`, {
      hint: 'The registry is slow or keeps its answer open; try again later',
      cause,
    });
  }

  #parseList(body: string, field: 'repositories' | 'tags'): string[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      throw new RegistryError('protocol', this.address.key, `The registry answered with something other than JSON`, { cause: error });
    }
    const list = (parsed as Record<string, unknown> | null)?.[field];
    if (list === null || list === undefined) return [];
    if (!Array.isArray(list)) throw new RegistryError('protocol', this.address.key, `The registry's "${field}" is not a list`);
    return list.filter((entry): entry is string => typeof entry === 'string');
  }

  /** A `Link` target as a path on this registry; a link to another origin is refused (credentials would follow). */
  #sameOriginPath(link: string | undefined): string | undefined {
    if (link === undefined) return undefined;
    const url = new URL(link, this.address.origin);
    if (url.origin !== this.address.origin) {
      throw new RegistryError('protocol', this.address.key, `The registry's next-page link points to another server (${url.host})`);
    }
    return url.pathname + url.search;
  }

  async #get(path: string, scope: string, signal: AbortSignal | undefined, isPing: boolean): Promise<Response> {
    let response = await this.#send(path, this.#authorization(scope), signal);
    if (response.status === 401) {
      const challenges = parseWwwAuthenticate(response.headers['www-authenticate']);
      const bearer = challenges.find((c) => c.scheme === 'bearer');
      const basic = challenges.find((c) => c.scheme === 'basic');
      if (bearer) {
        // Anonymous users get a token too (public repositories); with credentials it carries their rights.
        const token = await this.#fetchToken(bearer, scope, signal);
        response = await this.#send(path, `Bearer ${token}`, signal);
      } else if (basic && this.#auth && 'username' in this.#auth && !this.#usesBasic) {
        this.#usesBasic = true;
        response = await this.#send(path, this.#basicHeader(), signal);
      }
    }
    if (response.status >= 200 && response.status < 300) return response;
    throw this.#errorFor(response, path, isPing);
  }

  #authorization(scope: string): string | undefined {
    const cached = this.#tokens.get(scope);
    if (cached && cached.expiresAt > Date.now()) return `Bearer ${cached.token}`;
    if (this.#usesBasic && this.#auth && 'username' in this.#auth) return this.#basicHeader();
    return undefined;
  }

  #basicHeader(): string {
    const auth = this.#auth as { username: string; password: string };
    return `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}`;
  }

  /** The token flow: GET the realm with Basic credentials (or POST an identity token), then retry with the token. */
  async #fetchToken(challenge: AuthChallenge, scope: string, signal: AbortSignal | undefined): Promise<string> {
    const realm = challenge.params.realm;
    if (!realm) throw new RegistryError('protocol', this.address.key, 'The registry asked for a bearer token but named no realm');
    let realmUrl: URL;
    try {
      realmUrl = new URL(realm);
    } catch (error) {
      throw new RegistryError('protocol', this.address.key, `The registry's token realm is not a URL`, { cause: error });
    }
    // A registry on HTTPS that sends its token request to http:// (even on loopback) is downgrading the credentials.
    const downgrade = this.address.scheme === 'https' && realmUrl.protocol !== 'https:';
    const problem = downgrade
      ? `Refusing to send credentials to the token realm ${realmUrl.host} over plain ${realmUrl.protocol.replace(':', '').toUpperCase()}: the registry itself is on HTTPS`
      : insecureCredentialTransport(realmUrl);
    if (problem) throw new RegistryError('insecure', this.address.key, problem, { hint: "Ask the registry's operator to serve its token endpoint over HTTPS" });
    const scopes = [challenge.params.scope ?? scope].filter((entry) => entry !== '');
    const auth = this.#auth;
    let response: Response;
    if (auth && 'identitytoken' in auth) {
      const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: auth.identitytoken, client_id: USER_AGENT });
      if (challenge.params.service) form.set('service', challenge.params.service);
      if (scopes.length > 0) form.set('scope', scopes.join(' '));
      response = await this.#sendTo(realmUrl, 'POST', undefined, signal, form.toString());
    } else {
      if (challenge.params.service) realmUrl.searchParams.set('service', challenge.params.service);
      for (const s of scopes) realmUrl.searchParams.append('scope', s);
      response = await this.#sendTo(realmUrl, 'GET', auth ? this.#basicHeader() : undefined, signal);
    }
    if (response.status < 200 || response.status >= 300) throw this.#errorFor(response, '(token)', true);
    let token: unknown;
    let expiresIn: unknown;
    try {
      const parsed = JSON.parse(response.body) as { token?: unknown; access_token?: unknown; expires_in?: unknown };
      token = parsed.token ?? parsed.access_token;
      expiresIn = parsed.expires_in;
    } catch (error) {
      throw new RegistryError('protocol', this.address.key, 'The token endpoint answered with something other than JSON', { cause: error });
    }
    if (typeof token !== 'string' || !token) throw new RegistryError('protocol', this.address.key, 'The token endpoint sent no token');
    const lifetimeSeconds = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : 60;
    // Renew a little early so a request never races the expiry.
    this.#tokens.set(scope, { token, expiresAt: Date.now() + Math.max(lifetimeSeconds - 10, 5) * 1000 });
    return token;
  }

  #send(path: string, authorization: string | undefined, signal: AbortSignal | undefined): Promise<Response> {
    return this.#sendTo(new URL(path, this.address.origin), 'GET', authorization, signal);
  }

  async #sendTo(url: URL, method: 'GET' | 'POST', authorization: string | undefined, signal: AbortSignal | undefined, form?: string): Promise<Response> {
    if (authorization) {
      const problem = insecureCredentialTransport(url);
      if (problem) throw new RegistryError('insecure', this.address.key, problem);
    }
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json' };
    if (authorization) headers.authorization = authorization;
    if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const where = `${method} ${url.host}${url.pathname}`;
    try {
      const response = await request(this.#dispatcher, url, { method, headers, body: form ?? null, signal: signal ?? null });
      const body = await this.#readCapped(response.body, where);
      this.#log(`registry ${where} → ${response.statusCode}`);
      return { status: response.statusCode, headers: response.headers, body };
    } catch (error) {
      if (isRegistryError(error)) throw error;
      if (signal?.aborted) throw new RegistryError('cancelled', this.address.key, `Cancelled: ${where}`, { cause: error });
      const code = (error as { code?: string }).code ?? (error as Error).name;
      this.#log(`registry ${where} failed: ${code}`);
      throw new RegistryError('unreachable', this.address.key, `Cannot reach the registry at ${url.host} (${code})`, {
        hint: url.protocol === 'https:' && this.address.loopback ? 'This loopback registry may speak plain HTTP: use http://' + url.host : 'Check the address and that the registry is running',
        cause: error,
      });
    }
  }

  /** The body as text, refused once it passes MAX_REGISTRY_BODY_BYTES (the rest is not read: the connection is dropped). */
  async #readCapped(body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown }, where: string): Promise<string> {
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of body) {
      length += chunk.length;
      if (length > MAX_REGISTRY_BODY_BYTES) {
        body.destroy();
        throw new RegistryError('protocol', this.address.key, `The registry's answer to ${where} is larger than ${MAX_REGISTRY_BODY_BYTES / (1024 * 1024)} MiB; Berth stops reading it`, {
          hint: 'A registry answers a listing page in a few KiB: check that the address is a registry',
        });
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, length).toString('utf8');
  }

  #errorFor(response: Response, path: string, isPing: boolean): RegistryError {
    const { messages, codes } = parseRegistryErrorBody(response.body);
    const registryMessage = this.#scrub(messages.join('; ')) || undefined;
    const status = response.status;
    const said = registryMessage ? `: ${registryMessage}` : '';
    const where = this.address.key;
    const common = { status, codes, ...(registryMessage ? { registryMessage } : {}) };
    if (status === 401) {
      return new RegistryError('unauthorized', where, `${where} refused the request (401)${said}`, {
        ...common,
        hint: this.#auth ? 'Check the user name and password, then sign in again' : 'Sign in to this registry',
      });
    }
    if (status === 403) {
      return new RegistryError('denied', where, `${where} denied access (403)${said}`, {
        ...common,
        hint: 'The account lacks permission for this; ask the registry operator for access',
      });
    }
    if (status === 404) {
      return new RegistryError('not-found', where, isPing ? `${where} does not serve the Registry API v2 (404)${said}` : `${where} has no ${describePath(path)} (404)${said}`, {
        ...common,
        hint: isPing ? 'Check the address: it must be a registry host, not a web page' : 'Refresh the Registries view',
      });
    }
    if (status === 400) return new RegistryError('bad-request', where, `${where} rejected the request (400)${said}`, common);
    return new RegistryError('server', where, `${where} failed (${status})${said}`, { ...common, hint: 'Try again later, or check the registry logs' });
  }

  /** Defense in depth: a registry could echo what it was sent; never let a password through into a message. */
  #scrub(text: string): string {
    const auth = this.#auth;
    const secret = auth ? ('password' in auth ? auth.password : auth.identitytoken) : '';
    return secret && secret.length >= 3 ? text.split(secret).join('***') : text;
  }
}
