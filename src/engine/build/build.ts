/**
 * The build workflow the CLI's `berth build` and the extension's Build Image share: prepare the context (Dockerfile,
 * `.dockerignore`), look up credentials for the base images the Dockerfile names, stream the context tar into
 * `POST /build`, and hand each message on as it comes. It resolves the new image's id; a failure is a BuildError that
 * names the failing step and, for BuildKit-only syntax the classic builder refuses, says so plainly.
 */
import { Readable } from 'node:stream';
import { registryKeyFor, type CredentialLookup } from '../registry';
import { BuildError, type BuildImageOptions, type BuildMessage, type EngineClient } from '../api';
import { contextTar, inChunksOf, prepareBuildContext, walkContext, type BuildContext, type BuildContextOptions } from './buildContext';
import { baseImages, buildKitOnlySyntax } from './dockerfile';
import { isEngineError, type RegistryCredential, fsPromises } from '../connection';
import { readStdinContext, singleDockerfileTar } from './stdinContext';

/** The size of the writes the context goes to the engine in. */
const TAR_WRITE_BYTES = 64 * 1024;

export interface BuildRequest
  extends BuildContextOptions,
    Pick<BuildImageOptions, 'tags' | 'buildArgs' | 'target' | 'noCache' | 'networkMode' | 'quiet' | 'labels' | 'signal'> {
  /** Where credentials for private base images come from; none are sent without it. */
  readonly credentials?: CredentialLookup | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Each message of the engine's answer, as it arrives; its `stream` text is to be appended (see BuildMessage). */
  readonly onMessage?: ((message: BuildMessage) => void) | undefined;
  /** A context already prepared (to measure it first); prepared from the options above when absent. */
  readonly prepared?: BuildContext | undefined;
  /** Called once the context is prepared, before the first byte is sent. */
  readonly onContext?: ((context: BuildContext) => void) | undefined;
}

export interface BuildResult {
  /** `sha256:…`, or the short id when the engine named only that. */
  readonly imageId: string | undefined;
  readonly context: BuildContext;
}

/** The engine's build options for a request, whatever its context came from. */
function imageOptionsOf(request: StdinBuildRequest, dockerfile: string | undefined, registryConfig: BuildImageOptions['registryConfig']): BuildImageOptions {
  return {
    tags: request.tags,
    dockerfile,
    buildArgs: request.buildArgs,
    target: request.target,
    noCache: request.noCache,
    networkMode: request.networkMode,
    quiet: request.quiet,
    labels: request.labels,
    registryConfig,
    signal: request.signal,
  };
}

/** Builds an image as `docker build` does with the classic builder; cancelling `signal` stops the engine's build. */
export async function buildImage(client: EngineClient, request: BuildRequest): Promise<BuildResult> {
  const context = request.prepared ?? (await prepareBuildContext(request));
  const dockerfileText = context.externalDockerfile?.toString('utf8') ?? (await fsPromises().readFile(context.dockerfilePath, 'utf8'));
  request.onContext?.(context);
  const registryConfig = await baseImageCredentials(dockerfileText, request);
  const options = imageOptionsOf(request, context.dockerfileInTar, registryConfig);
  const tar = contextTar(context, request.signal);
  try {
    return { imageId: await sendContext(client, tar as AsyncIterable<Buffer>, options, dockerfileText, request.onMessage), context };
  } finally {
    tar.destroy();
  }
}

export type StdinBuildRequest = Omit<BuildRequest, 'contextDir' | 'dockerfile' | 'cwd' | 'prepared' | 'onContext'> & {
  /** The Dockerfile's path inside an archive on stdin (docker's `-f`); a Dockerfile on stdin is always `Dockerfile`. */
  readonly dockerfileInArchive?: string | undefined;
};

/**
 * `docker build -`: the context, or a lone Dockerfile, read from `input`. An archive is streamed as it is read (its
 * Dockerfile is not looked into, so no base-image credentials are sent for it); a Dockerfile is bounded in size.
 */
export async function buildImageFromStdin(client: EngineClient, input: AsyncIterable<Buffer | string>, request: StdinBuildRequest): Promise<string | undefined> {
  const stdin = await readStdinContext(input);
  const dockerfileText = stdin.kind === 'dockerfile' ? stdin.text.toString('utf8') : '';
  const registryConfig = stdin.kind === 'dockerfile' ? await baseImageCredentials(dockerfileText, request) : undefined;
  const options = imageOptionsOf(request, stdin.kind === 'archive' ? request.dockerfileInArchive : 'Dockerfile', registryConfig);
  const body = stdin.kind === 'archive' ? stdin.body : singleDockerfileTar(stdin.text);
  try {
    return await sendContext(client, body, options, dockerfileText, request.onMessage);
  } finally {
    if (stdin.kind === 'archive') await stdin.body.return(undefined);
  }
}

