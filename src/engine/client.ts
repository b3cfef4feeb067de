/**
 * EngineClient: the typed Engine API over the transport. The API version is negotiated lazily from the first ping
 * (min of the client's highest and the daemon's), or fixed. Every path carries the version prefix; JSON bodies carry
 * their content type; query booleans are 1/0 and `filters` is JSON. Failures are EngineErrors that show the engine's
 * own message and what to do next.
 */
import type { Duplex } from 'node:stream';
import { RegistrySecurity, assertSafeToSendCredentials, encodeRegistryAuth } from './auth';
import { FrameDemuxer, progressLineError, JsonLineDecoder, type ProgressLine } from './decoders';
import { resolveEndpoint, type Endpoint } from './endpoint';
import { EngineError, engineErrorFromResponse, isEngineError, type ErrorSubject } from './errors';
import { assertValidContainerName, parseImageReference, pullParameters, familiarName } from './reference';
import { buildQuery } from './query';
import { Transport, type BufferedResponse, type HttpMethod, type RequestBody, type TransportOptions } from './transport';
import type {
  AttachOptions,
  CallOptions,
  CommitOptions,
  ContainerCreateBody,
  ContainerCreateResult,
  ContainerInspect,
  ContainerLogsOptions,
  ContainerSummary,
  CreateContainerOptions,
  CreateExecOptions,
  EngineEvent,
  EventsOptions,
  ExecInspect,
  ImageDeleteItem,
  ImageInspect,
  ImageSummary,
  ImportImageOptions,
  KillOptions,
  ListContainersOptions,
  ListImagesOptions,
  OutputChunk,
  PingInfo,
  PullProgress,
  RegistryCallOptions,
  RegistryCredential,
  RemoveContainerOptions,
  RemoveImageOptions,
  ResizeOptions,
  StartExecOptions,
  StopOptions,
  TagImageOptions,
  VersionInfo,
  WaitHandle,
  WaitOptions,
  WaitResult,
} from './types';

/** The highest API version this client speaks. At least 1.44: Docker 29 refuses anything lower. */
export const CLIENT_MAX_API_VERSION = '1.51';
/** What the Go client assumes when a daemon's ping carries no Api-Version. */
const FALLBACK_API_VERSION = '1.24';

export type LogFunction = (line: string) => void;

export interface EngineClientOptions {
  readonly endpoint: Endpoint;
  /** A fixed API version (e.g. '1.41'); no negotiation then. */
  readonly apiVersion?: string | undefined;
  /** Request-level debug lines (method, path, status, time). Never headers, so never X-Registry-Auth. */
  readonly log?: LogFunction | undefined;
  readonly transport?: TransportOptions | undefined;
}

export interface FromEnvironmentOptions {
  readonly host?: string | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  readonly homeDir?: string | undefined;
  readonly apiVersion?: string | undefined;
  readonly log?: LogFunction | undefined;
}

const JSON_HEADERS: readonly string[] = Object.freeze(['content-type', 'application/json']);
const TAR_HEADERS: readonly string[] = Object.freeze(['content-type', 'application/x-tar']);
const VERSION_PATTERN = /^\d+\.\d+$/;
/**
 * Waits, logs and events get their headers at once; their bodies run without a timeout and end through the signal.
 * Pulls and pushes wait for the registry before the first byte, so they have no headers timeout either.
 */
const STREAM_HEADERS_TIMEOUT_MS = 60_000;

interface CallSpec extends CallOptions {
  readonly method: HttpMethod;
  readonly path: string;
  readonly subject: ErrorSubject;
  readonly headers?: readonly string[] | undefined;
  readonly body?: RequestBody | undefined;
  /** Also accept 304 Not Modified (start and stop: already in that state). */
  readonly ok304?: boolean;
  readonly headersTimeout?: number | undefined;
  readonly bodyTimeout?: number | undefined;
  /** May take long (stop, restart, commit, import): sent outside the bounded pool of short calls. */
  readonly long?: boolean | undefined;
  /** Carries registry credentials, so a refusal means they are wrong. */
  readonly credentialsSent?: boolean | undefined;
}

