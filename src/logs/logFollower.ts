/**
 * Follows a container's logs: the last `tail` lines, then live output. With `followRestarts`, when the
 * container stops the follower says so, waits for its next start (through the event stream, no polling)
 * and resumes exactly after the last line shown. No `vscode` here: terminals and documents are sinks.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { ContainerInspect, EngineClient, OutputChunk } from '../engine';
import { isEngineError } from '../engine';
import { baseAction } from '../model/actions';
import { StreamDecoders } from '../terminals/terminalText';
import { eventsSince, LineSplitter, parseTimestamp, sinceSeconds } from './timestamps';

export type LogsClient = Pick<EngineClient, 'containerLogs' | 'inspectContainer' | 'events'>;

export interface LogSink {
  /** Output text of one stream: whole lines ending in `\n`, or an unfinished line at the end of a stream. */
  output(stream: 'stdout' | 'stderr', text: string): void;
  /** A message from Berth itself (stopped, restarted, removed). */
  notice(text: string): void;
}

export interface FollowOptions {
  readonly tail: number | 'all';
  readonly signal: AbortSignal;
  readonly followRestarts: boolean;
  /** Called once the backlog (the tail) has been delivered. */
  readonly onBacklog?: () => void;
}

/**
 * Turns timestamped chunks into sink output, dropping lines already shown before a resume. Docker stamps lines
 * with nanoseconds, Podman with whole seconds, so several lines may share a stamp: at the last stamp shown, the
 * resumed stream replays as many lines as were shown with it, and only those are dropped.
 */
class TimestampedReader {
  private readonly decoders = new StreamDecoders();
  private readonly splitter = new LineSplitter();
  private threshold: bigint | undefined;
  /** Replayed lines still to drop at exactly `threshold`. */
  private replaysAtThreshold = 0;
  last: bigint | undefined;
  /** Lines shown with the stamp `last`. */
  private shownAtLast = 0;

  constructor(private readonly sink: LogSink) {}

  /** A new stream begins: lines before the last one shown, and the ones shown at its stamp, are replays. */
  beginResume(): void {
    this.threshold = this.last;
    this.replaysAtThreshold = this.shownAtLast;
  }

  push(chunk: OutputChunk): void {
    const text = this.decoders.decode(chunk.stream, chunk.data);
    for (const line of this.splitter.push(chunk.stream, text)) this.emit(chunk.stream, line);
  }

  /** The stream ended: deliver unfinished lines too. */
  end(): void {
    for (const [stream, rest] of this.decoders.flush()) {
      for (const line of this.splitter.push(stream, rest)) this.emit(stream as OutputChunk['stream'], line);
    }
    for (const [stream, text] of this.splitter.takePartials()) this.emit(stream as OutputChunk['stream'], text);
  }

  private emit(stream: OutputChunk['stream'], line: string): void {
    const stamp = parseTimestamp(line);
    if (!stamp) {
      this.sink.output(stream, line);
      return;
    }
    if (this.threshold !== undefined) {
      if (stamp.nanos < this.threshold) return;
      if (stamp.nanos === this.threshold && this.replaysAtThreshold > 0) {
        this.replaysAtThreshold--;
        return;
      }
    }
    if (this.last === undefined || stamp.nanos > this.last) {
      this.last = stamp.nanos;
      this.shownAtLast = 1;
    } else if (stamp.nanos === this.last) {
      this.shownAtLast++;
    }
    this.sink.output(stream, line.slice(stamp.length));
  }
}

export async function followContainerLogs(client: LogsClient, id: string, sink: LogSink, options: FollowOptions): Promise<void> {
  const { signal } = options;
  const first = await client.inspectContainer(id, { signal });
  const tty = first.Config.Tty;
  const name = first.Name.replace(/^\//, '');
  const reader = new TimestampedReader(sink);

  for await (const chunk of client.containerLogs(id, { tail: options.tail, timestamps: true, tty, signal })) reader.push(chunk);
  reader.end();
  options.onBacklog?.();

  let running = first.State.Running;
  for (;;) {
    try {
      if (running) {
        reader.beginResume();
        const since = reader.last === undefined ? undefined : sinceSeconds(reader.last);
        const logs = client.containerLogs(id, { follow: true, timestamps: true, tty, signal, ...(since === undefined ? {} : { since }) });
        for await (const chunk of logs) reader.push(chunk);
        reader.end();
      }
      if (!options.followRestarts) return;

      let state;
      try {
        state = (await client.inspectContainer(id, { signal })).State;
      } catch (error) {
        if (!isEngineError(error, 'not-found')) throw error;
        sink.notice(`${name} was removed`);
        return;
      }
      if (state.Running) {
        sink.notice(`${name} restarted`);
        running = true;
        continue;
      }
      sink.notice(`${name} stopped (exit ${state.ExitCode}); waiting for it to start again…`);
      const finished = parseTimestamp(`${state.FinishedAt} `);
      const outcome = await waitForStart(client, id, finished ? eventsSince(finished.nanos) : undefined, signal);
      if (outcome === 'removed') {
        sink.notice(`${name} was removed`);
        return;
      }
      if (outcome === 'started') sink.notice(`${name} restarted`);
      // 'ended': the event stream closed (engine restart); inspect again and carry on.
      running = outcome === 'started';
    } catch (error) {
      // The engine went away (killed, restarted): say so, wait for it, and resume after the last line shown.
      if (signal.aborted || !options.followRestarts || !isEngineError(error, 'unreachable')) throw error;
      reader.end();
      sink.notice(`lost the engine (${error.message}); reconnecting…`);
      const state = await waitForEngine(client, id, signal);
      if (!state) {
        sink.notice(`reconnected; ${name} was removed`);
        return;
      }
      sink.notice(`reconnected; ${name} is ${state.Running ? 'running' : `stopped (exit ${state.ExitCode})`}`);
      running = state.Running;
      if (!running) {
        const outcome = await waitForStart(client, id, undefined, signal);
        if (outcome === 'removed') {
          sink.notice(`${name} was removed`);
          return;
        }
        running = outcome === 'started';
        if (running) sink.notice(`${name} restarted`);
      }
    }
  }
}

/** Retry delays while the engine is unreachable: short at first, capped so a returning engine is seen within 2 s. */
const ENGINE_RETRY_MS = [250, 500, 1000, 1500] as const;

/** Waits until the engine answers again; the container's state then, or undefined when it is gone. */
async function waitForEngine(client: LogsClient, id: string, signal: AbortSignal): Promise<ContainerInspect['State'] | undefined> {
  for (let attempt = 0; ; attempt++) {
    await delay(ENGINE_RETRY_MS[Math.min(attempt, ENGINE_RETRY_MS.length - 1)] ?? 1500, undefined, { signal });
    try {
      return (await client.inspectContainer(id, { signal })).State;
    } catch (error) {
      if (isEngineError(error, 'not-found')) return undefined;
      if (signal.aborted || !isEngineError(error, 'unreachable')) throw error;
    }
  }
}

/** Waits for the container's next `start` (or its removal) on the event stream, replaying from `since`. */
async function waitForStart(
  client: LogsClient,
  id: string,
  since: string | undefined,
  signal: AbortSignal,
): Promise<'started' | 'removed' | 'ended'> {
  const filters = { type: ['container'], container: [id], event: ['start', 'destroy', 'remove'] };
  for await (const event of client.events({ filters, signal, ...(since === undefined ? {} : { since }) })) {
    const action = baseAction(event.Action);
    if (action === 'start') return 'started';
    if (action === 'destroy' || action === 'remove') return 'removed';
  }
  return 'ended';
}
