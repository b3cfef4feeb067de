/**
 * `berth run`: the "run and print output" and "run in background" sequences. In the foreground the container's
 * stdout goes to stdout and its stderr to stderr as it runs, and berth exits with the container's status.
 *
 * Ctrl-C in the foreground aborts the run's signal; the sequence then stops the container the way `docker stop`
 * does (SIGTERM, SIGKILL after 10 s) and, with --rm, removes it, and berth exits 130. docker instead forwards the
 * signal to the container, which a shell running as PID 1 ignores, leaving people stuck; stopping is what a user
 * pressing Ctrl-C expects. A second Ctrl-C leaves at once (the engine still finishes the stop).
 */
import { runContainer, runInBackground, type CredentialLookup, type EngineClient } from '../../engine';
import type { RunOptions } from '../commands';
import type { CommandContext } from '../io';
import { PullProgressPrinter } from '../progress';
import { outputWriter } from './output';

export async function runCommand(client: EngineClient, options: RunOptions, credentials: CredentialLookup, { io, signal }: CommandContext): Promise<number> {
  const printer = new PullProgressPrinter(io.stderr, io.stderrIsTerminal);
  let pulling = false;
  const spec = {
    image: options.image,
    cmd: options.cmd.length > 0 ? options.cmd : undefined,
    name: options.name,
    tty: options.tty,
    autoRemove: options.autoRemove,
    env: resolveEnv(options.env, io.env),
    labels: Object.keys(options.labels).length > 0 ? options.labels : undefined,
    networkMode: options.network,
    credentials,
    signal,
    onPullProgress: (progress: Parameters<PullProgressPrinter['update']>[0]): void => {
      if (!pulling) io.stderr.write(`Unable to find image '${options.image}' locally\n`);
      pulling = true;
      printer.update(progress);
    },
  };
  try {
    if (options.detach) {
      const { id } = await runInBackground(client, spec);
      io.stdout.write(`${id}\n`);
      return 0;
    }
    const write = outputWriter(io);
    const { exitCode } = await runContainer(client, {
      ...spec,
      onOutput: (chunk) => {
        printer.finish();
        write(chunk);
      },
    });
    return exitCode;
  } finally {
    printer.finish();
  }
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
