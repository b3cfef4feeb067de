/**
 * Finding a debugpy server inside a container: the container's Python processes (`top`) started with
 * `python3 -m debugpy --listen [HOST:]PORT …`, and the port each listens on; and, for a container Berth just
 * started that way, waiting until that port listens (read from the container's own /proc/net/tcp, so that no probe
 * connection takes the one debugger debugpy accepts).
 */
import type { EngineClient, TopResult } from '../api';
import { execCapture } from '../files';
import { EngineError, type ContainerCreateBody } from '../connection';
import { debuggableProcesses, processesRunning } from './nodeInspector';

/** debugpy's usual port. */
export const DEFAULT_DEBUGPY_PORT = 5678;

export interface DebugpyProcess {
  /** As `top` shows it: the host's PID on dockerd, the container's on Podman. */
  readonly pid: number;
  /** The whole command line, as `top` shows it. */
  readonly command: string;
  /** The port its `--listen` names. */
  readonly port: number;
}

const PYTHON_PROGRAM = /^python(?:\d(?:\.\d+)?)?$/;
/** Python's options that take the next word as their value. */
const PYTHON_VALUE_OPTIONS = new Set(['-X', '-W', '-Q']);
/** debugpy's options that take the next word as their value (`--configure-NAME VALUE` too). */
const DEBUGPY_VALUE_OPTIONS = new Set(['--listen', '--connect', '--log-to', '--pid', '--adapter-access-token']);

/** `PORT` or `HOST:PORT` → the port; undefined when it is not one. */
function portOf(value: string): number | undefined {
  const text = value.slice(value.lastIndexOf(':') + 1);
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/** Whether WORD names debugpy run as a script (`…/debugpy` or `…/debugpy/__main__.py`). */
function isDebugpyPath(word: string): boolean {
  return /(?:^|\/)debugpy(?:\/__main__\.py)?\/?$/.test(word);
}

/**
 * The port the words after the python program listen on with debugpy (`-m debugpy --listen [HOST:]PORT`), or
 * undefined when they do not start debugpy listening (debugpy's own adapter process, `--connect`, another module).
 */
export function debugpyPortOf(words: readonly string[]): number | undefined {
  let at = 0;
  let debugpy = false;
  while (at < words.length) {
    const word = words[at] ?? '';
    if (word === '-m' || word.startsWith('-m')) {
      const module = word === '-m' ? words[at + 1] : word.slice(2);
      debugpy = module === 'debugpy';
      at += word === '-m' ? 2 : 1;
      break;
    }
    if (!word.startsWith('-')) {
      debugpy = isDebugpyPath(word);
      at += 1;
      break;
    }
    if (word === '-c') return undefined;
    at += PYTHON_VALUE_OPTIONS.has(word) ? 2 : 1;
  }
  if (!debugpy) return undefined;
  while (at < words.length) {
    const word = words[at] ?? '';
    if (!word.startsWith('--')) return undefined;
    if (word === '--listen') return portOf(words[at + 1] ?? '');
    at += DEBUGPY_VALUE_OPTIONS.has(word) || word.startsWith('--configure-') ? 2 : 1;
  }
  return undefined;
}

/** The processes in a `top` answer that run debugpy listening, in its order. */
export function debugpyProcessesOf(top: TopResult): DebugpyProcess[] {
  return processesRunning(top, PYTHON_PROGRAM).flatMap(({ pid, command, args }) => {
    const port = debugpyPortOf(args);
    return port === undefined ? [] : [{ pid, command, port }];
  });
}

/** The running container's Python processes listening with debugpy; a clear refusal when it is not running or has none. */
export function findDebugpyServers(client: EngineClient, container: string, signal?: AbortSignal): Promise<DebugpyProcess[]> {
  const none = (name: string): EngineError =>
    new EngineError('not-found', `No Python process in container ${name} listens with debugpy`, {
      hint: 'Start the app with python3 -m debugpy --listen 0.0.0.0:5678 app.py, then attach the debugger',
    });
  return debuggableProcesses(client, container, debugpyProcessesOf, none, signal);
}

/** Whether /proc/net/tcp text (tcp and tcp6 alike) has a socket listening on PORT. */
export function listensOn(procNetTcp: string, port: number): boolean {
  const wanted = port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of procNetTcp.split('\n')) {
    const [, local, , state] = line.trim().split(/\s+/);
    if (state === '0A' && local?.toUpperCase().endsWith(`:${wanted}`)) return true;
  }
  return false;
}

