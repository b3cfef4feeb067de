/**
 * The action table as workflows: each streams as it goes (onOutput, onPullProgress, onStatus) and is cancellable
 * through its AbortSignal. The CLI and the extension are thin fronts over these.
 */
import type { Duplex } from 'node:stream';
import { registryKeyFor, type CredentialLookup } from '../registry';
import type { EngineClient } from '../api';
import {
  toTransportError,
  demux,
  rawOutput,
  type Endpoint,
  EngineError,
  isEngineError,
  type CallOptions,
  type ContainerCreateBody,
  type ImageSummary,
  type JoinFramesOption,
  type LogsOptions,
  type OutputChunk,
  type PullProgress,
} from '../connection';
import { exitStatusAfterOutput } from './exitStatus';
import { assertValidContainerName, parseImageReference } from '../registry';
import { shortId } from '../../common/format';

export interface ContainerSpec {
  image: string;
  cmd?: string[] | undefined;
  name?: string | undefined;
  tty?: boolean | undefined;
  /** Have the engine remove the container once it has exited (HostConfig.AutoRemove), whatever happens to Berth. */
  autoRemove?: boolean | undefined;
  /** Keep the container's stdin open for the run's `stdin` (docker run -i). */
  interactive?: boolean | undefined;
  /**
   * With `interactive`: the container's stdin stays open when the attached client goes away (no StdinOnce), so a
   * shell left running after a `detach` keeps running instead of reading end-of-file.
   */
  keepStdinOpen?: boolean | undefined;
  env?: string[] | undefined;
  labels?: Record<string, string> | undefined;
  /** HostConfig.NetworkMode; the engine's default when unset. */
  networkMode?: string | undefined;
  /** Extra create-body fields (Entrypoint, WorkingDir, User, ExposedPorts, Volumes: the run options), under the fields above. */
  config?: Omit<Partial<ContainerCreateBody>, 'Image' | 'HostConfig'> | undefined;
  /** Extra HostConfig fields (e.g. Ulimits), merged under NetworkMode and AutoRemove. */
  hostConfig?: ContainerCreateBody['HostConfig'] | undefined;
  /** Where registry credentials come from when the image must be pulled. */
  credentials?: CredentialLookup | undefined;
  signal?: AbortSignal | undefined;
  onPullProgress?: ((progress: PullProgress) => void) | undefined;
  onStatus?: ((text: string) => void) | undefined;
}

/**
 * Receives output as it arrives. When it returns a promise (a thenable), reading goes on only once that settles, so
 * a slow consumer holds the container back instead of buffering without bound. Any other return value is ignored.
 */
export type OutputHandler = (chunk: OutputChunk) => unknown;

export interface RunOptions extends ContainerSpec {
  onOutput?: OutputHandler | undefined;
  /** The container's exit status, as a number, once its output is drained (also the result's `exitCode`). */
  onExit?: ((exitCode: number) => void) | undefined;
  /** Seconds the engine gives the container to stop when the run is cancelled (then it kills). Default 10. */
  stopTimeoutSeconds?: number | undefined;
  /**
   * Ends the run gently: before the start it cancels like `signal`; once the container runs, it stops the container
   * and keeps streaming what the container prints while it shuts down, to its exit. The result then says so.
   */
  interrupt?: AbortSignal | undefined;
  /**
   * Ends the run without stopping the container: the attached streams close, the container runs on (and with
   * autoRemove the engine removes it once it exits). The run then throws a cancellation, as with `signal`.
   */
  detach?: AbortSignal | undefined;
  /** With `interactive`: written to the container's stdin over the attach connection; its end closes that stdin. */
  stdin?: NodeJS.ReadableStream | undefined;
  /** Called once the container runs, with its id (to pass signals on, or to size its TTY). */
  onStarted?: ((id: string) => void) | undefined;
}

