/**
 * Finding a Node.js inspector inside a container: the container's processes (`top`), the node processes among them,
 * and the port each one's `--inspect` flags name. A node process without the inspector can be asked to open it with
 * SIGUSR1 (Node's documented signal), and the inspector's own HTTP endpoint says when it answers.
 */
import type { EngineClient, TopResult } from '../api';
import { execCapture } from '../files';
import { EngineError, http } from '../connection';

/** Node's default inspector port. */
export const DEFAULT_INSPECTOR_PORT = 9229;

export interface NodeProcess {
  /** As `top` shows it: the host's PID on dockerd, the container's on Podman. */
  readonly pid: number;
  /** The whole command line, as `top` shows it. */
  readonly command: string;
  /** The port its `--inspect*` flags name; undefined when it was started without the inspector. */
  readonly inspectorPort: number | undefined;
}

const NODE_PROGRAM = /^(?:node|nodejs)(?:\d+)?$/;
const INSPECT_FLAG = /^--inspect(?:-brk|-wait)?(?:=(.*))?$/;
const INSPECT_PORT_FLAG = /^--inspect-port=(.*)$/;

/** `PORT`, `HOST:PORT` or `[V6]:PORT` → the port; undefined when it is not one. */
function portOf(value: string): number | undefined {
  const text = value.slice(value.lastIndexOf(':') + 1);
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 0 && port <= 65535 ? port : undefined;
}

/**
 * The inspector port NODE's options (the words after the program, up to the script) name, or undefined when none
 * turns the inspector on. `--inspect-port` alone only sets the port for a later SIGUSR1, so it is not an inspector.
 */
export function inspectorPortOf(words: readonly string[]): number | undefined {
  let enabled = false;
  let port = DEFAULT_INSPECTOR_PORT;
  for (const word of words) {
    if (!word.startsWith('-')) break;
    const inspect = INSPECT_FLAG.exec(word);
    if (inspect) {
      enabled = true;
      if (inspect[1] !== undefined) port = portOf(inspect[1]) ?? port;
      continue;
    }
    const portFlag = INSPECT_PORT_FLAG.exec(word);
    if (portFlag?.[1] !== undefined) port = portOf(portFlag[1]) ?? port;
  }
  return enabled ? port : undefined;
}

/** The port a node process opens its inspector on when it gets SIGUSR1: its `--inspect-port`, or 9229. */
export function signalledInspectorPort(process: NodeProcess): number {
  return process.inspectorPort ?? inspectorPortOf(['--inspect', ...process.command.split(/\s+/).slice(1)]) ?? DEFAULT_INSPECTOR_PORT;
}

function columnOf(titles: readonly string[], names: readonly string[]): number {
  return titles.findIndex((title) => names.includes(title.trim().toUpperCase()));
}

/**
 * Podman answers with the container's own `ps` output when it cannot read the processes itself: one title
 * `PID   USER     COMMAND` and one string per process. Those are split into columns, the last keeping its spaces.
 */
function columnsOf(top: TopResult): { titles: string[]; rows: string[][] } {
  const titles = top.Titles.flatMap((title) => title.trim().split(/\s+/));
  const rows = top.Processes ?? [];
  if (titles.length === top.Titles.length) return { titles, rows };
  return {
    titles,
    rows: rows.map((row) => {
      const words = row.join(' ').trim().split(/\s+/);
      return [...words.slice(0, titles.length - 1), words.slice(titles.length - 1).join(' ')];
    }),
  };
}

/** The node processes in a `top` answer (dockerd's `ps -ef` columns, Podman's, or a container's own `ps`), in its order. */
export function nodeProcessesOf(top: TopResult): NodeProcess[] {
  return processesRunning(top, NODE_PROGRAM).map(({ pid, command, args }) => ({ pid, command, inspectorPort: inspectorPortOf(args) }));
}

/** A process of a `top` answer: its PID, its command line, and the words after its program. */
export interface TopProcess {
  readonly pid: number;
  readonly command: string;
  readonly args: readonly string[];
}

/** The processes in a `top` answer whose program's file name matches PROGRAM, in its order. */
export function processesRunning(top: TopResult, program: RegExp): TopProcess[] {
  const { titles, rows } = columnsOf(top);
  const pidColumn = columnOf(titles, ['PID']);
  const commandColumn = columnOf(titles, ['CMD', 'COMMAND', 'ARGS']);
  if (pidColumn < 0 || commandColumn < 0) return [];
  const found: TopProcess[] = [];
  for (const row of rows) {
    // ps splits the command line at spaces; the last column may be split too when an engine splits every column.
    const command = row.slice(commandColumn).join(' ').trim();
    const words = command.split(/\s+/);
    const name = (words[0] ?? '').split('/').pop() ?? '';
    const pid = Number(row[pidColumn]);
    if (program.test(name) && Number.isInteger(pid)) found.push({ pid, command, args: words.slice(1) });
  }
  return found;
}

