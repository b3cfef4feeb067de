/**
 * The Engine API's Container endpoints (`client.containers`): list, inspect, create, the lifecycle, wait, logs,
 * attach, changes, commit, and (in stats.ts and archive.ts) stats, top and the archive endpoints.
 */
import type { Duplex } from 'node:stream';
import { changeBatches, type ContainerChange } from './containerChanges';
import { getArchive, putArchive, statContainerPath, type ArchiveStream, type ContainerPathStat, type PutArchiveOptions } from './archive';
import { containerStats, containerStatsOnce, topContainer } from './stats';
import type { StatsOptions, StatsSample, TopOptions, TopResult } from './statsTypes';
import {
  FrameJoiner,
  joinedRuns,
  EngineError,
  engineErrorFromResponse,
  buildQuery,
  type AttachOptions,
  type CallOptions,
  type CommitOptions,
  type EngineConnection,
  type ContainerCreateBody,
  type ContainerCreateResult,
  type ContainerInspect,
  type ContainerLogsOptions,
  type ContainerSummary,
  type CreateContainerOptions,
  type KillOptions,
  type ListContainersOptions,
  type OutputChunk,
  type RemoveContainerOptions,
  type ResizeOptions,
  type StopOptions,
  type WaitHandle,
  type WaitOptions,
  type WaitResult,
  JSON_HEADERS,
  STREAM_HEADERS_TIMEOUT_MS,
  collect,
  withQueued,
} from '../connection';
import { assertValidContainerName } from '../registry';

export class ContainerEndpoints {
  constructor(private readonly connection: EngineConnection) {}

  list(options: ListContainersOptions = {}): Promise<ContainerSummary[]> {
    const query = buildQuery({ all: options.all, filters: options.filters, limit: options.limit, size: options.size });
    return this.connection.json({ method: 'GET', path: `/containers/json${query}`, subject: 'container', signal: options.signal });
  }

  inspect(id: string, options: CallOptions = {}): Promise<ContainerInspect> {
    return this.connection.json({ method: 'GET', path: `/containers/${encodeURIComponent(id)}/json`, subject: 'container', signal: options.signal });
  }

  /** Creates a container; a name the engine would refuse is refused here first, with a specific message. */
  async create(body: ContainerCreateBody, options: CreateContainerOptions = {}): Promise<ContainerCreateResult> {
    if (options.name !== undefined) assertValidContainerName(options.name);
    const query = buildQuery({ name: options.name });
    return this.connection.json({
      method: 'POST',
      path: `/containers/create${query}`,
      subject: 'container',
      headers: JSON_HEADERS,
      body: JSON.stringify(body),
      signal: options.signal,
    });
  }

  async start(id: string, options: CallOptions = {}): Promise<void> {
    await this.connection.call({ method: 'POST', path: `/containers/${encodeURIComponent(id)}/start`, subject: 'container', ok304: true, signal: options.signal });
  }

  async stop(id: string, options: StopOptions = {}): Promise<void> {
    const query = buildQuery({ t: options.timeoutSeconds, signal: options.stopSignal });
    await this.connection.call({
      method: 'POST',
      path: `/containers/${encodeURIComponent(id)}/stop${query}`,
      subject: 'container',
      ok304: true,
      signal: options.signal,
      headersTimeout: stopHeadersTimeout(options.timeoutSeconds),
      long: true,
    });
  }

  async restart(id: string, options: StopOptions = {}): Promise<void> {
    const query = buildQuery({ t: options.timeoutSeconds });
    await this.connection.call({
      method: 'POST',
      path: `/containers/${encodeURIComponent(id)}/restart${query}`,
      subject: 'container',
      signal: options.signal,
      headersTimeout: stopHeadersTimeout(options.timeoutSeconds),
      long: true,
    });
  }