export interface RunResult {
  id: string;
  exitCode: number;
  /** The `interrupt` signal stopped the container. */
  interrupted: boolean;
}

/**
 * Runs a container and streams its output the way `docker run` does: pull if missing → create → open a `next-exit`
 * wait and await its headers → attach to its output (and stdin) → start → read the attached stream to its end →
 * the wait's result. Attaching before the start (not following logs after it) is what keeps every byte: the engine
 * holds the container back while the reader is behind, and the bytes skip the log driver, so binary output arrives
 * exact. Cancelling through `signal` stops the container (it must not run on unseen) and throws; `interrupt` stops
 * it and shows it to its end. With autoRemove the engine removes the container (HostConfig.AutoRemove, as docker
 * does), so nothing is left even when this process dies; the run waits for that removal before it returns.
 */
export async function runContainer(client: EngineClient, options: RunOptions): Promise<RunResult> {
  const { signal, interrupt } = options;
  const tty = options.tty ?? false;
  // Until the container runs, an interrupt is a cancellation like any other.
  const beforeStart = anySignal(signal, interrupt);
  const autoRemove = options.autoRemove ?? false;
  const id = await createContainer(client, { ...options, signal: beforeStart }, autoRemove);
  // The wait and the attached stream live on their own signal so they are closed when the run fails early.
  const runController = new AbortController();
  const runSignal = anySignal(signal, options.detach, runController.signal) ?? runController.signal;
  let started = false;
  let stopping: Promise<void> | undefined;
  const onInterrupt = (): void => {
    stopping ??= stopQuietly(client, id, options.stopTimeoutSeconds ?? 10);
  };
  const interactive = (options.interactive ?? false) && options.stdin !== undefined;
  let attached: Duplex | undefined;
  try {
    const wait = await client.containers.wait(id, { condition: 'next-exit', signal: runSignal });
    attached = await client.containers.attach(id, { stdout: true, stderr: true, stdin: interactive, signal: runSignal });
    const output = attachedOutput(attached, { tty, signal: runSignal, endpoint: client.endpoint });
    options.onStatus?.(`Starting ${shortId(id)}`);
    try {
      await client.containers.start(id, { signal: beforeStart });
    } catch (error) {
      // The generator has not run yet, so its own cleanup would not; close the attachment here.
      attached.destroy();
      throw error;
    }
    started = true;
    if (interrupt?.aborted) onInterrupt();
    else interrupt?.addEventListener('abort', onInterrupt, { once: true });
    if (interactive && options.stdin) options.stdin.pipe(attached);
    options.onStarted?.(id);
    for await (const chunk of output) {
      const delivered = options.onOutput?.(chunk);
      if (isThenable(delivered)) await delivered;
    }
    const result = await exitStatusAfterOutput(client, id, wait.result, runSignal);
    if (result.Error?.Message) {
      throw new EngineError('server', result.Error.Message, { engineMessage: result.Error.Message, endpoint: client.endpoint.display });
    }
    options.onExit?.(result.StatusCode);
    return { id, exitCode: result.StatusCode, interrupted: stopping !== undefined };
  } catch (error) {
    if (started && signal?.aborted) onInterrupt();
    throw error;
  } finally {
    interrupt?.removeEventListener('abort', onInterrupt);
    if (attached) options.stdin?.unpipe(attached);
    runController.abort();
    await stopping;
    // Started: the engine removes it once it exits. Never started (a failed or cancelled start): nothing will.
    // Detached: the container runs on, and its removal is the engine's business.
    if (autoRemove && !(started && options.detach?.aborted)) await (started ? awaitRemoval(client, id) : removeQuietly(client, id));
  }
}

interface AttachedOutputOptions {
  tty: boolean;
  signal: AbortSignal;
  endpoint: Endpoint;
}

/**
 * The chunks of an attached stream: raw with a TTY, demultiplexed without. The signal destroys the connection, and a
 * broken connection becomes an EngineError naming the endpoint; breaking out of the iteration closes the connection.
 */
