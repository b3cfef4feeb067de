/**
 * An interactive shell in a running container: exec with a TTY over the hijacked connection of
 * `POST /exec/{id}/start`, keystrokes in, terminal bytes out, terminal resizes → `POST /exec/{id}/resize`.
 * `bash` is tried first; when the image has none, `sh`.
 */
import { shortId } from '../common/format';
import { DisposableStore } from '../common/lifecycle';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EngineClient, ExecInspect } from '../engine';
import { isEngineError } from '../engine';
import { StreamDecoders } from './terminalText';

type ShellClient = { readonly containers: Pick<EngineClient['containers'], 'inspect'>; readonly exec: Pick<EngineClient['exec'], 'create' | 'startAttached' | 'resize' | 'inspect'> };

/** What a shell needs of its terminal (a BufferedPseudoterminal in the extension; no `vscode` here). */
export interface ShellTerminal {
  /** Resolves when the terminal is open (its size is known then). */
  readonly opened: Promise<void>;
  /** Aborted when the user closes the terminal. */
  readonly signal: AbortSignal;
  readonly dimensions: { readonly rows: number; readonly columns: number } | undefined;
  onInput(listener: (data: string) => void): { dispose(): void };
  onDidSetDimensions(listener: (dimensions: { rows: number; columns: number }) => void): { dispose(): void };
  write(text: string): void;
}

/** What an engine answers (instead of hijacking) when the program does not exist in the image. */
const MISSING_PROGRAM = /executable file not found|no such file or directory|exec failed/i;
/** Exit statuses of a program that could not be found (127) or run (126): try the next shell. */
const LAUNCH_FAILURE_EXIT_CODES = new Set([126, 127]);

export const SHELL_CANDIDATES = ['bash', 'sh'] as const;

/** Delays between exec inspections while a shell is starting: quick at first, then gentler. */
const START_POLL_DELAYS_MS = [10, 20, 40, 80, 160, 250];
/** Inspections after the stream closed before taking the engine's word as final. */
const POLLS_AFTER_CLOSE = 20;
/**
 * Pauses between looks at the container after its shell was killed (about 6 s in all). Docker ends the exec before
 * it records the container's exit (tens of ms apart), Podman records a stop or restart after locks and cleanup,
 * which takes seconds on a busy machine. A container that did stop is seen at the first look that shows it.
 */
const CONTAINER_SETTLE_DELAYS_MS = [50, 100, 200, 400, 750, 1000, 1500, 2000];

/**
 * Keystrokes typed before a shell is known to run are held, then handed to the shell that does run: input sent to
 * a `bash` probe that turns out missing would be lost.
 */
export class InputQueue {
  private readonly held: string[] = [];
  private sink: ((data: string) => void) | undefined;

  push(data: string): void {
    if (this.sink) this.sink(data);
    else this.held.push(data);
  }

  /** From now on input goes to `sink`, starting with what was held. */
  attach(sink: (data: string) => void): void {
    this.sink = sink;
    for (const data of this.held.splice(0)) sink(data);
  }

  detach(): void {
    this.sink = undefined;
  }
}

/** How a shell's exec process looks to the engine while it is being started. */
export type ExecLaunch = 'starting' | 'running' | 'missing' | 'ended';

/**
 * Reads an exec inspection. The engine gives the process a PID only once the runtime has started it (Docker shows
 * `Running` with PID 0 before that; Podman reports ExitCode 0 while it runs), so a PID is the proof that the shell
 * exists. An exec that stopped without ever having a PID and with status 126/127 could not be launched.
 *
 * Not running and no PID is also an exec not started yet: Docker answers the upgrade before it starts the exec
 * (ExitCode null then), and Podman reports ExitCode 0 both before the start and after an end (it clears the PID).
 * Only a closed stream says such an exec has ended; Docker's ExitCode null says its end is not recorded yet.
 */
export function execLaunchState(info: Pick<ExecInspect, 'Running' | 'ExitCode' | 'Pid'>, streamClosed = false): ExecLaunch {
  const hasPid = (info.Pid ?? 0) > 0;
  if (info.Running) return hasPid || info.Pid === undefined ? 'running' : 'starting';
  if (!hasPid && info.ExitCode !== null && LAUNCH_FAILURE_EXIT_CODES.has(info.ExitCode)) return 'missing';
  if (hasPid) return 'ended';
  return streamClosed && info.ExitCode !== null ? 'ended' : 'starting';
}

/** Why a shell ended on the container's side, when it did. */
export type ContainerChange = 'stopped' | 'restarted' | 'removed';

export interface ShellOutcome {
  readonly shell: string;
  readonly exitCode: number | null;
  /** Set when the shell ended because its container stopped, restarted or was removed. */
  readonly containerChange?: ContainerChange | undefined;
}

export async function runShell(
  client: ShellClient,
  containerId: string,
  terminal: ShellTerminal,
  log: (message: string) => void,
): Promise<ShellOutcome> {
  const input = new InputQueue();
  const typing = terminal.onInput((data) => input.push(data));
  try {
    await terminal.opened;
    const { signal } = terminal;
    const startedAt = (await client.containers.inspect(containerId, { signal })).State.StartedAt;
    for (const shell of SHELL_CANDIDATES) {
      const result = await tryShell(client, containerId, shell, terminal, input, log);
      if (result === 'missing') {
        log(`${shell} is not available in ${shortId(containerId)}; trying the next shell`);
        continue;
      }
      if (signal.aborted) return { shell, exitCode: result };
      const containerChange = await containerChangeSince(client, containerId, startedAt, signal, killedBySignal(result));
      return { shell, exitCode: result, containerChange };
    }
    throw new Error(`The container has neither ${SHELL_CANDIDATES.join(' nor ')}`);
  } finally {
    typing.dispose();
  }
}

