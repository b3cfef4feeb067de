/** berth's stdout and stderr as OutputStreams: backpressure from the OS pipe, and a failed write remembered. */
import type { OutputStream } from './io';

export function outputStream(stream: NodeJS.WritableStream): OutputStream {
  const controller = new AbortController();
  let failure: NodeJS.ErrnoException | undefined;
  let waiters: Array<() => void> = [];
  const release = (): void => {
    const pending = waiters;
    waiters = [];
    for (const resolve of pending) resolve();
  };
  stream.on('drain', release);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    failure ??= error;
    controller.abort(error);
    // Whoever waits for room will never get it: let them go, their writes are dropped from now on.
    release();
  });
  const write = (data: Uint8Array | string): boolean => {
    if (failure) return true;
    return stream.write(data);
  };
  return {
    write: (text) => {
      write(text);
    },
    deliver: (data) => {
      if (write(data) || failure) return undefined;
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    get failure() {
      return failure;
    },
    failed: controller.signal,
  };
}