async function* attachedOutput(socket: Duplex, options: AttachedOutputOptions): AsyncGenerator<OutputChunk, void, undefined> {
  const { signal } = options;
  const onAbort = (): void => {
    socket.destroy(new EngineError('cancelled', 'Cancelled', { endpoint: options.endpoint.display }));
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    yield* options.tty ? rawOutput(socket) : demux(socket);
  } catch (error) {
    throw toTransportError(error, options.endpoint);
  } finally {
    signal.removeEventListener('abort', onAbort);
    socket.destroy();
  }
}

/** Creates and starts a container, leaving it running. With autoRemove the engine removes it when it exits. */
export async function runInBackground(client: EngineClient, options: ContainerSpec): Promise<{ id: string }> {
  const id = await createContainer(client, options, options.autoRemove ?? false);
  options.onStatus?.(`Starting ${shortId(id)}`);
  await client.containers.start(id, { signal: options.signal });
  return { id };
}

export * from './stopSequences';

export function listImages(client: EngineClient, options: CallOptions & { all?: boolean } = {}): Promise<ImageSummary[]> {
  return client.images.list({ all: options.all, signal: options.signal });
}

export interface PrintLogsOptions extends LogsOptions, CallOptions, JoinFramesOption {
  onOutput: OutputHandler;
}

/** Prints a container's logs (framing from its TTY setting), following them when asked. */
export async function printLogs(client: EngineClient, id: string, options: PrintLogsOptions): Promise<void> {
  const { onOutput, ...logs } = options;
  for await (const chunk of client.containers.logs(id, logs)) {
    const delivered = onOutput(chunk);
    if (isThenable(delivered)) await delivered;
  }
}

export interface PullOptions extends CallOptions {
  credentials?: CredentialLookup | undefined;
  onProgress?: ((progress: PullProgress) => void) | undefined;
}

/** Pulls an image with the registry's credentials when a lookup provides them; in-stream failures throw. */
export async function pull(client: EngineClient, reference: string, options: PullOptions = {}): Promise<void> {
  parseImageReference(reference);
  const auth = options.credentials ? await options.credentials(registryKeyFor(reference)) : undefined;
  for await (const progress of client.images.pull(reference, { auth, signal: options.signal })) options.onProgress?.(progress);
}

export interface CommitWorkflowOptions extends Omit<RunOptions, 'autoRemove'> {
  repo: string;
  tag?: string | undefined;
  comment?: string | undefined;
  author?: string | undefined;
  /** Dockerfile instructions for the new image, e.g. `CMD ["/bin/sh"]`. */
  changes?: string[] | undefined;
}

export interface CommitWorkflowResult {
  containerId: string;
  exitCode: number;
  imageId: string;
}

/** Runs a container to completion (create, start, wait), then commits it as repo:tag. The container is kept. */
export async function commitWorkflow(client: EngineClient, options: CommitWorkflowOptions): Promise<CommitWorkflowResult> {
  // Check the target name before anything runs, so bad input loses nothing.
  parseImageReference(options.tag ? `${options.repo}:${options.tag}` : options.repo);
  const { id, exitCode } = await runContainer(client, { ...options, autoRemove: false });
  options.onStatus?.(`Committing ${shortId(id)}`);
  const { Id } = await client.containers.commit(id, {
    repo: options.repo,
    tag: options.tag,
    comment: options.comment,
    author: options.author,
    changes: options.changes,
    signal: options.signal,
  });
  return { containerId: id, exitCode, imageId: Id };
}

