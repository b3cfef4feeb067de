/**
 * `--since` and `--until` as docker reads them (the shared reading is engine/api/timeArgument.ts), refused in docker's
 * words with its exit status 1: the value is read when the command runs, not by the flag parser.
 */
import { engineTimestamp as sharedEngineTimestamp, TimeArgumentError } from '../engine/api';
import { UsageError } from './args';
import { EXIT_FAILURE } from './failure';

/** The engine's form of a `--since`/`--until` value (flagName `since`/`until`), relative to `nowMs`. */
export function engineTimestamp(value: string, nowMs: number, flagName: string): string {
  try {
    return sharedEngineTimestamp(value, nowMs);
  } catch (error) {
    if (error instanceof TimeArgumentError) throw invalid(flagName, error.reason);
    throw error;
  }
}

function invalid(flagName: string, reason: string): UsageError {
  return new UsageError(
    `invalid value for "${flagName}": ${reason}. Give a duration (10m, 1h30m), a date or time (2024-05-01, 2024-05-01T13:23:37Z) or Unix seconds`,
    EXIT_FAILURE,
  );
}
