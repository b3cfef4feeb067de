/**
 * How a failure reaches the user: one line, `berth: <message>`, and an exit status like docker's. Usage mistakes
 * and berth's own failures in `run` exit 125; a command the container could not execute 126, one it could not find
 * 127; an interrupted command 130 (128 + SIGINT); other failures 1.
 */
import { UsageError } from './args';
import { isEngineError } from '../engine/connection';

import { EXIT_BERTH_ERROR, EXIT_CANNOT_INVOKE, EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_NOT_FOUND } from './exitCodes';

export { EXIT_BERTH_ERROR, EXIT_CANNOT_INVOKE, EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_NOT_FOUND };

export interface Failure {
  /** Without the `berth: ` prefix, always a single line. */
  readonly message: string;
  readonly exitCode: number;
}

/** `inRun` selects docker run's statuses: 125 for berth's failures, 126/127 for a command that cannot run. */
export function describeFailure(error: unknown, inRun: boolean): Failure {
  const message = singleLine(messageOf(error));
  if (error instanceof UsageError) return { message, exitCode: error.exitCode };
  if (isEngineError(error, 'cancelled')) return { message, exitCode: EXIT_INTERRUPTED };
  if (!inRun) return { message, exitCode: EXIT_FAILURE };
  return { message, exitCode: runExitCode(message) };
}

/** docker run's mapping of a start failure from the OCI runtime to the shell's conventions. */
function runExitCode(message: string): number {
  if (/executable file not found|no such file or directory/i.test(message)) return EXIT_NOT_FOUND;
  if (/permission denied|cannot execute|exec format error/i.test(message)) return EXIT_CANNOT_INVOKE;
  return EXIT_BERTH_ERROR;
}

function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'unexpected failure';
}

/** Engine messages can span lines (OCI runtime errors do); the CLI promises one line per failure. */
export function singleLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** A cancelled call's own message adds nothing ("Cancelled"), except when it says how far the work got. */
export function interruptedDetail(error: unknown): string {
  if (!isEngineError(error, 'cancelled')) return '';
  const message = singleLine(error.message);
  return /^cancelled$/i.test(message) || !/\d/.test(message) ? '' : ` (${message.replace(/^Cancelled /, '')})`;
}

/** `write /dev/stdout: broken pipe`, as the docker CLI (Go) words a failed write. */
export function outputFailureMessage(error: NodeJS.ErrnoException | undefined, path: string): string {
  const reason = (error?.code !== undefined ? GO_ERRNO_TEXT[error.code] : undefined) ?? error?.message ?? 'write failed';
  return `write ${path}: ${reason}`;
}

/** The texts Go's syscall package gives the errors a write to stdout meets. */
const GO_ERRNO_TEXT: Readonly<Record<string, string>> = { EPIPE: 'broken pipe', ENOSPC: 'no space left on device', EBADF: 'bad file descriptor', EIO: 'input/output error' };
