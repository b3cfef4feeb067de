/**
 * The berth CLI without the process around it: parses argv, runs one command against one client, and returns the
 * exit status. Every failure becomes one `berth: <message>` line on stderr. `src/cli.ts` wires in the process.
 */
import { DockerConfigCredentials, EngineClient, isEngineError } from '../engine';
import { UsageError } from './args';
import { parseCommandLine, type Command } from './commands';
import { describeFailure, EXIT_INTERRUPTED, singleLine } from './failure';
import { helpText } from './help';
import type { CliIo, CommandContext } from './io';
import { commitCommand, listContainersCommand, logsCommand, stopAllCommand, stopCommand, waitCommand } from './actions/containers';
import { imagesCommand, pullCommand, versionCommand } from './actions/images';
import { runCommand } from './actions/run';

export interface CliOptions {
  readonly io: CliIo;
  /** Aborted by Ctrl-C. */
  readonly signal: AbortSignal;
  /** Berth's own version, shown by `berth version`. */
  readonly version: string;
}

export async function runCli(argv: readonly string[], options: CliOptions): Promise<number> {
  const { io, signal } = options;
  let command: Command | undefined;
  let client: EngineClient | undefined;
  try {
    const invocation = parseCommandLine(argv);
    if (invocation.kind === 'help') {
      io.stdout.write(helpText(invocation.topic));
      return 0;
    }
    command = invocation.command;
    client = EngineClient.fromEnvironment({ host: invocation.global.host, env: io.env });
    return await execute(client, command, options.version, { io, signal });
  } catch (error) {
    if (signal.aborted && !(error instanceof UsageError)) {
      io.stderr.write(`berth: interrupted${interruptedDetail(error)}\n`);
      return EXIT_INTERRUPTED;
    }
    const failure = describeFailure(error, command?.name === 'run');
    io.stderr.write(`berth: ${failure.message}\n`);
    return failure.exitCode;
  } finally {
    await client?.close();
  }
}

function execute(client: EngineClient, command: Command, version: string, context: CommandContext): Promise<number> {
  const credentials = (): DockerConfigCredentials => new DockerConfigCredentials({ env: context.io.env });
  switch (command.name) {
    case 'run':
      return runCommand(client, command.options, credentials().lookup, context);
    case 'ps':
      return listContainersCommand(client, command.options, context);
    case 'stop':
      return stopCommand(client, command.options, context);
    case 'stop-all':
      return stopAllCommand(client, command.options, context);
    case 'logs':
      return logsCommand(client, command.options, context);
    case 'images':
      return imagesCommand(client, command.options, context);
    case 'pull':
      return pullCommand(client, command.options, credentials().lookup, context);
    case 'commit':
      return commitCommand(client, command.options, context);
    case 'wait':
      return waitCommand(client, command.options, context);
    case 'version':
      return versionCommand(client, version, context);
  }
}

/** A cancelled call's own message adds nothing ("Cancelled"), except when it says how far the work got. */
function interruptedDetail(error: unknown): string {
  if (!isEngineError(error, 'cancelled')) return '';
  const message = singleLine(error.message);
  return /^cancelled$/i.test(message) || !/\d/.test(message) ? '' : ` (${message.replace(/^Cancelled /, '')})`;
}
