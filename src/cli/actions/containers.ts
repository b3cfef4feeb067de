/** `ps`, `stop`, `stop-all`, `logs`, `wait` and `commit`: each a thin front over one client call or sequence. */
import { compareVersions, EngineError, printLogs, stopAllRunning, stopContainers, type EngineClient } from '../../engine';
import type { CommitCommandOptions, LogsCommandOptions, PsOptions, StopAllOptions, StopOptions, WaitOptions } from '../options';
import { describeFailure, EXIT_FAILURE } from '../failure';
import { containerTable, shortId } from '../format';
import { CONTAINER_TABLE, containerFormatTarget, containersNeedSize } from '../formatContexts';
import { prepareFormat, PS_WORDING, renderFormatted } from '../formatOption';
import type { CommandDeps } from '../io';
import { engineTimestamp } from '../timestamps';
import { outputWriter, printJson } from './output';

export async function listContainersCommand(options: PsOptions, { io, signal, client }: CommandDeps): Promise<number> {
  // The template is checked before anything is listed; `-q` wins over it, as with docker.
  // `-s` adds a SIZE column to the default table; as docker, it goes through the same formatter as --format.
  const format = options.format ?? (options.size && !options.json ? 'table' : undefined);
  const defaultTable = options.size ? `${CONTAINER_TABLE}\t{{.Size}}` : CONTAINER_TABLE;
  const prepared = format !== undefined && !options.quiet ? prepareFormat(format, defaultTable, PS_WORDING) : undefined;
  const size = options.size || (prepared !== undefined && containersNeedSize(prepared));
  const containers = await client().containers.list({ all: options.all, filters: options.filters, limit: options.last, ...(size ? { size } : {}), signal });
  if (prepared) io.stdout.write(renderFormatted(prepared, containerFormatTarget(containers, io.now(), !options.noTrunc)));
  else if (options.json) printJson(io, containers);
  else if (options.quiet) io.stdout.write(containers.map((container) => `${options.noTrunc ? container.Id : shortId(container.Id)}\n`).join(''));
  else io.stdout.write(containerTable(containers, io.now(), !options.noTrunc));
  return 0;
}

/**
 * Like `docker stop`: stops the containers in parallel (a few at a time), prints each name as given once it and
 * every name before it are done, so the output keeps the order of the arguments; a failure gets its own line.
 */
export async function stopCommand(options: StopOptions, { io, signal, client }: CommandDeps): Promise<number> {
  if (options.stopSignal !== undefined) await assertStopSignalSupported(client(), signal);
  const results = await stopContainers(client(), options.ids, {
    timeoutSeconds: options.timeoutSeconds,
    stopSignal: options.stopSignal,
    signal,
    onSettledInOrder: (id, error) => {
      if (error === undefined) io.stdout.write(`${id}\n`);
      else if (!signal.aborted) io.stderr.write(`berth: ${describeFailure(error, false).message}\n`);
    },
  });
  if (signal.aborted) throw results.find((result) => result.error !== undefined)?.error ?? new Error('interrupted');
  return results.some((result) => result.error !== undefined) ? EXIT_FAILURE : 0;
}

/**
 * An engine before API 1.42 ignores the stop request's signal and sends the container's own, so `-s` would say one
 * thing and do another (docker then stops with SIGTERM without a word): refused before anything is stopped.
 */
async function assertStopSignalSupported(engine: EngineClient, signal: AbortSignal): Promise<void> {
  const version = await engine.negotiatedVersion({ signal });
  if (compareVersions(version, STOP_SIGNAL_API) >= 0) return;
  throw new EngineError('bad-request', `this engine speaks API ${version}, which ignores --signal and would send each container's own stop signal`, {
    hint: `--signal needs API ${STOP_SIGNAL_API} or later (Docker Engine 23): leave it out, or update the engine`,
  });
}

const STOP_SIGNAL_API = '1.42';

/** Stops every running, paused or restarting container (or those matching `--filter`), printing each short id. */
export async function stopAllCommand(options: StopAllOptions, { io, signal, client }: CommandDeps): Promise<number> {
  const result = await stopAllRunning(client(), {
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

/** One container, byte for byte as `docker logs` prints it. */
export async function logsCommand(options: LogsCommandOptions, { io, signal, client }: CommandDeps): Promise<number> {
  await printLogs(client(), options.ids[0] as string, {
    stdout: true,
    stderr: true,
    follow: options.follow,
    tail: options.tail,
    timestamps: options.timestamps,
    since: options.since !== undefined ? engineTimestamp(options.since, io.now(), 'since') : undefined,
    until: options.until !== undefined ? engineTimestamp(options.until, io.now(), 'until') : undefined,
    details: options.details,
    signal,
    // Bytes to a stream: frame boundaries mean nothing there, and one write per log line is what a slow reader pays for.
    joinFrames: true,
    onOutput: outputWriter(io),
  });
  return 0;
}

/** Like `docker wait A B`: waits for each in turn, one status per line; a failure gets its own line and exit 1. */
export async function waitCommand(options: WaitOptions, { io, signal, client }: CommandDeps): Promise<number> {
  let exitCode = 0;
  for (const id of options.ids) {
    try {
      const { result } = await client().containers.wait(id, { condition: 'not-running', signal });
      io.stdout.write(`${(await result).StatusCode}\n`);
    } catch (error) {
      if (signal.aborted) throw error;
      io.stderr.write(`berth: ${describeFailure(error, false).message}\n`);
      exitCode = EXIT_FAILURE;
    }
  }
  return exitCode;
}

export async function commitCommand(options: CommitCommandOptions, { io, signal, client }: CommandDeps): Promise<number> {
  const { Id } = await client().containers.commit(options.id, {
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