export class EngineClient {
  readonly endpoint: Endpoint;
  private readonly transport: Transport;
  private readonly log: LogFunction | undefined;
  /** `/v1.41`, set once negotiated or fixed. */
  private prefix: string | undefined;
  private apiVersion: string | undefined;
  private negotiation: Promise<string> | undefined;
  private lastPing: PingInfo | undefined;
  private insecureRegistries: Promise<RegistrySecurity> | undefined;

  constructor(options: EngineClientOptions) {
    this.endpoint = options.endpoint;
    this.log = options.log;
    this.transport = new Transport(options.endpoint, options.transport);
    if (options.apiVersion !== undefined && options.apiVersion !== '') {
      const fixed = options.apiVersion.replace(/^v/, '');
      if (!VERSION_PATTERN.test(fixed)) {
        throw new EngineError('bad-request', `Invalid API version "${options.apiVersion}"`, {
          hint: 'Write it as major.minor, e.g. 1.41, or leave it unset to negotiate',
        });
      }
      this.apiVersion = fixed;
      this.prefix = `/v${fixed}`;
    }
  }

  /** Resolves the engine like the docker CLI (explicit host, DOCKER_HOST, contexts, default sockets). */
  static fromEnvironment(options: FromEnvironmentOptions = {}): EngineClient {
    const endpoint = resolveEndpoint({ host: options.host, env: options.env, homeDir: options.homeDir });
    return new EngineClient({ endpoint, apiVersion: options.apiVersion, log: options.log });
  }

  // ---- version negotiation -------------------------------------------------------------------------------------

  /** The API version in use; pings once to negotiate it. A failed ping is retried on the next call. */
  async negotiatedVersion(options: CallOptions = {}): Promise<string> {
    if (this.apiVersion !== undefined) return this.apiVersion;
    const prefix = await this.negotiate(options.signal);
    return prefix.slice(2);
  }

  private negotiate(signal: AbortSignal | undefined): Promise<string> {
    if (this.prefix !== undefined) return Promise.resolve(this.prefix);
    this.negotiation ??= this.pingFor(signal, 'HEAD').then(
      (info) => {
        const daemon = info.apiVersion ?? FALLBACK_API_VERSION;
        const version = compareVersions(daemon, CLIENT_MAX_API_VERSION) < 0 ? daemon : CLIENT_MAX_API_VERSION;
        this.apiVersion = version;
        this.prefix = `/v${version}`;
        this.log?.(`negotiated API version ${version} (engine ${info.apiVersion ?? 'unknown'}, client ${CLIENT_MAX_API_VERSION})`);
        return this.prefix;
      },
      (error: unknown) => {
        this.negotiation = undefined;
        throw error;
      },
    );
    // Concurrent callers share one ping; if another caller's signal cancelled it, this one tries again.
    return this.negotiation.catch((error: unknown) => {
      if (isEngineError(error, 'cancelled') && signal?.aborted !== true) return this.negotiate(signal);
      throw error;
    });
  }

  /**
   * GET /_ping: the engine's highest API version (Api-Version), OS type, Server and Libpod-Api-Version headers.
   * (Negotiation uses HEAD like the Go client; undici cannot keep a connection alive after a HEAD, so ping uses GET.)
   */
  ping(options: CallOptions = {}): Promise<PingInfo> {
    return this.pingFor(options.signal, 'GET');
  }

  private async pingFor(signal: AbortSignal | undefined, method: 'HEAD' | 'GET'): Promise<PingInfo> {
    let response = await this.send({ method, path: '/_ping', subject: 'engine', signal });
    if (response.status !== 200 && method === 'HEAD') {
      response = await this.send({ method: 'GET', path: '/_ping', subject: 'engine', signal });
    }
    const info: PingInfo = {
      apiVersion: response.header('api-version'),
      osType: response.header('ostype'),
      server: response.header('server'),
      libpodApiVersion: response.header('libpod-api-version'),
    };
    if (response.status !== 200 && info.apiVersion === undefined) {
      throw engineErrorFromResponse(response.status, response.body, { subject: 'engine', endpoint: this.endpoint.display });
    }
    this.lastPing = info;
    return info;
  }

  /** The last successful ping (engine kind, highest API version), if any. */
  get pingInfo(): PingInfo | undefined {
    return this.lastPing;
  }

  async version(options: CallOptions = {}): Promise<VersionInfo> {
    return this.json<VersionInfo>({ method: 'GET', path: '/version', subject: 'engine', signal: options.signal });
  }