/**
 * The processes a debugger can attach to in a running container: PICK applied to its `top`. A clear refusal when it
 * is not running, or (NONE, given the container's name) when PICK finds none.
 */
export async function debuggableProcesses<Process>(
  client: EngineClient,
  container: string,
  pick: (top: TopResult) => Process[],
  none: (name: string) => EngineError,
  signal?: AbortSignal,
): Promise<Process[]> {
  const inspect = await client.containers.inspect(container, { signal });
  const name = inspect.Name.replace(/^\//, '');
  if (!inspect.State.Running) {
    throw new EngineError('conflict', `Container ${name} is not running`, { hint: 'Start it, then attach the debugger' });
  }
  const found = pick(await client.containers.top(inspect.Id, { signal }));
  if (found.length === 0) throw none(name);
  return found;
}

/** The running container's node processes; a clear refusal when it is not running or has none. */
export function findNodeProcesses(client: EngineClient, container: string, signal?: AbortSignal): Promise<NodeProcess[]> {
  const none = (name: string): EngineError =>
    new EngineError('not-found', `No Node.js process runs in container ${name}`, {
      hint: 'Start the app with node (for example node --inspect=9229 app.js), then attach the debugger',
    });
  return debuggableProcesses(client, container, nodeProcessesOf, none, signal);
}

/**
 * A script run by the container's own node: finds the process whose command line (its words joined by a space, as
 * `top` shows it) is argv[1] and sends it SIGUSR1. It exits 2 when none or several match.
 */
const SIGNAL_SCRIPT = [
  "const fs = require('fs');",
  'const wanted = process.argv[1];',
  "const found = fs.readdirSync('/proc').filter((pid) => /^\\d+$/.test(pid) && Number(pid) !== process.pid && Number(pid) !== process.ppid).filter((pid) => {",
  "  try { return fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').filter((w) => w !== '').join(' ') === wanted; } catch { return false; }",
  '});',
  "if (found.length !== 1) { console.error(found.length === 0 ? 'no such process' : 'several processes match'); process.exit(2); }",
  "process.kill(Number(found[0]), 'SIGUSR1');",
].join('\n');

/**
 * Sends SIGUSR1 to PROCESS so that Node opens its inspector (on 127.0.0.1 and its `--inspect-port`, 9229 by
 * default). The container's main process gets it through the engine's kill; another one through the container's
 * node, found by its command line, since `top`'s PIDs on dockerd are the host's.
 */
export async function signalInspector(client: EngineClient, container: string, process: NodeProcess, signal?: AbortSignal): Promise<void> {
  const inspect = await client.containers.inspect(container, { signal });
  if (process.pid === inspect.State.Pid || process.pid === 1) {
    await client.containers.kill(inspect.Id, { killSignal: 'SIGUSR1', signal });
    return;
  }
  const program = process.command.split(/\s+/)[0] ?? 'node';
  const outcome = await execCapture(client, inspect.Id, [program, '-e', SIGNAL_SCRIPT, process.command], signal);
  if (outcome.exitCode !== 0) {
    throw new EngineError('server', `Could not signal node process ${process.pid}: ${outcome.stderr || `exit status ${outcome.exitCode}`}`, {
      hint: 'Start the app with node --inspect instead, then attach the debugger',
    });
  }
}

/** What the inspector's `/json/version` answers: its Node.js version, or undefined while nothing answers. */
export function inspectorVersion(port: number, host = '127.0.0.1', signal?: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const request = http().get({ host, port, path: '/json/version', agent: false, signal }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (body.length < 4096) body += chunk;
      });
      response.on('end', () => {
        try {
          const parsed = JSON.parse(body) as { Browser?: unknown };
          resolve(typeof parsed.Browser === 'string' ? parsed.Browser : undefined);
        } catch {
          resolve(undefined);
        }
      });
      response.on('error', () => resolve(undefined));
    });
    request.on('error', () => resolve(undefined));
  });
}

/**
 * Asks the inspector behind HOST:PORT until it answers (a signalled node opens it within moments), at most
 * `attempts` times, `delayMs` apart. Throws a clear error when it never does.
 */
export async function waitForInspector(port: number, options: { signal?: AbortSignal | undefined; attempts?: number; delayMs?: number } = {}): Promise<string> {
  const attempts = options.attempts ?? 40;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (options.signal?.aborted) throw new EngineError('cancelled', 'Waiting for the Node.js inspector was cancelled');
    const version = await inspectorVersion(port, '127.0.0.1', options.signal);
    if (version !== undefined) return version;
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 250));
  }
  throw new EngineError('unreachable', 'The Node.js inspector did not answer through the forward', {
    hint: 'Check that the app runs with node --inspect on the port given, then attach again',
  });
}