/** Streams a context tar into `POST /build`, hands each message on, and resolves the image id the engine announced. */
async function sendContext(
  client: EngineClient,
  tar: AsyncIterable<Buffer>,
  options: BuildImageOptions,
  dockerfileText: string,
  onMessage: ((message: BuildMessage) => void) | undefined,
): Promise<string | undefined> {
  let imageId: string | undefined;
  let step: string | undefined;
  const announced = (found: string | undefined): void => {
    if (found !== undefined && (imageId === undefined || found.startsWith('sha256:'))) imageId = found;
  };
  // The step and the id are read from whole lines of the text, however the engine cut it into messages.
  const lines = new BuildTextLines((line) => {
    const trimmed = line.trim();
    // A step line, `Successfully built` and `sha256:` start with an s: most lines go no further.
    if ((trimmed.charCodeAt(0) | 0x20) !== 0x73) return;
    if (/^step \d+\/\d+\s*:/i.test(trimmed)) step = trimmed;
    announced(imageIdInLine(trimmed));
  });
  try {
    for await (const message of client.images.build(Readable.from(inChunksOf(tar, TAR_WRITE_BYTES)), options)) {
      if (typeof message.aux?.ID === 'string') announced(message.aux.ID);
      if (message.stream !== undefined) lines.push(message.stream);
      onMessage?.(message);
    }
    lines.end();
  } catch (error) {
    lines.end();
    throw explainBuildFailure(error, step, dockerfileText);
  }
  return imageId;
}

/** Of a line longer than this only the start is kept: a step line or an image id is far shorter. */
const LINE_HEAD_CHARS = 4096;

/**
 * The lines of a build's text, from `stream` values however they cut it: a piece of a line, a line, or many lines
 * merged into one value (BuildOutputDecoder). Each line goes to ON_LINE without its `\n`, cut to its first
 * LINE_HEAD_CHARS characters, so a line that never ends costs neither memory nor time.
 */
export class BuildTextLines {
  /** The start of the line not ended yet. */
  private head = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(text: string): void {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      const line = this.head + text.slice(start, Math.min(newline, start + LINE_HEAD_CHARS - this.head.length));
      this.head = '';
      this.onLine(line);
      start = newline + 1;
    }
    if (start < text.length && this.head.length < LINE_HEAD_CHARS) this.head += text.slice(start, start + LINE_HEAD_CHARS - this.head.length);
  }

  /** Hands on a last line that has no `\n`. */
  end(): void {
    if (this.head === '') return;
    const line = this.head;
    this.head = '';
    this.onLine(line);
  }
}

/** The id a line of the build's text announces: quiet mode's `sha256:…` line, or `Successfully built abc123`. */
export function imageIdInLine(line: string): string | undefined {
  const trimmed = line.trim();
  if (/^sha256:[0-9a-f]{64}$/.test(trimmed)) return trimmed;
  return /^Successfully built ([0-9a-f]{12,64})$/.exec(trimmed)?.[1];
}

/** The failure with the step it happened in, and what the user can do about BuildKit-only syntax. */
function explainBuildFailure(error: unknown, step: string | undefined, dockerfileText: string): unknown {
  if (!(error instanceof BuildError)) return error;
  error.step = step;
  const message = error.engineMessage ?? error.message;
  const buildKit = /requires BuildKit|buildkit/i.test(message) ? buildKitOnlySyntax(dockerfileText) ?? 'BuildKit-only syntax' : undefined;
  if (buildKit !== undefined) {
    return withText(error, message, `The engine's classic builder does not understand ${buildKit}. Build with BuildKit (docker buildx build), or on Podman, whose builder (Buildah) accepts it`);
  }
  if (error.hint === undefined && step !== undefined && /^step \d+\/\d+\s*:\s*FROM\s/i.test(step)) {
    return withText(error, `${message} (in ${step})`, 'The base image could not be pulled: check its name and that its registry answers, and sign in if it is private');
  }
  if (step !== undefined && /returned a non-zero code/.test(message)) {
    return withText(error, `${message} (in ${step})`, 'Fix the command in that step, then build again');
  }
  return error;
}

function withText(error: BuildError, message: string, hint: string): BuildError {
  const explained = new BuildError(error.kind, message, { engineMessage: error.engineMessage, hint }, error.exitCode);
  explained.step = error.step;
  return explained;
}

/** X-Registry-Config for the base images whose registries have credentials; undefined when none has. */
async function baseImageCredentials(dockerfileText: string, request: Pick<BuildRequest, 'credentials' | 'buildArgs'>): Promise<Record<string, RegistryCredential> | undefined> {
  const lookup = request.credentials;
  if (lookup === undefined) return undefined;
  const config: Record<string, RegistryCredential> = {};
  for (const image of baseImages(dockerfileText, request.buildArgs)) {
    let key: string;
    try {
      key = registryKeyFor(image);
    } catch {
      continue; // Not a valid reference: the engine's own message says so when it gets there.
    }
    if (key in config) continue;
    const credential = await lookup(key).catch((error: unknown) => {
      if (isEngineError(error)) throw error;
      return undefined;
    });
    if (credential !== undefined) config[key] = credential;
  }
  return Object.keys(config).length > 0 ? config : undefined;
}

export interface ContextSize {
  readonly files: number;
  readonly bytes: number;
  /** The top-level directories of the context that weigh most, biggest first, with their bytes. */
  readonly biggest: ReadonlyArray<{ readonly path: string; readonly bytes: number }>;
}

/** What the context will send (after `.dockerignore`), and its three biggest directories, to warn before a big build. */
export async function measureContext(context: BuildContext, signal?: AbortSignal): Promise<ContextSize> {
  let files = 0;
  let bytes = 0;
  const perDirectory = new Map<string, number>();
  for await (const entry of walkContext(context.contextDir, context.excludes, signal)) {
    if (!entry.stat.isFile()) continue;
    files++;
    bytes += entry.stat.size;
    const slash = entry.name.indexOf('/');
    if (slash !== -1) {
      const top = entry.name.slice(0, slash);
      perDirectory.set(top, (perDirectory.get(top) ?? 0) + entry.stat.size);
    }
  }
  const biggest = [...perDirectory.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([path, size]) => ({ path, bytes: size }));
  return { files, bytes, biggest };
}