  async info(options: CallOptions = {}): Promise<Record<string, unknown>> {
    return this.json<Record<string, unknown>>({ method: 'GET', path: '/info', subject: 'engine', signal: options.signal });
  }

  // ---- containers ----------------------------------------------------------------------------------------------

  listContainers(options: ListContainersOptions = {}): Promise<ContainerSummary[]> {
    const query = buildQuery({ all: options.all, filters: options.filters, limit: options.limit, size: options.size });
    return this.json({ method: 'GET', path: `/containers/json${query}`, subject: 'container', signal: options.signal });
  }

  inspectContainer(id: string, options: CallOptions = {}): Promise<ContainerInspect> {
    return this.json({ method: 'GET', path: `/containers/${encodeURIComponent(id)}/json`, subject: 'container', signal: options.signal });
  }

  /** Creates a container; a name the engine would refuse is refused here first, with a specific message. */
  async createContainer(body: ContainerCreateBody, options: CreateContainerOptions = {}): Promise<ContainerCreateResult> {
    if (options.name !== undefined) assertValidContainerName(options.name);
    const query = buildQuery({ name: options.name });
    return this.json({
      method: 'POST',
      path: `/containers/create${query}`,
      subject: 'container',
      headers: JSON_HEADERS,
      body: JSON.stringify(body),
      signal: options.signal,
    });
  }

  async startContainer(id: string, options: CallOptions = {}): Promise<void> {
    await this.call({ method: 'POST', path: `/containers/${encodeURIComponent(id)}/start`, subject: 'container', ok304: true, signal: options.signal });
  }

  async stopContainer(id: string, options: StopOptions = {}): Promise<void> {
    const query = buildQuery({ t: options.timeoutSeconds });
    await this.call({
      method: 'POST',
      path: `/containers/${encodeURIComponent(id)}/stop${query}`,
      subject: 'container',
      ok304: true,
      signal: options.signal,
      headersTimeout: stopHeadersTimeout(options.timeoutSeconds),
      long: true,
    });
  }

  async restartContainer(id: string, options: StopOptions = {}): Promise<void> {
    const query = buildQuery({ t: options.timeoutSeconds });
    await this.call({
      method: 'POST',
      path: `/containers/${encodeURIComponent(id)}/restart${query}`,
      subject: 'container',
      signal: options.signal,
      headersTimeout: stopHeadersTimeout(options.timeoutSeconds),
      long: true,
    });
  }

  async killContainer(id: string, options: KillOptions = {}): Promise<void> {
    const query = buildQuery({ signal: options.killSignal });
    await this.call({ method: 'POST', path: `/containers/${encodeURIComponent(id)}/kill${query}`, subject: 'container', signal: options.signal });
  }

  async removeContainer(id: string, options: RemoveContainerOptions = {}): Promise<void> {
    const query = buildQuery({ force: options.force, v: options.volumes });
    await this.call({ method: 'DELETE', path: `/containers/${encodeURIComponent(id)}${query}`, subject: 'container', signal: options.signal });
  }

  /**
   * Opens `POST /containers/{id}/wait` and resolves as soon as the engine has registered the wait (its headers are
   * in), so a container started afterwards cannot exit unseen. `result` settles when the condition is met.
   */
  async waitContainer(id: string, options: WaitOptions = {}): Promise<WaitHandle> {
    const query = buildQuery({ condition: options.condition });
    const response = await this.openStream({
      method: 'POST',
      path: `/containers/${encodeURIComponent(id)}/wait${query}`,
      subject: 'container',
      signal: options.signal,
      // The engine sends the headers as soon as the wait is registered; the body comes when the condition is met.
      headersTimeout: STREAM_HEADERS_TIMEOUT_MS,
      bodyTimeout: 0,
    });
    const result = (async (): Promise<WaitResult> => {
      const body = await collect(response.body);
      const text = body.toString('utf8').trim();
      let parsed: WaitResult & { message?: string };
      try {
        parsed = JSON.parse(text) as WaitResult & { message?: string };
      } catch {
        throw new EngineError('protocol', text === '' ? 'The engine ended the wait without a result' : `Unexpected wait result: ${text.slice(0, 200)}`, {
          endpoint: this.endpoint.display,
          hint: 'Check that the container still exists and wait again',
        });
      }
      if (typeof parsed.StatusCode !== 'number') {
        throw engineErrorFromResponse(500, text, { subject: 'container', endpoint: this.endpoint.display });
      }
      return parsed;
    })();
    // The caller may drop the handle; a later rejection must not become an unhandled one.
    result.catch(() => undefined);
    return { result };
  }