  async kill(id: string, options: KillOptions = {}): Promise<void> {
    const query = buildQuery({ signal: options.killSignal });
    await this.connection.call({ method: 'POST', path: `/containers/${encodeURIComponent(id)}/kill${query}`, subject: 'container', signal: options.signal });
  }

  async remove(id: string, options: RemoveContainerOptions = {}): Promise<void> {
    const query = buildQuery({ force: options.force, v: options.volumes });
    await this.connection.call({ method: 'DELETE', path: `/containers/${encodeURIComponent(id)}${query}`, subject: 'container', signal: options.signal });
  }

  /**
   * Opens `POST /containers/{id}/wait` and resolves as soon as the engine has registered the wait (its headers are
   * in), so a container started afterwards cannot exit unseen. `result` settles when the condition is met.
   */
  async wait(id: string, options: WaitOptions = {}): Promise<WaitHandle> {
    const query = buildQuery({ condition: options.condition });
    const response = await this.connection.openStream({
      method: 'POST',
      path: `/containers/${encodeURIComponent(id)}/wait${query}`,
      subject: 'container',
      signal: options.signal,
    });
    const result = (async (): Promise<WaitResult> => {
      const body = await collect(response.body);
      const text = body.toString('utf8').trim();
      let parsed: WaitResult & { message?: string };
      try {
        parsed = JSON.parse(text) as WaitResult & { message?: string };
      } catch {
        throw new EngineError('protocol', text === '' ? 'The engine ended the wait without a result' : `Unexpected wait result: ${text.slice(0, 200)}`, {
          endpoint: this.connection.endpoint.display,
          hint: 'Check that the container still exists and wait again',
        });
      }
      if (typeof parsed.StatusCode !== 'number') {
        throw engineErrorFromResponse(500, text, { subject: 'container', endpoint: this.connection.endpoint.display });
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
  async *logs(id: string, options: ContainerLogsOptions = {}): AsyncGenerator<OutputChunk, void, undefined> {
    const stdout = options.stdout ?? true;
    const stderr = options.stderr ?? true;
    if (!stdout && !stderr) {
      throw new EngineError('bad-request', 'Logs need stdout, stderr or both', { hint: 'Ask for at least one of the two streams' });
    }
    const tty = options.tty ?? (await this.inspect(id, { signal: options.signal })).Config.Tty;
    const query = buildQuery({
      stdout,
      stderr,
      follow: options.follow,
      tail: options.tail,
      since: options.since,
      until: options.until,
      timestamps: options.timestamps,
      details: options.details,
    });
    const response = await this.connection.openStream({
      method: 'GET',
      path: `/containers/${encodeURIComponent(id)}/logs${query}`,
      subject: 'container',
      signal: options.signal,
    });
    const body = response.body;
    try {
      const join = options.joinFrames === true;
      if (tty) {
        for await (const data of body) yield { stream: 'stdout', data: join ? withQueued(data, body) : data };
        return;
      }
      if (options.rawFrames === true) {
        for await (const data of body) yield { stream: 'stdout', data, multiplexed: true };
        return;
      }
      const joiner = new FrameJoiner();
      for await (const data of body) yield* joinedRuns(joiner, body.takeQueued ? [data, ...body.takeQueued()] : [data]);
      joiner.end();
    } finally {
      response.cancel();
    }
  }

  /**
   * Attaches to a container's streams over the hijacked connection (`POST /containers/{id}/attach?stream=1`), as
   * `docker run` does before it starts the container: resolves once the engine has attached, so everything the
   * container prints from its start on arrives, byte for byte (no log driver in between), with backpressure on the
   * container instead of loss. The Duplex ends when the container's output ends. Without a TTY it carries
   * multiplexed frames (use demux()), with one raw bytes.
   */
  attach(id: string, options: AttachOptions = {}): Promise<Duplex> {
    const query = buildQuery({
      stream: true,
      stdin: options.stdin ?? false,
      stdout: options.stdout ?? true,
      stderr: options.stderr ?? true,
      logs: options.logs,
    });
    return this.connection.upgraded({ method: 'POST', path: `/containers/${encodeURIComponent(id)}/attach${query}`, subject: 'container', signal: options.signal });
  }

  /** Sizes a running container's TTY (`POST /containers/{id}/resize`), as docker run -t does at start and on SIGWINCH. */
  async resize(id: string, options: ResizeOptions): Promise<void> {
    const query = buildQuery({ h: options.rows, w: options.cols });
    await this.connection.call({ method: 'POST', path: `/containers/${encodeURIComponent(id)}/resize${query}`, subject: 'container', signal: options.signal });
  }

  /**
   * What the container changed against its image (`docker diff`), in the engine's order, a batch at a time as the
   * answer arrives. Works on stopped containers too; the engine computes the whole list before its headers.
   */
  async *changes(id: string, options: CallOptions = {}): AsyncGenerator<ContainerChange[], void, undefined> {
    let response;
    try {
      response = await this.connection.openStream({
        method: 'GET',
        path: `/containers/${encodeURIComponent(id)}/changes`,
        subject: 'container',
        signal: options.signal,
        bodyTimeout: STREAM_HEADERS_TIMEOUT_MS,
      });
    } catch (error) {
      // Podman answers a missing container with a 500 about a layer; its inspect says plainly that it is gone.
      if (error instanceof EngineError && error.kind === 'server') await this.inspect(id, options);
      throw error;
    }
    try {
      yield* changeBatches(response.body);
    } finally {
      response.cancel();
    }
  }

  /** `stream=true`: a sample a second until the signal aborts or the engine ends the stream. */
  stats(id: string, options: StatsOptions = {}): AsyncGenerator<StatsSample, void, undefined> {
    return containerStats(this.connection, id, options);
  }

  /** `stream=false`: one sample with its precpu (dockerd waits about a second for it; Podman leaves precpu empty). */
  statsOnce(id: string, options: StatsOptions = {}): Promise<StatsSample> {
    return containerStatsOnce(this.connection, id, options);
  }

  /** The container's processes, as `ps` inside its PID namespace sees them. A stopped container is a 409. */
  top(id: string, options: TopOptions = {}): Promise<TopResult> {
    return topContainer(this.connection, id, options);
  }

  /** `HEAD /containers/{id}/archive?path=`: the path's stat (not following a final symlink), or a `not-found` EngineError. */
  statPath(id: string, path: string, options: CallOptions = {}): Promise<ContainerPathStat> {
    return statContainerPath(this.connection, id, path, options);
  }

  /** `GET /containers/{id}/archive?path=`: the path (a file, or a directory and everything under it) as a tar stream. */
  getArchive(id: string, path: string, options: CallOptions = {}): Promise<ArchiveStream> {
    return getArchive(this.connection, id, path, options);
  }

  /** `PUT /containers/{id}/archive?path=`: extracts a tar into the directory `path` (which must exist). */
  putArchive(id: string, path: string, tar: Buffer | NodeJS.ReadableStream, options: PutArchiveOptions = {}): Promise<void> {
    return putArchive(this.connection, id, path, tar, options);
  }

  /** Creates an image from a container's changes (`POST /commit`). */
  commit(id: string, options: CommitOptions & CallOptions = {}): Promise<{ Id: string }> {
    const query = buildQuery({
      container: id,
      repo: options.repo,
      tag: options.tag,
      comment: options.comment,
      author: options.author,
      pause: options.pause,
      changes: options.changes,
    });
    return this.connection.json({
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
}

/** Engine waits up to t seconds before killing; give the response that long plus a margin. */
function stopHeadersTimeout(timeoutSeconds: number | undefined): number {
  // A negative timeout waits for the container however long it takes (docker stop -t -1): so does the answer.
  if (timeoutSeconds !== undefined && timeoutSeconds < 0) return 0;
  return ((timeoutSeconds ?? 10) + 60) * 1000;
}