/** A shell that did not exit by itself: killed by a signal (status 128 + N), or its status is unknown. */
function killedBySignal(exitCode: number | null): boolean {
  return exitCode === null || exitCode > 128;
}

/**
 * Whether the container stopped, restarted (a new StartedAt) or was removed since the shell began. A killed shell
 * may be reported before the engine has recorded its container's end, so then the container is looked at a few
 * more times before concluding that only the shell was killed.
 */
async function containerChangeSince(
  client: ShellClient,
  containerId: string,
  startedAt: string,
  signal: AbortSignal,
  shellKilled: boolean,
): Promise<ContainerChange | undefined> {
  const looks = shellKilled ? CONTAINER_SETTLE_DELAYS_MS.length + 1 : 1;
  for (let look = 0; ; look++) {
    const change = await inspectContainerChange(client, containerId, startedAt, signal);
    if (change || look + 1 >= looks) return change;
    await sleep(CONTAINER_SETTLE_DELAYS_MS[look], undefined, { signal });
  }
}

async function inspectContainerChange(
  client: ShellClient,
  containerId: string,
  startedAt: string,
  signal: AbortSignal,
): Promise<ContainerChange | undefined> {
  try {
    const { State: state } = await client.containers.inspect(containerId, { signal });
    if (state.StartedAt !== startedAt) return 'restarted';
    return state.Running && !state.Restarting ? undefined : 'stopped';
  } catch (error) {
    if (isEngineError(error, 'not-found')) return 'removed';
    throw error;
  }
}

/**
 * Runs one shell candidate. Nothing reaches it or the terminal until the engine shows the process started: its
 * output is held and keystrokes stay queued, so a missing `bash` leaves no trace and the next shell gets every key.
 */
async function tryShell(
  client: ShellClient,
  containerId: string,
  shell: string,
  terminal: ShellTerminal,
  input: InputQueue,
  log: (message: string) => void,
): Promise<number | null | 'missing'> {
  const signal = terminal.signal;
  const exec = await client.exec.create(containerId, {
    cmd: [shell],
    tty: true,
    attachStdin: true,
    attachStdout: true,
    attachStderr: true,
    env: ['TERM=xterm-256color'],
    signal,
  });
  let socket: Duplex;
  try {
    socket = await client.exec.startAttached(exec.Id, { tty: true, signal });
  } catch (error) {
    if (isEngineError(error) && MISSING_PROGRAM.test(error.message)) return 'missing';
    throw error;
  }

  const decoders = new StreamDecoders();
  let held: Buffer[] | undefined = [];
  const showHeld = (): void => {
    for (const data of held ?? []) terminal.write(decoders.decode('tty', data));
    held = undefined;
  };
  let streamClosed = false;
  const closed = new Promise<void>((resolve, reject) => {
    socket.on('data', (data: Buffer) => {
      if (held) held.push(data);
      else terminal.write(decoders.decode('tty', data));
    });
    socket.once('close', () => {
      streamClosed = true;
      resolve();
    });
    socket.once('error', (error) => (signal.aborted ? resolve() : reject(error)));
  });
  // A rejection is read below; until then it must not count as unhandled.
  closed.catch(() => undefined);
  const onAbort = (): void => {
    socket.destroy();
  };
  signal.addEventListener('abort', onAbort);
  const listeners = new DisposableStore();
  try {
    const launch = await whenLaunched(client, exec.Id, () => streamClosed, signal);
    if (launch === 'missing') {
      if (held?.length) log(`${shell}: ${Buffer.concat(held).toString('utf8').trim()}`);
      return 'missing';
    }
    showHeld();
    if (launch === 'running') {
      const resize = (rows: number, cols: number): void => {
        client.exec.resize(exec.Id, { rows, cols, signal }).catch((error: unknown) => log(`Resizing the shell failed: ${String(error)}`));
      };
      if (terminal.dimensions) resize(terminal.dimensions.rows, terminal.dimensions.columns);
      listeners.add(terminal.onDidSetDimensions((dimensions) => resize(dimensions.rows, dimensions.columns)));
      input.attach((data) => socket.write(data));
    }
    await closed;
  } finally {
    input.detach();
    signal.removeEventListener('abort', onAbort);
    listeners.dispose();
    socket.destroy();
  }
  for (const [, rest] of decoders.flush()) terminal.write(rest);
  if (signal.aborted) return null;
  const info = await client.exec.inspect(exec.Id).catch(() => undefined);
  return info?.ExitCode ?? null;
}

/**
 * Asks the engine about the exec until its process runs or has ended. Polling is brief: a shell starts (or fails
 * to) within milliseconds; it is what tells a running shell from a missing one without guessing from output or time.
 */
async function whenLaunched(
  client: ShellClient,
  execId: string,
  streamClosed: () => boolean,
  signal: AbortSignal,
): Promise<Exclude<ExecLaunch, 'starting'>> {
  let pollsAfterClose = 0;
  for (let poll = 0; ; poll++) {
    // Read before the inspection: a stream that closed before the engine answered is closed in what it says.
    const closed = streamClosed();
    const state = execLaunchState(await client.exec.inspect(execId, { signal }), closed);
    if (state !== 'starting') return state;
    // The stream closed but the engine still says "starting": it has not recorded the end yet; ask a few more times.
    if (closed && ++pollsAfterClose > POLLS_AFTER_CLOSE) return 'ended';
    await sleep(START_POLL_DELAYS_MS[Math.min(poll, START_POLL_DELAYS_MS.length - 1)], undefined, { signal });
  }
}