  /**
   * The container's output. Framing follows the container's TTY setting (raw with a TTY, multiplexed without),
   * read from inspect when `tty` is not given. A type-3 frame (daemon error) throws EngineError.
   */
  async *containerLogs(id: string, options: ContainerLogsOptions = {}): AsyncGenerator<OutputChunk, void, undefined> {
    const stdout = options.stdout ?? true;
    const stderr = options.stderr ?? true;
    if (!stdout && !stderr) {
      throw new EngineError('bad-request', 'Logs need stdout, stderr or both', { hint: 'Ask for at least one of the two streams' });
    }
    const tty = options.tty ?? (await this.inspectContainer(id, { signal: options.signal })).Config.Tty;
    const query = buildQuery({
      stdout,
      stderr,
      follow: options.follow,
      tail: options.tail,
      since: options.since,
      timestamps: options.timestamps,
    });
    const response = await this.openStream({
      method: 'GET',
      path: `/containers/${encodeURIComponent(id)}/logs${query}`,
      subject: 'container',
      signal: options.signal,
      headersTimeout: STREAM_HEADERS_TIMEOUT_MS,
      bodyTimeout: 0,
    });
    const body = response.body;
    try {
      if (tty) {
        for await (const data of body) yield { stream: 'stdout', data };
        return;
      }
      const pending: OutputChunk[] = [];
      const demuxer = new FrameDemuxer((chunk) => pending.push(chunk));
      for await (const data of body) {
        demuxer.push(data);
        for (let i = 0; i < pending.length; i++) yield pending[i] as OutputChunk;
        pending.length = 0;
      }
      demuxer.end();
    } finally {
      response.cancel();
    }
  }

  // ---- images --------------------------------------------------------------------------------------------------

  listImages(options: ListImagesOptions = {}): Promise<ImageSummary[]> {
    const query = buildQuery({ all: options.all, filters: options.filters });
    return this.json({ method: 'GET', path: `/images/json${query}`, subject: 'image', signal: options.signal });
  }

  inspectImage(name: string, options: CallOptions = {}): Promise<ImageInspect> {
    return this.json({ method: 'GET', path: `/images/${encodeImageName(name)}/json`, subject: 'image', signal: options.signal });
  }

  removeImage(name: string, options: RemoveImageOptions = {}): Promise<ImageDeleteItem[]> {
    const query = buildQuery({ force: options.force, noprune: options.noPrune });
    return this.json({ method: 'DELETE', path: `/images/${encodeImageName(name)}${query}`, subject: 'image', signal: options.signal });
  }

  async tagImage(name: string, options: TagImageOptions): Promise<void> {
    const query = buildQuery({ repo: options.repo, tag: options.tag });
    await this.call({ method: 'POST', path: `/images/${encodeImageName(name)}/tag${query}`, subject: 'image', signal: options.signal });
  }

  /**
   * Pulls an image, yielding progress lines. An `errorDetail` line throws EngineError although the status was 200.
   * The pull is complete only when the iteration ends; breaking out of it cancels the pull on the engine.
   */
  async *pullImage(reference: string, options: RegistryCallOptions = {}): AsyncGenerator<PullProgress, void, undefined> {
    const parsed = parseImageReference(reference);
    const { fromImage, tag } = pullParameters(parsed);
    const headers = await this.registryAuthHeaders(parsed.registry, options.auth, false, options.signal);
    const path = `/images/create${buildQuery({ fromImage, tag })}`;
    yield* this.progressStream('pull', path, headers, options.auth !== undefined, options.signal);
  }

  /** Pushes a local image (a tag of it) to its registry, yielding progress; in-band failures throw. */
  async *pushImage(reference: string, options: RegistryCallOptions = {}): AsyncGenerator<PullProgress, void, undefined> {
    const parsed = parseImageReference(reference);
    // Push always sends X-Registry-Auth: an empty credential means anonymous.
    const headers = await this.registryAuthHeaders(parsed.registry, options.auth, true, options.signal);
    const query = buildQuery({ tag: parsed.tag });
    const name = familiarName(parsed);
    yield* this.progressStream('push', `/images/${encodeImageName(name)}/push${query}`, headers, options.auth !== undefined, options.signal);
  }

