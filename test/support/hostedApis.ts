// A loopback server that replays Docker Hub's and GitHub's web API answers from test/fixtures/hosted-apis/*.json, in
// their exact wire format (status, headers, JSON bodies, `next` URLs and `Link` headers). Neither service can be
// reached from here, and no real part can stand in for them. Absolute URLs of the real service in a body or header are
// rewritten to this server, as a recording proxy would. Reset times in epoch seconds (`x-ratelimit-reset`) are moved
// by as long as has passed since the recording, so a reset an hour after the recording is an hour after the request,
// whatever the date the tests run on. Every request is kept, so tests can say what was sent.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { dirname, join } from 'node:path';

export type HostedService = 'docker-hub' | 'github';

interface Exchange {
  readonly method: string;
  /** Path with query, or `*` for any path. */
  readonly path: string;
  /** The Authorization header the request must carry; absent: any (or none). */
  readonly auth?: string;
  /** For a JSON request body: fields it must have with these values. */
  readonly body?: Record<string, unknown>;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body_out: unknown;
}

export interface ReplayedRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: string;
}

export interface HostedApiServer {
  /** `http://127.0.0.1:<port>`: what BERTH_DOCKER_HUB_API / BERTH_GITHUB_API name in tests. */
  readonly origin: string;
  readonly requests: ReplayedRequest[];
  close(): Promise<void>;
}

const REAL_ORIGIN: Record<HostedService, string> = { 'docker-hub': 'https://hub.docker.com', github: 'https://api.github.com' };

/** The accounts the recordings know. */
export const HUB_USER = { username: 'berthtester', password: 'hub-Pa55-word' } as const;
export const HUB_TWO_FACTOR_USER = 'berth2fa';
export const GITHUB_TOKENS = {
  readPackages: 'ghp_BerthTestReadPackages0000000000000000',
  repoScopeOnly: 'ghp_BerthTestRepoScopeOnly00000000000000',
  rateLimited: 'ghp_BerthTestRateLimited000000000000000',
} as const;

/** The fixtures folder, found upwards from here: this module also runs bundled into out/ for the extension host. */
function fixturesDir(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'test', 'fixtures', 'hosted-apis');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`test/fixtures/hosted-apis not found above ${__dirname}`);
  }
}

interface Recording {
  /** When the answers were recorded, in epoch seconds: what their reset times count from. */
  readonly recordedAt: number;
  readonly exchanges: Exchange[];
}

function loadRecording(service: HostedService): Recording {
  const file = join(fixturesDir(), `${service}.json`);
  const recording = JSON.parse(readFileSync(file, 'utf8')) as Recording;
  if (!Number.isInteger(recording.recordedAt)) throw new Error(`${file} has no recordedAt (epoch seconds)`);
  return recording;
}

/** Headers that hold a moment in epoch seconds, moved to the same distance from now as from the recording. */
const EPOCH_HEADERS = new Set(['x-ratelimit-reset']);

function replayedHeaders(recorded: Record<string, string>, recordedAt: number, rewrite: (text: string) => string): Record<string, string> {
  const shift = Math.floor(Date.now() / 1000) - recordedAt;
  return Object.fromEntries(
    Object.entries(recorded).map(([name, value]) => [name, EPOCH_HEADERS.has(name.toLowerCase()) ? String(Number(value) + shift) : rewrite(value)]),
  );
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function bodyMatches(expected: Record<string, unknown> | undefined, text: string): boolean {
  if (expected === undefined) return true;
  try {
    const given = JSON.parse(text) as Record<string, unknown>;
    return Object.entries(expected).every(([key, value]) => given[key] === value);
  } catch {
    return false;
  }
}

export async function startHostedApi(service: HostedService): Promise<HostedApiServer> {
  const { exchanges, recordedAt } = loadRecording(service);
  const requests: ReplayedRequest[] = [];
  let origin = '';
  const rewrite = (text: string): string => text.split(REAL_ORIGIN[service]).join(origin);
  const server: Server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const path = request.url ?? '/';
      const authorization = request.headers.authorization;
      requests.push({ method: request.method ?? 'GET', path, authorization, body });
      const exchange = exchanges.find(
        (candidate) =>
          candidate.method === request.method &&
          (candidate.path === '*' || candidate.path === path) &&
          (candidate.auth === undefined || candidate.auth === authorization) &&
          bodyMatches(candidate.body, body),
      );
      if (!exchange) {
        response.writeHead(599, { 'content-type': 'text/plain' }).end(`no recorded exchange for ${request.method ?? ''} ${path}`);
        return;
      }
      const headers = replayedHeaders(exchange.headers, recordedAt, rewrite);
      response.writeHead(exchange.status, headers).end(rewrite(JSON.stringify(exchange.body_out)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the replay server has no port');
  origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
