/**
 * The Engine API's Image endpoints (`client.images`): list, inspect, history, save, remove, tag, pull, push, import
 * and build (build.ts). Registry credentials go out only to registries that are safe to send them to.
 */
import { encodeRegistryAuth } from '../registry';
import {
  EngineError,
  JsonLineDecoder,
  progressLineError,
  type ProgressLine,
  buildQuery,
  type CallOptions,
  type EngineConnection,
  type RequestBody,
  type ImageDeleteItem,
  type ImageHistoryEntry,
  type ImageInspect,
  type ImageSummary,
  type ImportImageOptions,
  type ListImagesOptions,
  type PullProgress,
  type RegistryCallOptions,
  type RegistryCredential,
  type RemoveImageOptions,
  type TagImageOptions,
  TAR_HEADERS,
} from '../connection';
import { familiarName, parseImageReference, pullParameters } from '../registry';
import { postBuild, type BuildImageOptions, type BuildMessage } from './build';
import type { RegistryCredentialGate } from './registryCredentials';

export class ImageEndpoints {
  constructor(
    private readonly connection: EngineConnection,
    private readonly credentials: RegistryCredentialGate,
  ) {}

  list(options: ListImagesOptions = {}): Promise<ImageSummary[]> {
    const query = buildQuery({ all: options.all, filters: options.filters });
    return this.connection.json({ method: 'GET', path: `/images/json${query}`, subject: 'image', signal: options.signal });
  }

  inspect(name: string, options: CallOptions = {}): Promise<ImageInspect> {
    return this.connection.json({ method: 'GET', path: `/images/${encodeImageName(name)}/json`, subject: 'image', signal: options.signal });
  }

  /** `GET /images/{name}/history`: one entry per step that made the image, newest first. */
  history(name: string, options: CallOptions = {}): Promise<ImageHistoryEntry[]> {
    return this.connection.json({ method: 'GET', path: `/images/${encodeImageName(name)}/history`, subject: 'image', signal: options.signal });
  }

  /**
   * `GET /images/{name}/get`: the image as `docker save` writes it (a tar of manifest.json, the config and the layer
   * tars), streamed; `cancel` ends the request once the reader has what it needs.
   */
  async save(name: string, options: CallOptions = {}): Promise<{ body: AsyncIterableIterator<Buffer>; cancel(): void }> {
    return this.connection.openStream({
      method: 'GET',
      path: `/images/${encodeImageName(name)}/get`,
      subject: 'image',
      signal: options.signal,
    });
  }

  remove(name: string, options: RemoveImageOptions = {}): Promise<ImageDeleteItem[]> {
    const query = buildQuery({ force: options.force, noprune: options.noPrune });
    return this.connection.json({ method: 'DELETE', path: `/images/${encodeImageName(name)}${query}`, subject: 'image', signal: options.signal });
  }

  async tag(name: string, options: TagImageOptions): Promise<void> {
    const query = buildQuery({ repo: options.repo, tag: options.tag });
    await this.connection.call({ method: 'POST', path: `/images/${encodeImageName(name)}/tag${query}`, subject: 'image', signal: options.signal });
  }

  /**
   * Pulls an image, yielding progress lines. An `errorDetail` line throws EngineError although the status was 200.
   * The pull is complete only when the iteration ends; breaking out of it cancels the pull on the engine.
   */
  async *pull(reference: string, options: RegistryCallOptions = {}): AsyncGenerator<PullProgress, void, undefined> {
    const parsed = parseImageReference(reference);
    const { fromImage, tag } = pullParameters(parsed);
    const headers = await this.registryAuthHeaders(parsed.registry, options.auth, false, options.signal);
    const path = `/images/create${buildQuery({ fromImage, tag })}`;
    yield* this.progressStream('pull', path, headers, options.auth !== undefined, options.signal);
  }

  /** Pushes a local image (a tag of it) to its registry, yielding progress; in-band failures throw. */
  async *push(reference: string, options: RegistryCallOptions = {}): AsyncGenerator<PullProgress, void, undefined> {
    const parsed = parseImageReference(reference);
    // Push always sends X-Registry-Auth: an empty credential means anonymous.
    const headers = await this.registryAuthHeaders(parsed.registry, options.auth, true, options.signal);
    const query = buildQuery({ tag: parsed.tag });
    const name = familiarName(parsed);
    yield* this.progressStream('push', `/images/${encodeImageName(name)}/push${query}`, headers, options.auth !== undefined, options.signal);
  }

  /** Imports a root file system tarball as an image (`POST /images/create?fromSrc=-`). Resolves the new image's id. */
  async import(tar: Buffer | NodeJS.ReadableStream, options: ImportImageOptions): Promise<{ Id: string | undefined }> {
    const query = buildQuery({ fromSrc: '-', repo: options.repo, tag: options.tag, changes: options.changes, message: options.message });
    const response = await this.connection.call({
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

  /**
   * Builds an image from a context tar, yielding the engine's lines as they arrive; an in-band failure throws a
   * BuildError. Breaking out of the iteration or aborting the signal closes the request, which stops the build.
   */
  build(context: RequestBody, options: BuildImageOptions = {}): AsyncGenerator<BuildMessage, void, undefined> {
    return postBuild(this.connection, this.credentials, context, options);
  }

  private async *progressStream(
    operation: 'pull' | 'push',
    path: string,
    headers: readonly string[] | undefined,
    credentialsSent: boolean,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<PullProgress, void, undefined> {
    const response = await this.connection.openStream({ method: 'POST', path, subject: operation, headers, signal, headersTimeout: 0, bodyTimeout: 0, credentialsSent });
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
    await this.credentials.assertMayTravel([[registry, auth]], signal);
    return ['x-registry-auth', encodeRegistryAuth(auth)];
  }
}

function checkProgress(line: ProgressLine, operation: 'pull' | 'push', credentialsSent: boolean): PullProgress {
  const error = progressLineError(line, operation, credentialsSent);
  if (error) throw error;
  return line;
}

/** Image names go into the path as they are (slashes included); only characters unsafe in a path are escaped. */
function encodeImageName(name: string): string {
  // A "." or ".." segment would be resolved in the request path and reach another endpoint (/images/../containers/…).
  if (name.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new EngineError('bad-request', `Invalid image name "${name}": "." and ".." are not parts of an image name`, {
      hint: 'Give the image by its name (repository[:tag]) or its id',
    });
  }
  return encodeURI(name).replace(/[?#]/g, encodeURIComponent);
}
