/**
 * `berth run`: the "run and print output" and "run in background" sequences. In the foreground the container's
 * stdout goes to stdout and its stderr to stderr as it runs, and berth exits with the container's status.
 *
 * - Ctrl-C stops the container the way `docker stop` does (SIGTERM, SIGKILL after 10 s) and keeps printing what it
 *   says while it shuts down; then berth exits 130. docker instead forwards SIGINT, which a shell running as PID 1
 *   ignores, leaving people stuck; stopping is what a user pressing Ctrl-C expects. A second Ctrl-C leaves at once.
 * - SIGTERM, SIGHUP and SIGQUIT are passed on to the container (`kill?signal=`), as docker does; berth then exits
 *   with the container's status.
 * - When stdout breaks (`| head -1`) or fills (`> /dev/full`), the container is stopped as on Ctrl-C, and berth says
 *   so in docker's words and exits 1.
 * - `--rm` is the engine's AutoRemove, so the container goes whatever happens to berth.
 */
import { isLocalEngine, resolveRunOptions, runContainer, runInBackground, type EngineClient, type PullProgress } from '../../engine';
import type { RunOptions } from '../options';
import { UsageError } from '../args';
import { EXIT_FAILURE, EXIT_INTERRUPTED } from '../failure';
import type { CliIo, CommandDeps, ProcessSignals } from '../io';
import { PullProgressPrinter } from '../progress';
import { outputWriter } from './output';

export async function runCommand(options: RunOptions, { io, signal, signals, client: clientOf, credentials }: CommandDeps): Promise<number> {
  // A TTY fed from a file or a pipe never sees the end of its input, so the run would never end: refuse before
  // anything is created, with docker's words and its status.
  if (options.tty && options.interactive && !options.detach && io.stdin.isTTY !== true) throw new UsageError('the input device is not a TTY', EXIT_FAILURE);
  const client = clientOf();
  const extra = await resolveRunOptions(
    { ...options, envFiles: options.envFiles, env: options.env, network: options.network, labels: options.labels },
    { cwd: process.cwd(), environment: io.env, engineIsLocal: isLocalEngine(client.endpoint), autoRemove: options.autoRemove },
  );
  const printer = new PullProgressPrinter(io.stderr, io.stderrIsTerminal);
  let pulling = false;
  const spec = {
    image: options.image,
    cmd: options.cmd.length > 0 ? options.cmd : undefined,
    name: options.name,
    tty: options.tty,
    interactive: options.interactive,
    autoRemove: options.autoRemove,
    env: extra.env,
    labels: extra.labels,
    networkMode: extra.networkMode,
    config: extra.config,
    hostConfig: extra.hostConfig,
    credentials: credentials(),
    onPullProgress: (progress: PullProgress): void => {
      if (!pulling) io.stderr.write(`Unable to find image '${options.image}' locally\n`);
      pulling = true;
      printer.update(progress);
    },
  };
  const releases: Array<() => void> = [];
  try {
    if (options.detach) {
      const { id } = await runInBackground(client, { ...spec, signal });
      io.stdout.write(`${id}\n`);
      return 0;
    }
    const write = outputWriter(io);
    const result = await runContainer(client, {
      ...spec,
      // Ctrl-C and a broken stdout end the run gently: stop the container, show it to its end.
      interrupt: signal,
      stdin: options.interactive ? io.stdin : undefined,
      onStarted: (id) => releases.push(...containerControls(client, id, options.tty, io, signals)),
      onOutput: (chunk) => {
        printer.finish();
        return write(chunk);
      },
    });
    if (result.interrupted && !io.stdout.failure) {
      io.stderr.write('berth: interrupted\n');
      return EXIT_INTERRUPTED;
    }
    return result.exitCode;
  } finally {
    for (const release of releases) release();
    printer.finish();
  }
}

/** While the container runs: pass SIGTERM/SIGHUP/SIGQUIT on to it, and keep its TTY the size of berth's terminal. */
function containerControls(client: EngineClient, id: string, tty: boolean, io: CliIo, signals: ProcessSignals): Array<() => void> {
  let killTimer: NodeJS.Timeout | undefined;
  const kill = (killSignal: string): void => {
    // A container that exits meanwhile answers 409; its exit status is what berth reports then.
    client.containers.kill(id, { killSignal }).catch(() => undefined);
  };
  const releases = [
    signals.forward((name) => {
      if (name === 'SIGTERM' && killTimer !== undefined) {
        killNow(io, kill, 'a second SIGTERM');
        return;
      }
      kill(name);
      // A PID 1 with no handler ignores SIGTERM, and berth would wait for it for ever (under `timeout`, in CI),
      // leaving a --rm container running: after docker stop's grace period it is killed, as `docker stop` would.
      if (name === 'SIGTERM') killTimer = setTimeout(() => killNow(io, kill, `SIGTERM for ${SIGTERM_GRACE_SECONDS} s`), SIGTERM_GRACE_SECONDS * 1000);
    }),
    () => clearTimeout(killTimer),
  ];
  if (tty && io.terminalSize() !== undefined) {
    // One resize at a time, in order: two requests in flight may reach the engine swapped, and the container would
    // keep the older size. Each reads the size when it is sent, so a burst of SIGWINCH ends at the last size.
    let sending: Promise<void> = Promise.resolve();
    const resize = (): void => {
      sending = sending.then(async () => {
        const size = io.terminalSize();
        if (size) await client.containers.resize(id, { rows: size.rows, cols: size.columns }).catch(() => undefined);
      });
    };
    resize();
    releases.push(signals.onResize(resize));
  }
  if (tty && io.stdin.isTTY && io.stdin.setRawMode) {
    // -it: keys go to the container as typed (Ctrl-C included, as with docker), not through berth's line editing.
    io.stdin.setRawMode(true);
    releases.push(() => io.stdin.setRawMode?.(false));
  }
  return releases;
}

/** docker stop's default grace period between SIGTERM and SIGKILL. */
const SIGTERM_GRACE_SECONDS = 10;

function killNow(io: CliIo, kill: (signal: string) => void, after: string): void {
  io.stderr.write(`berth: the container is still running after ${after}; killing it (SIGKILL)\n`);
  kill('SIGKILL');
}

/** `-e K=V` as given; `-e K` takes K's value from berth's environment and is left out when K is unset (as docker). */
export function resolveEnv(entries: readonly string[], env: NodeJS.ProcessEnv): string[] | undefined {
  const resolved: string[] = [];
  for (const entry of entries) {
    if (entry.includes('=')) resolved.push(entry);
    else if (env[entry] !== undefined) resolved.push(`${entry}=${env[entry]}`);
  }
  return resolved.length > 0 ? resolved : undefined;
}
