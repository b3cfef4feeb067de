/**
 * The Registry HTTP API v2 without a connection: what a registry address means (scheme, Docker Hub's aliases), when
 * credentials may travel, the registry's errors, and the header and body parsers (`Link`, `WWW-Authenticate`,
 * `errors[]`). registry.ts is the client that uses them.
 */
import { isLoopbackHost } from './auth';

/** What a registry accepts: a password (or token) for Basic auth, or an identity (refresh) token. */
export type RegistryAuth = { username: string; password: string } | { identitytoken: string };

export type RegistryErrorKind =
  | 'unauthorized'
  | 'denied'
  | 'not-found'
  | 'insecure'
  | 'bad-request'
  | 'unreachable'
  | 'protocol'
  | 'server'
  | 'cancelled';

/** A failing registry call: the registry's own words (`errors[].message`) plus what the user can do next. */
export class RegistryError extends Error {
  override readonly name = 'RegistryError';
  readonly kind: RegistryErrorKind;
  readonly status: number | undefined;
  /** The registry's own message(s), verbatim, joined with `; `. */
  readonly registryMessage: string | undefined;
  /** The registry codes, e.g. `UNAUTHORIZED`, `NAME_UNKNOWN`. */
  readonly codes: readonly string[];
  readonly hint: string | undefined;
  /** host[:port] of the registry; never carries credentials. */
  readonly registry: string;

  constructor(
    kind: RegistryErrorKind,
    registry: string,
    message: string,
    options: { status?: number; registryMessage?: string; codes?: readonly string[]; hint?: string; cause?: unknown } = {},
  ) {
    super(options.hint ? `${message}. ${options.hint}` : message, { cause: options.cause });
    this.kind = kind;
    this.registry = registry;
    this.status = options.status;
    this.registryMessage = options.registryMessage;
    this.codes = options.codes ?? [];
    this.hint = options.hint;
  }
}

export function isRegistryError(value: unknown, kind?: RegistryErrorKind): value is RegistryError {
  return value instanceof RegistryError && (kind === undefined || value.kind === kind);
}

// Addresses

export interface RegistryAddress {
  /** host[:port], lower-case, the key credentials are stored under (Docker Hub is `docker.io`). */
  readonly key: string;
  /** Where the v2 API is served, e.g. `https://registry-1.docker.io` or `http://127.0.0.1:5055`. */
  readonly origin: string;
  readonly scheme: 'http' | 'https';
  readonly hostname: string;
  readonly loopback: boolean;
}

const DOCKER_HUB_ALIASES = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io', 'registry.hub.docker.com']);

/**
 * Parses what a user or a docker config.json calls a registry: `127.0.0.1:5055`, `http://127.0.0.1:5055`,
 * `registry.example.com`, `https://index.docker.io/v1/`. Without a scheme, loopback registries speak plain HTTP
 * (as the daemon allows) and every other registry HTTPS.
 */
export function parseRegistryAddress(input: string): RegistryAddress {
  const trimmed = input.trim();
  if (!trimmed) throw new RegistryError('bad-request', '(none)', 'No registry address given', { hint: 'Enter a host such as registry.example.com or 127.0.0.1:5000' });
  const explicit = /^(https?):\/\//i.exec(trimmed);
  let url: URL;
  try {
    url = new URL(explicit ? trimmed : `https://${trimmed}`);
  } catch (error) {
    throw new RegistryError('bad-request', '(invalid)', `"${trimmed}" is not a registry address`, {
      hint: 'Enter a host such as registry.example.com or 127.0.0.1:5000',
      cause: error,
    });
  }
  if (url.username || url.password) {
    // Never echo the input: it holds a secret.
    throw new RegistryError('bad-request', url.host, 'A registry address must not contain credentials', {
      hint: 'Enter the host only; Berth asks for the user name and password separately',
    });
  }
  const hostname = url.hostname.toLowerCase();
  const loopback = isLoopbackHost(hostname);
  const scheme = explicit ? (explicit[1]!.toLowerCase() as 'http' | 'https') : loopback ? 'http' : 'https';
  const hub = DOCKER_HUB_ALIASES.has(hostname);
  const key = hub ? 'docker.io' : url.host.toLowerCase();
  const apiHost = hub ? 'registry-1.docker.io' : url.host.toLowerCase();
  return { key, origin: `${scheme}://${apiHost}`, scheme, hostname, loopback };
}

/** The reason credentials must not go to `url`, or undefined when HTTPS or loopback makes it safe. */
export function insecureCredentialTransport(url: URL | string): string | undefined {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return undefined;
  return (
    `Refusing to send credentials to ${parsed.host} over plain ${parsed.protocol.replace(':', '').toUpperCase()}: ` +
    'they would cross the network as readable text. Only HTTPS registries and loopback addresses (127.0.0.1, ::1, localhost) get credentials'
  );
}

// Header parsers

/** The target of the `rel="next"` link in a `Link` header (RFC 8288), or undefined when there is no next page. */
export function parseLinkNext(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(', ') : header;
  const linkPattern = /<([^>]*)>((?:\s*;\s*[^;,]+(?:=(?:"[^"]*"|[^;,]*))?)*)/g;
  for (const match of text.matchAll(linkPattern)) {
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(params);
    const relations = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (relations.includes('next')) return match[1];
  }
  return undefined;
}

export interface AuthChallenge {
  /** Lower-case scheme: `basic`, `bearer`, … */
  readonly scheme: string;
  /** Parameters with lower-case names: realm, service, scope, error, … */
  readonly params: Readonly<Record<string, string>>;
}

/** Parses `WWW-Authenticate` (RFC 7235), e.g. `Bearer realm="https://auth/token",service="reg",scope="a:b:pull"`. */
export function parseWwwAuthenticate(header: string | string[] | undefined): AuthChallenge[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join(', ') : header;
  const challenges: { scheme: string; params: Record<string, string> }[] = [];
  const token = /\s*,?\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)(?:\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*)))?/y;
  let current: { scheme: string; params: Record<string, string> } | undefined;
  let position = 0;
  while (position < text.length) {
    token.lastIndex = position;
    const match = token.exec(text);
    if (!match || match[0].length === 0) break;
    position = token.lastIndex;
    const name = match[1]!;
    const quoted = match[2];
    const bare = match[3];
    const hasValue = quoted !== undefined || (bare !== undefined && match[0].includes('='));
    if (!hasValue) {
      // A bare token starts a new challenge (the scheme); a token68 value after it is not used by registries.
      current = { scheme: name.toLowerCase(), params: {} };
      challenges.push(current);
    } else if (current) {
      current.params[name.toLowerCase()] = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (bare ?? '');
    }
  }
  return challenges;
}

/** The `errors[].message` texts and codes of a registry error body; tolerant of anything else. */
export function parseRegistryErrorBody(body: string): { messages: string[]; codes: string[] } {
  try {
    const parsed = JSON.parse(body) as { errors?: { code?: unknown; message?: unknown }[]; message?: unknown };
    const errors = Array.isArray(parsed.errors) ? parsed.errors : [];
    const messages = errors.map((e) => (typeof e.message === 'string' ? e.message : '')).filter(Boolean);
    const codes = errors.map((e) => (typeof e.code === 'string' ? e.code : '')).filter(Boolean);
    if (messages.length === 0 && typeof parsed.message === 'string') messages.push(parsed.message);
    return { messages, codes };
  } catch {
    const text = body.trim();
    return { messages: text && text.length < 300 && !text.startsWith('<') ? [text] : [], codes: [] };
  }
}