  /** Imports a root file system tarball as an image (`POST /images/create?fromSrc=-`). Resolves the new image's id. */
  async importImage(tar: Buffer | NodeJS.ReadableStream, options: ImportImageOptions): Promise<{ Id: string | undefined }> {
    const query = buildQuery({ fromSrc: '-', repo: options.repo, tag: options.tag, changes: options.changes, message: options.message });
    const response = await this.call({
      method: 'POST',
      path: `/images/create${query}`,
      subject: 'image',
      headers: TAR_HEADERS,
      body: tar,
      signal: options.signal,
      headersTimeout: 0,
      bodyTimeout: 0,
      long: true,
    });
    let id: string | undefined;
    const decoder = new JsonLineDecoder<ProgressLine>((line) => {
      const error = progressLineError(line);
      if (error) throw error;
      if (typeof line.status === 'string' && /^sha256:[0-9a-f]{64}$/.test(line.status)) id = line.status;
    });
    decoder.push(response.body);
    decoder.end();
    return { Id: id };
  }

  /** Creates an image from a container's changes (`POST /commit`). */
  commitContainer(id: string, options: CommitOptions & CallOptions = {}): Promise<{ Id: string }> {
    const query = buildQuery({
      container: id,
      repo: options.repo,
      tag: options.tag,
      comment: options.comment,
      author: options.author,
      pause: options.pause,
      changes: options.changes,
    });
    return this.json({
      method: 'POST',
      path: `/commit${query}`,
      subject: 'container',
      headers: JSON_HEADERS,
      body: '{}',
      signal: options.signal,
      headersTimeout: 0,
      long: true,
    });
  }

  // ---- events --------------------------------------------------------------------------------------------------

  /** The engine's event stream, one event at a time, until the signal aborts or the engine goes away. */
  async *events(options: EventsOptions = {}): AsyncGenerator<EngineEvent, void, undefined> {
    const query = buildQuery({ since: options.since, until: options.until, filters: options.filters });
    const response = await this.openStream({
      method: 'GET',
      path: `/events${query}`,
      subject: 'engine',
      signal: options.signal,
      headersTimeout: STREAM_HEADERS_TIMEOUT_MS,
      bodyTimeout: 0,
    });
    const pending: EngineEvent[] = [];
    const decoder = new JsonLineDecoder<EngineEvent>((event) => pending.push(event));
    try {
      for await (const chunk of response.body) {
        decoder.push(chunk);
        for (let i = 0; i < pending.length; i++) yield pending[i] as EngineEvent;
        pending.length = 0;
      }
      decoder.end();
      yield* pending;
    } finally {
      response.cancel();
    }
  }

  // ---- exec ----------------------------------------------------------------------------------------------------

  createExec(id: string, options: CreateExecOptions): Promise<{ Id: string }> {
    const body = {
      Cmd: options.cmd,
      Tty: options.tty ?? false,
      AttachStdin: options.attachStdin ?? false,
      AttachStdout: options.attachStdout ?? true,
      AttachStderr: options.attachStderr ?? true,
      ...(options.env ? { Env: options.env } : {}),
      ...(options.workingDir !== undefined ? { WorkingDir: options.workingDir } : {}),
      ...(options.user !== undefined ? { User: options.user } : {}),
    };
    return this.json({
      method: 'POST',
      path: `/containers/${encodeURIComponent(id)}/exec`,
      subject: 'container',
      headers: JSON_HEADERS,
      body: JSON.stringify(body),
      signal: options.signal,
    });
  }

  /**
   * Starts an exec attached, over the connection the engine hijacks (`Connection: Upgrade`, `Upgrade: tcp`). The Duplex
   * is the raw stream: with a TTY, the terminal's bytes both ways; without, multiplexed frames out (use demux()).
   */
  startExecAttached(execId: string, options: StartExecOptions): Promise<Duplex> {
    return this.upgraded({
      method: 'POST',
      path: `/exec/${encodeURIComponent(execId)}/start`,
      subject: 'exec',
      headers: JSON_HEADERS,
      body: JSON.stringify({ Detach: false, Tty: options.tty }),
      signal: options.signal,
    });
  }

