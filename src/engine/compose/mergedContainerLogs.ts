/**
 * Several containers' logs merged into one stream in the order of the engine's timestamps (`berth logs A B …`).
 * Plain Node: the CLI is one sink, a document could be another.
 *
 * Order: each container's stream is already in time order, so the streams are merged head by head (a k-way merge): a
 * line leaves only once every stream still open has a line waiting or has ended, which makes the order exact however
 * the streams arrive. Following, a stream may stay quiet for hours, so one that has had nothing for `quietMs` stops
 * holding the others back; a line it sends later is shown when it comes, never dropped.
 *
 * Memory: a stream's reading pauses once it holds `maxQueuedLines` lines (the engine's stream then waits too); it may
 * pass that by the lines of one network chunk, as the splitter takes the frames itself. The sink's promise holds the
 * merge back while the reader of the output catches up.
 */
import { setMaxListeners } from 'node:events';
import type { EngineClient } from '../api';
import { MessageSplitter } from './composeMessages';
import type { LogsOptions } from '../connection';

export interface MergedLogLine {
  /** Which of the containers, as an index into the ids given. */
  readonly source: number;
  readonly stream: 'stdout' | 'stderr';
  readonly seconds: number;
  readonly nanos: number;
  /** The line without its stamp and without the final newline. */
  readonly text: string;
}

export interface MergedLogsOptions extends Pick<LogsOptions, 'follow' | 'tail' | 'since' | 'until' | 'details'> {
  readonly signal: AbortSignal;
  /** Following: how long a quiet stream may hold the others back. */
  readonly quietMs?: number | undefined;
  readonly maxQueuedLines?: number | undefined;
}

export interface MergedLogsSource {
  readonly id: string;
  /** The container's name without the engine's leading `/`. */
  readonly name: string;
  readonly tty: boolean;
  /** The engine the container is on, when the merge spans several engines; else the merge's own client. */
  readonly client?: MergedLogsClient | undefined;
  /** This container's own `since` (Unix seconds), for a merge that resumes where an earlier one ended. */
  readonly since?: number | undefined;
}

export type MergedLogsClient = { readonly containers: Pick<EngineClient['containers'], 'logs' | 'inspect'> };

/** Looks every container up first, so a missing one is refused before any line is printed. */
export function mergedLogsSources(client: MergedLogsClient, ids: readonly string[], callerSignal: AbortSignal): Promise<MergedLogsSource[]> {
  return mergedLogsSourcesAcross(ids.map((id) => ({ client, id })), callerSignal);
}