/** The container's id while it runs; a clear error once it has stopped. */
async function runningId(client: EngineClient, container: string, signal: AbortSignal | undefined): Promise<string> {
  const inspect = await client.containers.inspect(container, { signal });
  if (inspect.State.Running) return inspect.Id;
  throw new EngineError('conflict', `Container ${inspect.Name.replace(/^\//, '')} stopped before its debugpy server listened (exit status ${inspect.State.ExitCode})`, {
    hint: 'Read its logs (Show Logs), fix the app or the configuration, then start debugging again',
  });
}

/**
 * Waits until something in the container listens on PORT (a debugpy server opens it a moment after Python
 * starts), reading /proc/net/tcp with the container's `cat`, at most `attempts` times `delayMs` apart. A container
 * without `cat` is not waited for. Throws a clear error when the port never listens or the container stops.
 */
export async function waitForListening(
  client: EngineClient,
  container: string,
  port: number,
  options: { signal?: AbortSignal | undefined; attempts?: number; delayMs?: number } = {},
): Promise<void> {
  const attempts = options.attempts ?? 120;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (options.signal?.aborted) throw new EngineError('cancelled', 'Waiting for the debugpy server was cancelled');
    const id = await runningId(client, container, options.signal);
    const outcome = await execCapture(client, id, ['cat', '/proc/net/tcp', '/proc/net/tcp6'], options.signal).catch(() => undefined);
    // 126 and 127: no `cat` to run (nothing to wait with), unless the container stopped under the exec. An exec
    // that failed otherwise is asked again: the container may be stopping, which the next round says.
    if (outcome !== undefined && (outcome.exitCode === 126 || outcome.exitCode === 127) && outcome.stdout.length === 0) {
      await runningId(client, container, options.signal);
      return;
    }
    if (outcome !== undefined && listensOn(outcome.stdout.toString('utf8'), port)) return;
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 250));
  }
  throw new EngineError('unreachable', `Nothing listens on port ${port} in the container`, {
    hint: 'Check that the app runs with python3 -m debugpy --listen on that port, then start debugging again',
  });
}

/** What a berth-python launch configuration asks to run. */
export interface DebugpyLaunch {
  readonly image: string;
  /** The script, relative to `remoteRoot` or absolute in the container. */
  readonly program: string;
  readonly args: readonly string[];
  readonly python: string;
  readonly port: number;
  readonly remoteRoot: string;
  /** The host folder bind-mounted at `remoteRoot`; undefined when the image holds the app. */
  readonly mount: string | undefined;
  readonly env: Readonly<Record<string, string>>;
}

/** The label on a container a berth-python launch started (removed when its debug session ends). */
export const DEBUGPY_LAUNCH_LABEL = 'berth.debug';

/**
 * The container a berth-python launch runs: the program under `PYTHON -m debugpy --listen 0.0.0.0:PORT
 * --wait-for-client`, so that it waits for the debugger before its first line, in `remoteRoot`.
 */
export function debugpyLaunchBody(launch: DebugpyLaunch): ContainerCreateBody {
  return {
    Image: launch.image,
    Cmd: [launch.python, '-m', 'debugpy', '--listen', `0.0.0.0:${launch.port}`, '--wait-for-client', launch.program, ...launch.args],
    WorkingDir: launch.remoteRoot,
    Env: Object.entries(launch.env).map(([name, value]) => `${name}=${value}`),
    Labels: { [DEBUGPY_LAUNCH_LABEL]: 'python' },
    HostConfig: launch.mount === undefined ? {} : { Binds: [`${launch.mount}:${launch.remoteRoot}`] },
  };
}