  /**
   * Attaches to a container's streams over the hijacked connection (`POST /containers/{id}/attach?stream=1`), as
   * `docker run` does before it starts the container: resolves once the engine has attached, so everything the
   * container prints from its start on arrives, byte for byte (no log driver in between), with backpressure on the
   * container instead of loss. The Duplex ends when the container's output ends. Without a TTY it carries
   * multiplexed frames (use demux()), with one raw bytes.
   */
  attachContainer(id: string, options: AttachOptions = {}): Promise<Duplex> {
    const query = buildQuery({
      stream: true,
      stdin: options.stdin ?? false,
      stdout: options.stdout ?? true,
      stderr: options.stderr ?? true,
      logs: options.logs,
    });
    return this.upgraded({ method: 'POST', path: `/containers/${encodeURIComponent(id)}/attach${query}`, subject: 'container', signal: options.signal });
  }

  async resizeExec(execId: string, options: ResizeOptions): Promise<void> {
    const query = buildQuery({ h: options.rows, w: options.cols });
    await this.call({ method: 'POST', path: `/exec/${encodeURIComponent(execId)}/resize${query}`, subject: 'exec', signal: options.signal });
  }

  /** Sizes a running container's TTY (`POST /containers/{id}/resize`), as docker run -t does at start and on SIGWINCH. */
  async resizeContainer(id: string, options: ResizeOptions): Promise<void> {
    const query = buildQuery({ h: options.rows, w: options.cols });
    await this.call({ method: 'POST', path: `/containers/${encodeURIComponent(id)}/resize${query}`, subject: 'container', signal: options.signal });
  }

  inspectExec(execId: string, options: CallOptions = {}): Promise<ExecInspect> {
    return this.json({ method: 'GET', path: `/exec/${encodeURIComponent(execId)}/json`, subject: 'exec', signal: options.signal });
  }

  /** Closes kept-alive connections once requests in flight are done. */
  close(): Promise<void> {
    return this.transport.close();
  }

  // ---- plumbing ------------------------------------------------------------------------------------------------

  /** A versioned call that asks the engine to hijack the connection; resolves the raw socket, or throws the mapped error. */
  private async upgraded(spec: CallSpec): Promise<Duplex> {
    const prefix = this.prefix ?? (await this.negotiate(spec.signal));
    const path = prefix + spec.path;
    const started = this.log ? performance.now() : 0;
    const response = await this.transport.upgrade({ method: spec.method, path, headers: spec.headers, body: spec.body, signal: spec.signal }, 'tcp');
    if (this.log) this.log(`${spec.method} ${path} → ${response.status} (${(performance.now() - started).toFixed(1)} ms)`);
    if ('socket' in response) return response.socket;
    if (response.status >= 200 && response.status < 300) {
      throw new EngineError('protocol', `The engine answered ${response.status} instead of upgrading the connection`, {
        endpoint: this.endpoint.display,
        hint: 'This engine does not support attaching over an upgraded connection',
      });
    }
    throw engineErrorFromResponse(response.status, response.body, { subject: spec.subject, endpoint: this.endpoint.display });
  }

  private async json<T>(spec: CallSpec): Promise<T> {
    const response = await this.call(spec);
    return JSON.parse(response.body.toString('utf8')) as T;
  }

  /** A versioned, buffered call; non-success statuses become EngineErrors. */
  private async call(spec: CallSpec): Promise<BufferedResponse> {
    const prefix = this.prefix ?? (await this.negotiate(spec.signal));
    const response = await this.send(spec, prefix);
    const status = response.status;
    if ((status >= 200 && status < 300) || (status === 304 && spec.ok304 === true)) return response;
    throw engineErrorFromResponse(status, response.body, { subject: spec.subject, endpoint: this.endpoint.display });
  }

  private send(spec: CallSpec, prefix = ''): Promise<BufferedResponse> {
    return this.log ? this.sendLogged(spec, prefix, this.log) : this.transport.request(spec, prefix);
  }