/** Creates the container; when the engine does not have the image, pulls it and creates again (like docker run). */
async function createContainer(client: EngineClient, spec: ContainerSpec, autoRemoveOnEngine: boolean): Promise<string> {
  parseImageReference(spec.image);
  if (spec.name !== undefined) assertValidContainerName(spec.name);
  const tty = spec.tty ?? false;
  const body: ContainerCreateBody = {
    ...spec.config,
    Image: spec.image,
    ...(spec.cmd && spec.cmd.length > 0 ? { Cmd: spec.cmd } : {}),
    ...(spec.env ? { Env: spec.env } : {}),
    ...(spec.labels ? { Labels: spec.labels } : {}),
    Tty: tty,
    OpenStdin: spec.interactive ?? false,
    // docker run -i: the container's stdin closes when the attached client closes its side.
    ...(spec.interactive ? { StdinOnce: !(spec.keepStdinOpen ?? false), AttachStdin: true } : {}),
    AttachStdout: true,
    AttachStderr: true,
    HostConfig: {
      ...spec.hostConfig,
      ...(spec.networkMode !== undefined ? { NetworkMode: spec.networkMode } : {}),
      ...(autoRemoveOnEngine ? { AutoRemove: true } : {}),
    },
  };
  const create = async (): Promise<{ Id: string }> => {
    await assertCommandHasProgram(client, spec);
    return client.containers.create(body, { name: spec.name, signal: spec.signal });
  };
  try {
    return (await create()).Id;
  } catch (error) {
    if (!isEngineError(error, 'not-found')) throw error;
    spec.onStatus?.(`Pulling ${spec.image}`);
    await pull(client, spec.image, { credentials: spec.credentials, signal: spec.signal, onProgress: spec.onPullProgress });
    return (await create()).Id;
  }
}

/**
 * Refuses a command whose program (its first word) is blank before anything is created: the engine would create the
 * container and only fail at the start. Unless the image has an ENTRYPOINT: then the words are its arguments, and an
 * empty argument is legitimate. An image that is not here yet is checked on the attempt after the pull.
 */
async function assertCommandHasProgram(client: EngineClient, spec: ContainerSpec): Promise<void> {
  const cmd = spec.cmd;
  if (!cmd || cmd.length === 0 || (cmd[0] as string).trim() !== '') return;
  let entrypoint: unknown;
  try {
    entrypoint = (await client.images.inspect(spec.image, { signal: spec.signal })).Config?.['Entrypoint'];
  } catch (error) {
    if (isEngineError(error, 'not-found')) return;
    throw error;
  }
  if (Array.isArray(entrypoint) && entrypoint.length > 0) return;
  if (cmd.every((word) => word.trim() === '')) {
    throw new EngineError('bad-request', "The command is empty: give a program to run, or leave it out to run the image's default");
  }
  throw new EngineError(
    'bad-request',
    "The command's first word, the program to run, is empty: give a program, or leave the command out to run the image's default",
  );
}

async function stopQuietly(client: EngineClient, id: string, timeoutSeconds: number): Promise<void> {
  try {
    await client.containers.stop(id, { timeoutSeconds });
  } catch {
    // Best effort: the run is already failing with the cancellation, which is what the caller must see.
  }
}

/**
 * Waits until the engine has removed an AutoRemove container, so that once a run returns the container is gone (as
 * docker run --rm does). An engine that cannot wait for removal gets a plain removal instead; either way it is
 * bounded, because a run that finished must not hang on housekeeping.
 */
async function awaitRemoval(client: EngineClient, id: string): Promise<void> {
  try {
    const { result } = await client.containers.wait(id, { condition: 'removed', signal: AbortSignal.timeout(REMOVAL_WAIT_MS) });
    await result;
  } catch (error) {
    if (!isEngineError(error, 'not-found')) await removeQuietly(client, id);
  }
}

const REMOVAL_WAIT_MS = 15_000;

function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  return present.length <= 1 ? present[0] : AbortSignal.any(present);
}

async function removeQuietly(client: EngineClient, id: string): Promise<void> {
  try {
    await client.containers.remove(id, { force: true });
  } catch {
    // Best effort: a container that is already gone is what we wanted.
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

