/**
 * An interactive shell in a running container: exec with a TTY over the hijacked connection of
 * `POST /exec/{id}/start`, keystrokes in, terminal bytes out, terminal resizes → `POST /exec/{id}/resize`.
 * `bash` is tried first; when the image has none, `sh`.
 */
import type { Duplex } from 'node:stream';
import type { EngineClient } from '../engine';
import { isEngineError } from '../engine';
import type { BufferedPseudoterminal } from './bufferedPseudoterminal';
import { StreamDecoders } from './terminalText';

type ShellClient = Pick<EngineClient, 'createExec' | 'startExecAttached' | 'resizeExec' | 'inspectExec'>;

/** What the runtime writes into the stream when the program does not exist in the image. */
const MISSING_PROGRAM = /executable file not found|no such file or directory|exec failed/i;
/** Exit statuses of a program that could not be found or run. */
const MISSING_EXIT_CODES = new Set([126, 127]);

export const SHELL_CANDIDATES = ['bash', 'sh'] as const;
/** A shell that has said nothing this long after starting is running (shells print a prompt at once). */
const QUIET_START_MS = 1000;

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

export interface ShellOutcome {
  readonly shell: string;
  readonly exitCode: number | null;
}

export async function runShell(
  client: ShellClient,
  containerId: string,
  terminal: BufferedPseudoterminal,
  log: (message: string) => void,
): Promise<ShellOutcome> {
  const input = new InputQueue();
  const typing = terminal.onInput((data) => input.push(data));
  try {
    await terminal.opened;
    for (const shell of SHELL_CANDIDATES) {
      const result = await tryShell(client, containerId, shell, terminal, input, log);
      if (result !== 'missing') return { shell, exitCode: result };
      log(`${shell} is not available in ${containerId.slice(0, 12)}; trying the next shell`);
    }
    throw new Error(`The container has neither ${SHELL_CANDIDATES.join(' nor ')}`);
  } finally {
    typing.dispose();
  }
}

async function tryShell(
  client: ShellClient,
  containerId: string,
  shell: string,
  terminal: BufferedPseudoterminal,
  input: InputQueue,
  log: (message: string) => void,
): Promise<number | null | 'missing'> {
  const signal = terminal.signal;
  const exec = await client.createExec(containerId, {
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
    socket = await client.startExecAttached(exec.Id, { tty: true, signal });
  } catch (error) {
    if (isEngineError(error) && MISSING_PROGRAM.test(error.message)) return 'missing';
    throw error;
  }
  const resize = (rows: number, cols: number): void => {
    client.resizeExec(exec.Id, { rows, cols, signal }).catch((error: unknown) => log(`Resizing the shell failed: ${String(error)}`));
  };
  if (terminal.dimensions) resize(terminal.dimensions.rows, terminal.dimensions.columns);

  const decoders = new StreamDecoders();
  // Output (and input) is held until the shell clearly runs: its output is not the runtime's "not found" message,
  // or it stayed quiet while running. A fallback to the next shell then shows nothing stale and loses no keystroke.
  let held: Buffer[] | undefined = [];
  const quiet = setTimeout(() => release(), QUIET_START_MS);
  const showHeld = (): void => {
    if (!held) return;
    for (const data of held) terminal.write(decoders.decode('tty', data));
    held = undefined;
  };
  const release = (): void => {
    if (!held) return;
    showHeld();
    clearTimeout(quiet);
    input.attach((data) => socket.write(data));
  };
  const subscriptions = [terminal.onDidSetDimensions((dimensions) => resize(dimensions.rows, dimensions.columns))];
  const onAbort = (): void => {
    socket.destroy();
  };
  signal.addEventListener('abort', onAbort);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.on('data', (data: Buffer) => {
        if (!held) {
          terminal.write(decoders.decode('tty', data));
          return;
        }
        held.push(data);
        if (!MISSING_PROGRAM.test(Buffer.concat(held).toString('utf8'))) release();
      });
      socket.once('close', () => resolve());
      socket.once('error', (error) => (signal.aborted ? resolve() : reject(error)));
    });
  } finally {
    clearTimeout(quiet);
    input.detach();
    signal.removeEventListener('abort', onAbort);
    for (const subscription of subscriptions) subscription.dispose();
  }
  if (signal.aborted) return null;
  const info = await client.inspectExec(exec.Id).catch(() => undefined);
  const exitCode = info?.ExitCode ?? null;
  if (held && exitCode !== null && MISSING_EXIT_CODES.has(exitCode)) return 'missing';
  showHeld();
  return exitCode;
}