  private async sendLogged(spec: CallSpec, prefix: string, log: LogFunction): Promise<BufferedResponse> {
    const started = performance.now();
    try {
      const response = await this.transport.request(spec, prefix);
      log(`${spec.method} ${prefix}${spec.path} → ${response.status} (${(performance.now() - started).toFixed(1)} ms)`);
      return response;
    } catch (error) {
      log(`${spec.method} ${prefix}${spec.path} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }

  /** A versioned streaming call; resolves once the headers are in, or throws the mapped error. */
  private async openStream(spec: CallSpec): Promise<{ body: AsyncIterableIterator<Buffer>; cancel(): void }> {
    const prefix = this.prefix ?? (await this.negotiate(spec.signal));
    const path = prefix + spec.path;
    const started = this.log ? performance.now() : 0;
    let response;
    try {
      response = await this.transport.stream({
        method: spec.method,
        path,
        headers: spec.headers,
        body: spec.body,
        signal: spec.signal,
        headersTimeout: spec.headersTimeout,
        bodyTimeout: spec.bodyTimeout ?? 0,
      });
    } catch (error) {
      this.log?.(`${spec.method} ${path} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
    this.log?.(`${spec.method} ${path} → ${response.status}, streaming (${(performance.now() - started).toFixed(1)} ms to headers)`);
    if (response.status >= 200 && response.status < 300) return response;
    const body = await collect(response.body);
    throw engineErrorFromResponse(response.status, body, {
      subject: spec.subject,
      endpoint: this.endpoint.display,
      credentialsSent: spec.credentialsSent,
    });
  }

  private async *progressStream(
    operation: 'pull' | 'push',
    path: string,
    headers: readonly string[] | undefined,
    credentialsSent: boolean,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<PullProgress, void, undefined> {
    const response = await this.openStream({ method: 'POST', path, subject: operation, headers, signal, headersTimeout: 0, bodyTimeout: 0, credentialsSent });
    const pending: ProgressLine[] = [];
    const decoder = new JsonLineDecoder<ProgressLine>((line) => pending.push(line));
    try {
      for await (const chunk of response.body) {
        decoder.push(chunk);
        for (let i = 0; i < pending.length; i++) yield checkProgress(pending[i] as ProgressLine, operation, credentialsSent);
        pending.length = 0;
      }
      decoder.end();
      for (const line of pending) yield checkProgress(line, operation, credentialsSent);
    } finally {
      response.cancel();
    }
  }

  private async registryAuthHeaders(
    registry: string,
    auth: RegistryCredential | undefined,
    always: boolean,
    signal: AbortSignal | undefined,
  ): Promise<readonly string[] | undefined> {
    if (auth === undefined) return always ? ['x-registry-auth', encodeRegistryAuth(undefined)] : undefined;
    const security = await this.registrySecurity(signal);
    assertSafeToSendCredentials(registry, { secure: security.isSecure(registry) });
    const serverAddress = 'serveraddress' in auth ? auth.serveraddress : undefined;
    if (serverAddress !== undefined && /^http:\/\//i.test(serverAddress)) assertSafeToSendCredentials(serverAddress);
    return ['x-registry-auth', encodeRegistryAuth(auth)];
  }

  /** Which registries the engine reaches over plain HTTP (its insecure-registries), from /info; asked once. */
  private registrySecurity(signal: AbortSignal | undefined): Promise<RegistrySecurity> {
    this.insecureRegistries ??= this.info({ signal }).then(
      (info) => new RegistrySecurity(info['RegistryConfig']),
      (error: unknown) => {
        this.insecureRegistries = undefined;
        throw error;
      },
    );
    return this.insecureRegistries;
  }
}

function checkProgress(line: ProgressLine, operation: 'pull' | 'push', credentialsSent: boolean): PullProgress {
  const error = progressLineError(line, operation, credentialsSent);
  if (error) throw error;
  return line;
}

/** Image names go into the path as they are (slashes included); only characters unsafe in a path are escaped. */
function encodeImageName(name: string): string {
  return encodeURI(name).replace(/[?#]/g, encodeURIComponent);
}

/** Engine waits up to t seconds before killing; give the response that long plus a margin. */
function stopHeadersTimeout(timeoutSeconds: number | undefined): number {
  return ((timeoutSeconds ?? 10) + 60) * 1000;
}

export function compareVersions(a: string, b: string): number {
  const [aMajor = 0, aMinor = 0] = a.split('.').map(Number);
  const [bMajor = 0, bMinor = 0] = b.split('.').map(Number);
  return aMajor !== bMajor ? aMajor - bMajor : aMinor - bMinor;
}

async function collect(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}
