/**
 * `berth`: the command-line front end (bundled to dist/cli.js). Wires the process to `runCli`: argv, the two
 * output streams, the environment, and Ctrl-C. The first Ctrl-C aborts the running call through its AbortSignal
 * (and lets the command clean up); a second one exits at once.
 */
import { once } from 'node:events';
import { version } from '../package.json';
import { EXIT_INTERRUPTED } from './cli/failure';
import { runCli } from './cli/main';

async function main(): Promise<number> {
  const controller = new AbortController();
  const onInterrupt = (): void => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  // A closed pipe (`berth logs x | head`) is not a failure worth a message.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') process.stderr.write(`berth: cannot write the output: ${error.message}\n`);
    process.exit(error.code === 'EPIPE' ? 0 : 1);
  });
  try {
    return await runCli(process.argv.slice(2), {
      io: {
        stdout: process.stdout,
        stderr: process.stderr,
        env: process.env,
        stderrIsTerminal: process.stderr.isTTY === true,
        now: () => Date.now(),
      },
      signal: controller.signal,
      version,
    });
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

/** Resolves once everything written to the stream has been handed to the OS (pipes are asynchronous on macOS). */
async function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength > 0) await once(stream, 'drain');
}

main()
  .catch((error: unknown) => {
    // runCli reports every failure itself; this is the last guard against a stack trace.
    process.stderr.write(`berth: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  })
  .then(async (exitCode) => {
    // The client is closed by now; exiting here skips waiting for the engine to acknowledge the socket's close,
    // which costs a CLI call tens of milliseconds on a busy machine.
    await Promise.all([drained(process.stdout), drained(process.stderr)]);
    process.exit(exitCode);
  })
  .catch(() => process.exit(1));
