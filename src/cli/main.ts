/**
 * The berth CLI without the process around it: parses argv, runs one command against one client, and returns the
 * exit status. Every failure becomes one `berth: <message>` line on stderr. `src/cli.ts` wires in the process.
 * The engine client is loaded only once a command needs it, so `berth --help` and `berth --version` stay quick.
 */
import type { EngineClient } from '../engine';
import { UsageError } from './args';
import { commandTable, type Command } from './commands';
import { describeFailure, EXIT_FAILURE, EXIT_INTERRUPTED, interruptedDetail, outputFailureMessage } from './failure';
import { groupHelpText, helpText } from './help';
import type { CliIo, CommandDeps, ProcessSignals } from './io';
import { parseCommandLine } from './parse';
import { versionLine } from './versionLine';

export interface CliOptions {
  readonly io: CliIo;
  /** Aborted by Ctrl-C. */
  readonly signal: AbortSignal;
  readonly signals: ProcessSignals;
  /** Berth's own version, shown by `berth version` and `berth --version`. */
  readonly version: string;
  /** Called when the command first asks for its engine client. */
  readonly onEngineClient?: () => void;
}

export async function runCli(argv: readonly string[], options: CliOptions): Promise<number> {
  const { io } = options;
  // A closed or full stdout ends the command as Ctrl-C would: there is no one left to show its output to.
  const signal = AbortSignal.any([options.signal, io.stdout.failed]);
  let command: Command | undefined;
  let client: EngineClient | undefined;
  try {
    const invocation = parseCommandLine(argv);
    if (invocation.kind === 'help') {
      io.stdout.write(helpText(invocation.topic));
      return 0;
    }
    if (invocation.kind === 'group-help') {
      io.stdout.write(groupHelpText(invocation.group));
      return 0;
    }
    if (invocation.kind === 'version') {
      io.stdout.write(versionLine(options.version));
      return 0;
    }
    command = invocation.command;
    const engine = await import('../engine/index.js');
    const deps: CommandDeps = {
      io,
      signal,
      signals: options.signals,
      version: options.version,
      client: () => {
        if (client === undefined) options.onEngineClient?.();
        return (client ??= engine.EngineClient.fromEnvironment({ host: invocation.global.host, env: io.env }));
      },
      endpoint: () => client?.endpoint ?? engine.resolveEndpoint({ host: invocation.global.host, env: io.env }),
      credentials: () =>
        new engine.DockerConfigCredentials({
          env: io.env,
          debug: io.env.BERTH_DEBUG ? (note: string) => io.stderr.write(`berth: debug: ${note}\n`) : undefined,
        }).lookup,
    };
    const exitCode = await execute(command, deps);
    return io.stdout.failure ? reportOutputFailure(io) : exitCode;
  } catch (error) {
    if (io.stdout.failure) return reportOutputFailure(io);
    if (signal.aborted && !(error instanceof UsageError)) {
      io.stderr.write(`berth: interrupted${interruptedDetail(error)}\n`);
      return EXIT_INTERRUPTED;
    }
    const failure = describeFailure(error, command !== undefined && commandTable[command.name].runStatuses === true);
    io.stderr.write(`berth: ${failure.message}\n`);
    return failure.exitCode;
  } finally {
    await client?.close();
  }
}

function execute(command: Command, deps: CommandDeps): Promise<number> {
  // Each name's entry takes the options its own build step made (see parse.ts), so the pairing is sound.
  const entry = commandTable[command.name] as { run(options: unknown, deps: CommandDeps): Promise<number> };
  return entry.run(command.options, deps);
}

/** docker's words for a broken pipe or a full disk, and its exit status 1, so `set -o pipefail` sees it. */
function reportOutputFailure(io: CliIo): number {
  io.stderr.write(`berth: ${outputFailureMessage(io.stdout.failure, '/dev/stdout')}\n`);
  return EXIT_FAILURE;
}
