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
  await terminal.opened;
  for (const shell of SHELL_CANDIDATES) {
    const result = await tryShell(client, containerId, shell, terminal, log);
    if (result !== 'missing') return { shell, exitCode: result };
    log(`${shell} is not available in ${containerId.slice(0, 12)}; trying the next shell`);
  }
  throw new Error(`The container has neither ${SHELL_CANDIDATES.join(' nor ')}`);
}

async function tryShell(
  client: ShellClient,
  containerId: string,
  shell: string,
  terminal: BufferedPseudoterminal,
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
  // Output is held until it is clearly not the runtime's "not found" message, so a fallback shows nothing stale.
  let held: Buffer[] | undefined = [];
  const release = (): void => {
    if (!held) return;
    for (const data of held) terminal.write(decoders.decode('tty', data));
    held = undefined;
  };
  const subscriptions = [
    terminal.onInput((data) => {
      release();
      socket.write(data);
    }),
    terminal.onDidSetDimensions((dimensions) => resize(dimensions.rows, dimensions.columns)),
  ];
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
    signal.removeEventListener('abort', onAbort);
    for (const subscription of subscriptions) subscription.dispose();
  }
  if (signal.aborted) return null;
  const info = await client.inspectExec(exec.Id).catch(() => undefined);
  const exitCode = info?.ExitCode ?? null;
  if (held && exitCode !== null && MISSING_EXIT_CODES.has(exitCode)) return 'missing';
  release();
  return exitCode;
}
