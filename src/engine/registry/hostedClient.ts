/**
 * What the hosted catalogs (hostedCatalogs.ts) share: their options, the API address each may use, and the HTTP and
 * error plumbing of a service's JSON API. Credentials go only to the service's fixed HTTPS address, or to a loopback
 * address named by the test override (BERTH_DOCKER_HUB_API / BERTH_GITHUB_API, refused unless loopback).
 */
import { Agent, request, type Dispatcher } from '../connection';
import { isLoopbackHost } from './auth';
import type { RegistryClientOptions } from './registry';
import { RegistryError, type RegistryAuth } from './registryProtocol';

export const DOCKER_HUB_API = 'https://hub.docker.com';
export const GITHUB_API = 'https://api.github.com';
/** The registry keys that have a hosted catalog. */
export type HostedRegistry = 'docker.io' | 'ghcr.io';

export interface HostedCatalogOptions extends Omit<RegistryClientOptions, 'address'> {
  /** Where the service's API is; by default its public address, else a loopback test override (see apiBaseFor). */
  readonly apiBase?: string | undefined;
}

/** What tells one hosted service from the other to the shared plumbing. */
export interface HostedService {
  readonly registry: HostedRegistry;
  /** The service's public API address. */
  readonly defaultBase: string;
  /** Its name in messages. */
  readonly name: string;
  /** The media type its API answers with. */
  readonly accept: string;
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

export const PAGE_SIZE = 100;
const MAX_PAGES = 200;
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export function header(answer: Answer, name: string): string | undefined {
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
export function retryHint(answer: Answer): string {
  const when = retryWhen(answer);
  return when === undefined ? 'Wait a while, then refresh the Registries view' : `Refresh the Registries view ${when}`;
}

/** The service's own words from an error body: Hub's `detail`/`message`/`errinfo`, GitHub's `message`. */
export function serviceWords(body: string): string | undefined {
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
export abstract class HostedClient implements RepositoryCatalog {
  protected readonly registry: HostedRegistry;
  protected readonly auth: RegistryAuth | undefined;
  protected readonly base: URL;
  protected readonly serviceName: string;
  readonly #accept: string;
  readonly #log: (line: string) => void;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;

  constructor(service: HostedService, options: HostedCatalogOptions) {
    const registry = service.registry;
    this.registry = registry;
    this.serviceName = service.name;
    this.#accept = service.accept;
    this.auth = options.auth;
    this.base = new URL(options.apiBase ?? service.defaultBase);
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
    const headers: Record<string, string> = { 'user-agent': 'berth-registry-client', accept: this.#accept };
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
}
