/** `ps`, `stop`, `stop-all`, `logs`, `wait` and `commit`: each a thin front over one client call or sequence. */
import type { EngineClient } from '../../engine';
import { printLogs, stopAllRunning } from '../../engine';
import type { CommitCommandOptions, LogsCommandOptions, PsOptions, StopAllOptions, StopOptions, WaitOptions } from '../commands';
import { describeFailure, EXIT_FAILURE } from '../failure';
import { containerTable, shortId } from '../format';
import type { CommandContext } from '../io';
import { outputWriter, printJson } from './output';

export async function listContainersCommand(client: EngineClient, options: PsOptions, { io, signal }: CommandContext): Promise<number> {
  const containers = await client.listContainers({ all: options.all, filters: options.filters, signal });
  if (options.json) printJson(io, containers);
  else if (options.quiet) io.stdout.write(containers.map((container) => `${options.noTrunc ? container.Id : shortId(container.Id)}\n`).join(''));
  else io.stdout.write(containerTable(containers, io.now(), !options.noTrunc));
  return 0;
}

/** Like `docker stop`: prints each name as given once stopped, reports each failure on its own line, goes on. */
export async function stopCommand(client: EngineClient, options: StopOptions, { io, signal }: CommandContext): Promise<number> {
  let exitCode = 0;
  for (const id of options.ids) {
    try {
      await client.stopContainer(id, { timeoutSeconds: options.timeoutSeconds, signal });
      io.stdout.write(`${id}\n`);
    } catch (error) {
      if (signal.aborted) throw error;
      io.stderr.write(`berth: ${describeFailure(error, false).message}\n`);
      exitCode = EXIT_FAILURE;
    }
  }
  return exitCode;
}

/** Stops every running container (or those matching `--filter`), printing each short id as it stops. */
export async function stopAllCommand(client: EngineClient, options: StopAllOptions, { io, signal }: CommandContext): Promise<number> {
  const result = await stopAllRunning(client, {
    timeoutSeconds: options.timeoutSeconds,
    filters: options.filters,
    signal,
    onStopped: (id) => io.stdout.write(`${shortId(id)}\n`),
  });
  for (const failure of result.failed) {
    io.stderr.write(`berth: ${shortId(failure.id)}: ${describeFailure(failure.error, false).message}\n`);
  }
  return result.failed.length > 0 ? EXIT_FAILURE : 0;
}

export async function logsCommand(client: EngineClient, options: LogsCommandOptions, { io, signal }: CommandContext): Promise<number> {
  await printLogs(client, options.id, {
    stdout: true,
    stderr: true,
    follow: options.follow,
    tail: options.tail,
    timestamps: options.timestamps,
    signal,
    onOutput: outputWriter(io),
  });
  return 0;
}

export async function waitCommand(client: EngineClient, options: WaitOptions, { io, signal }: CommandContext): Promise<number> {
  const { result } = await client.waitContainer(options.id, { condition: 'not-running', signal });
  const outcome = await result;
  io.stdout.write(`${outcome.StatusCode}\n`);
  return 0;
}

export async function commitCommand(client: EngineClient, options: CommitCommandOptions, { io, signal }: CommandContext): Promise<number> {
  const { Id } = await client.commitContainer(options.id, {
    repo: options.repo,
    tag: options.tag,
    comment: options.message,
    author: options.author,
    changes: options.changes,
    signal,
  });
  io.stdout.write(`${Id}\n`);
  return 0;
}