/** The same across engines: each container is looked up on its own engine, and its source keeps that engine. */
export async function mergedLogsSourcesAcross(
  targets: ReadonlyArray<{ readonly client: MergedLogsClient; readonly id: string }>,
  callerSignal: AbortSignal,
): Promise<MergedLogsSource[]> {
  const signal = AbortSignal.any([callerSignal]);
  setMaxListeners(Math.max(10, 2 * targets.length), signal);
  const inspected = await Promise.all(targets.map((target) => target.client.containers.inspect(target.id, { signal })));
  return inspected.map((container, index) => ({
    id: container.Id,
    name: container.Name.replace(/^\//, ''),
    tty: container.Config.Tty,
    client: (targets[index] as { client: MergedLogsClient }).client,
  }));
}

const MAX_BATCH_LINES = 4096;

class SourceQueue {
  lines: MergedLogLine[] = [];
  head = 0;
  ended = false;
  /** When the queue last ran empty while open (for the quiet rule when following). */
  emptySince = 0;
  private resumeReading: (() => void) | undefined;

  get waiting(): number {
    return this.lines.length - this.head;
  }

  take(): MergedLogLine {
    const line = this.lines[this.head++] as MergedLogLine;
    if (this.head === this.lines.length) {
      this.lines = [];
      this.head = 0;
    }
    return line;
  }

  /** The reader pauses here while the queue is full and the merge goes on. */
  async room(limit: number, stopped: AbortSignal): Promise<void> {
    while (this.waiting >= limit && !stopped.aborted) await new Promise<void>((resolve) => (this.resumeReading = resolve));
  }

  wake(): void {
    const resume = this.resumeReading;
    this.resumeReading = undefined;
    resume?.();
  }
}

/**
 * Reads every source and hands lines to `deliver` in batches, in timestamp order (ties keep the order of the
 * sources given, then the order within a stream). Resolves when every stream ended or the signal aborted.
 */
export async function mergeContainerLogs(
  client: MergedLogsClient,
  sources: readonly MergedLogsSource[],
  options: MergedLogsOptions,
  deliver: (batch: readonly MergedLogLine[]) => Promise<void> | undefined,
): Promise<void> {
  // Ends every read once the merge is over (done, failed or interrupted), so no reader waits for room forever.
  const stop = new AbortController();
  const signal = AbortSignal.any([options.signal, stop.signal]);
  // Every stream listens on it (its request and its reader): not a leak, so no warning past Node's default of 10.
  setMaxListeners(Math.max(10, 4 * sources.length), signal);
  const quietMs = options.quietMs ?? 150;
  const maxQueued = options.maxQueuedLines ?? 4096;
  const queues = sources.map(() => new SourceQueue());
  let notify: (() => void) | undefined;
  // The merge runs after the I/O callbacks of this turn (setImmediate), so every stream's data that has arrived is
  // queued first: it then takes long runs of lines instead of one line per wake.
  const changed = (): void => {
    const wake = notify;
    notify = undefined;
    if (wake) setImmediate(wake);
  };
  let failure: Error | undefined;
  const readers = sources.map(async (source, index) => {
    const queue = queues[index] as SourceQueue;
    try {
      const splitter = new MessageSplitter(source.tty, (stream, seconds, nanos, text) => {
        queue.lines.push({ source: index, stream, seconds, nanos, text });
      });
      const logs = (source.client ?? client).containers.logs(source.id, {
        follow: options.follow,
        tail: options.tail,
        since: source.since ?? options.since,
        until: options.until,
        details: options.details,
        timestamps: true,
        tty: source.tty,
        // The splitter takes the frames itself, with no chunk object per frame (a flood of tiny messages).
        rawFrames: true,
        signal,
      });
      for await (const chunk of logs) {
        const wasEmpty = queue.waiting === 0;
        splitter.push(chunk);
        // Only an empty queue can hold the merge back, so only its first line is news (a wake per line costs a
        // scan of every queue).
        if (wasEmpty && queue.waiting > 0) changed();
        if (queue.waiting >= maxQueued) await queue.room(maxQueued, stop.signal);
      }
      splitter.end();
    } catch (error) {
      if (!signal.aborted) failure ??= error instanceof Error ? error : new Error(String(error));
    } finally {
      queue.ended = true;
      changed();
    }
  });
  try {
    await mergeQueues(queues, { follow: options.follow === true, quietMs, signal, failed: () => failure !== undefined }, deliver, (wake) => (notify = wake));
  } finally {
    stop.abort();
    for (const queue of queues) queue.wake();
  }
  await Promise.all(readers);
  if (failure !== undefined && !options.signal.aborted) throw failure;
}

interface MergeSettings {
  readonly follow: boolean;
  readonly quietMs: number;
  readonly signal: AbortSignal;
  readonly failed: () => boolean;
}

async function mergeQueues(
  queues: readonly SourceQueue[],
  settings: MergeSettings,
  deliver: (batch: readonly MergedLogLine[]) => Promise<void> | undefined,
  onChange: (wake: () => void) => void,
): Promise<void> {
  for (;;) {
    if (settings.signal.aborted || settings.failed()) return;
    const now = Date.now();
    let blocked = false;
    for (const queue of queues) {
      if (queue.waiting > 0) queue.emptySince = 0;
      if (queue.ended || queue.waiting > 0) continue;
      if (queue.emptySince === 0) queue.emptySince = now;
      if (!settings.follow || now - queue.emptySince < settings.quietMs) blocked = true;
    }
    const batch = blocked ? [] : takeInOrder(queues);
    if (batch.length > 0) {
      for (const queue of queues) queue.wake();
      await deliver(batch);
      continue;
    }
    if (queues.every((queue) => queue.ended && queue.waiting === 0)) return;
    await new Promise<void>((resolve) => {
      const timer = settings.follow ? setTimeout(resolve, settings.quietMs) : undefined;
      onChange(() => {
        if (timer) clearTimeout(timer);
        resolve();
      });
    });
  }
}

/**
 * Takes lines head by head while no open stream is empty; a stream that ran empty ends the batch (it may send an
 * earlier line next). Following, a stream quiet for longer than the window no longer holds the others back.
 */
function takeInOrder(queues: readonly SourceQueue[]): MergedLogLine[] {
  const batch: MergedLogLine[] = [];
  const now = Date.now();
  for (;;) {
    let next: SourceQueue | undefined;
    let seconds = Infinity;
    let nanos = Infinity;
    for (const queue of queues) {
      if (queue.waiting === 0) continue;
      const head = queue.lines[queue.head] as MergedLogLine;
      if (head.seconds < seconds || (head.seconds === seconds && head.nanos < nanos)) {
        next = queue;
        seconds = head.seconds;
        nanos = head.nanos;
      }
    }
    if (!next) return batch;
    batch.push(next.take());
    // An open stream that just ran dry may send an earlier line than the other heads: wait for it (or its window).
    if (next.waiting === 0 && !next.ended) {
      next.emptySince = now;
      return batch;
    }
    if (batch.length >= MAX_BATCH_LINES) return batch;
  }
}
