/**
 * The Engine API's build endpoint, `POST /build`: the context goes up as a tar stream while it is produced, and the
 * engine answers with JSON lines (step lines, pulled layers, `aux` with the image id) in which a failure arrives
 * in-band with status 200. Closing the request cancels the build on the engine. Credentials for private base images
 * travel in `X-Registry-Config` (a map, unlike X-Registry-Auth), only to registries that are safe to send them to.
 */
import {
  BuildOutputDecoder,
  progressLineError,
  type ProgressLine,
  EngineError,
  type EngineErrorKind,
  type EngineErrorOptions,
  buildQuery,
  type RequestBody,
  type CallOptions,
  type RegistryCredential,
  type EngineConnection,
  TAR_HEADERS,
  withQueued,
} from '../connection';
import type { RegistryCredentialGate } from './registryCredentials';

export interface BuildImageOptions extends CallOptions {
  /** `name:tag` for the new image (repeatable, as `docker build -t`). */
  readonly tags?: readonly string[] | undefined;
  /** The Dockerfile's path inside the context tar. */
  readonly dockerfile?: string | undefined;
  readonly buildArgs?: Readonly<Record<string, string>> | undefined;
  readonly target?: string | undefined;
  readonly noCache?: boolean | undefined;
  /** `none` on engines whose bridge is off, or `RUN` cannot start. */
  readonly networkMode?: string | undefined;
  /** The engine prints only the image id. */
  readonly quiet?: boolean | undefined;
  readonly labels?: Readonly<Record<string, string>> | undefined;
  /** Registry host (or Docker Hub's key) → credential, for the base images the build pulls. */
  readonly registryConfig?: Readonly<Record<string, RegistryCredential>> | undefined;
}

/** One line of the build's answer, or several `stream` lines merged into one. */
export interface BuildMessage extends ProgressLine {
  /** Text the build printed, to append to what came before: a piece of a line, a line, or several lines. */
  stream?: string;
  aux?: { ID?: string };
}

/** A build the engine gave up on: its words, the exit status docker build would exit with, and the failing step. */
export class BuildError extends EngineError {
  /** The failing `RUN`'s exit status (errorDetail.code), or 1 as docker build exits otherwise. */
  readonly exitCode: number;
  /** The `Step N/M : …` line the build failed in, when known. */
  step: string | undefined;

  constructor(kind: EngineErrorKind, message: string, options: EngineErrorOptions, exitCode: number) {
    super(kind, message, options);
    this.exitCode = exitCode;
  }
}

/** `client.images.build`: POST /build, the context streamed up, the engine's lines yielded as they arrive. */
export async function* postBuild(
  connection: EngineConnection,
  credentials: RegistryCredentialGate,
  context: RequestBody,
  options: BuildImageOptions = {},
): AsyncGenerator<BuildMessage, void, undefined> {
  const query = buildQuery({
    t: options.tags,
    dockerfile: options.dockerfile,
    buildargs: options.buildArgs && Object.keys(options.buildArgs).length > 0 ? JSON.stringify(options.buildArgs) : undefined,
    target: options.target || undefined,
    nocache: options.noCache ? true : undefined,
    networkmode: options.networkMode || undefined,
    q: options.quiet ? true : undefined,
    labels: options.labels && Object.keys(options.labels).length > 0 ? JSON.stringify(options.labels) : undefined,
    rm: true,
    // A failed step's container goes too (docker build keeps it unless --force-rm): nothing is left behind in the engine.
    forcerm: true,
  });
  const headers = [...TAR_HEADERS, ...(await registryConfigHeader(credentials, options.registryConfig, options.signal))];
  const credentialsSent = options.registryConfig !== undefined && Object.keys(options.registryConfig).length > 0;
  const response = await connection.openStream({
    method: 'POST',
    path: `/build${query}`,
    subject: 'image',
    headers,
    body: context,
    signal: options.signal,
    headersTimeout: 0,
    bodyTimeout: 0,
    credentialsSent,
  });
  const pending: BuildMessage[] = [];
  // The engine flushes each line as an HTTP chunk of its own: the lines that waited while Berth was busy are decoded
  // together, and consecutive stream lines among them come merged into one message (BuildOutputDecoder): the text is
  // what counts, not how the engine cut it.
  const decoder = new BuildOutputDecoder<BuildMessage>((line) => pending.push(line));
  try {
    for await (const chunk of response.body) {
      decoder.push(withQueued(chunk, response.body));
      for (let i = 0; i < pending.length; i++) yield checkBuildLine(pending[i] as BuildMessage, credentialsSent);
      pending.length = 0;
    }
    decoder.end();
    for (const line of pending) yield checkBuildLine(line, credentialsSent);
  } finally {
    response.cancel();
  }
}

async function registryConfigHeader(credentials: RegistryCredentialGate, config: BuildImageOptions['registryConfig'], signal: AbortSignal | undefined): Promise<string[]> {
  if (config === undefined || Object.keys(config).length === 0) return [];
  await credentials.assertMayTravel(Object.entries(config), signal);
  const json = JSON.stringify(config);
  return ['x-registry-config', Buffer.from(json, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_')];
}

function checkBuildLine(line: BuildMessage, credentialsSent: boolean): BuildMessage {
  const error = progressLineError(line, 'pull', credentialsSent);
  if (error) throw new BuildError(error.kind, error.engineMessage ?? error.message, { engineMessage: error.engineMessage, hint: error.hint }, line.errorDetail?.code || 1);
  return line;
}
