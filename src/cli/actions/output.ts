/** Writing container output and listings to the CLI's streams. */
import type { OutputChunk } from '../../engine/connection';
import type { CliIo } from '../io';

/**
 * Container stdout goes to berth's stdout, container stderr to berth's stderr, byte for byte. The promise it may
 * return holds the engine's stream back until the reader has made room (backpressure, not buffering).
 */
export function outputWriter(io: CliIo): (chunk: OutputChunk) => Promise<void> | undefined {
  return (chunk) => (chunk.stream === 'stderr' ? io.stderr : io.stdout).deliver(chunk.data);
}

/** `--json`: the engine's own objects, so scripts see the documented API shape. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
