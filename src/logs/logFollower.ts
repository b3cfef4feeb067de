/**
 * Follows a container's logs: the last `tail` lines, then live output. With `followRestarts`, when the container
 * stops the follower says so once, waits for its next start (through the event stream, no polling) and resumes
 * exactly after the last line shown; it does the same across an engine outage. No `vscode` here: terminals and
 * documents are sinks.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { ContainerInspect, EngineClient } from '../engine';
import { isEngineError } from '../engine';
import { beforeRun, ENGINE_RETRY_MS, OWN_START_WINDOW_NS, PODMAN_FINISHED_SLACK_NS, PODMAN_FOLLOW_DEFER_MS, SAME_RUN_RETRY_MS } from './followTiming';
import { nextFollowState, stateFor, type FollowInput, type FollowState } from './followerStates';
import { LogMessageReader } from './logMessages';
import { hasRun, isRunning, runEventsUpTo, waitForStart } from './runEvents';
import { parseTimestamp } from './timestamps';

export type LogsClient = { readonly system: Pick<EngineClient['system'], 'events'>; readonly containers: Pick<EngineClient['containers'], 'logs' | 'inspect'> } & Partial<Pick<EngineClient, 'pingInfo'>>;

/** A client, or how to get the engine's current one: a view outlives an engine outage, its session may not. */
export type LogsClientSource = LogsClient | (() => LogsClient);

export interface LogSink {
  /**
   * Output text of one stream: whole lines ending in `\n`, or an unfinished line at the end of a stream; `stamp`:
   * the engine's time of the line (RFC 3339) when it had one.
   */
  output(stream: 'stdout' | 'stderr', text: string, stamp?: string): void;
  /** A message from Berth itself (exited, restarted, removed, engine lost). */
  notice(text: string): void;
}

export interface FollowOptions {
  readonly tail: number | 'all';
  readonly signal: AbortSignal;
  readonly followRestarts: boolean;
  /** Only lines from this instant (Unix seconds) on, as docker's `--since`. */
  readonly since?: number | undefined;
  /** Only lines up to this instant (Unix seconds): a closed range, read once and not followed. */
  readonly until?: number | undefined;
  /** Called once the backlog (the tail) has been delivered. */
  readonly onBacklog?: () => void;
}

type State = ContainerInspect['State'];

class Follower {
  private reader: LogMessageReader;
  /** StartedAt of the run whose output was read to its end (or is being followed). */
  private knownRun: string | undefined;
  /** StartedAt of the run whose exit was announced. */
  private announced: string | undefined;
  /** Events from this instant (nanoseconds) may still bring a start we have not acted on. */
  private eventsFrom: bigint | undefined;
  /** The run shown has not ended as far as the events acted on tell: its `die` is still to come. */
  private runOpen = false;
  /** An outage cut the stream: what the run wrote after the last line shown is still to read. */
  private cut = false;
  /** The outage was announced and the engine has not been seen back yet: it is not announced again. */
  private lost = false;
  /**
   * "reconnected; …", said once the engine answers more than an inspect (its output, or a read that completes): an
   * engine that is going away still answers an inspect or two, and would be "reconnected" and lost again.
   */
  private reconnected: string | undefined;
  /** The container's state the next step acts on. */
  private current!: State;
  /** The engine's words when it went away, for the outage step's notice. */
  private outageCause = '';

  constructor(
    private readonly source: LogsClientSource,
    private lastClient: LogsClient,
    private readonly id: string,
    private readonly name: string,
    private readonly tty: boolean,
    private readonly sink: LogSink,
    private readonly options: FollowOptions,
  ) {
    this.reader = new LogMessageReader(this.toSink);
  }

  private readonly toSink = (stream: 'stdout' | 'stderr', text: string, stamp?: string): void => {
    this.sayReconnected();
    this.sink.output(stream, text, stamp);
  };

  private notice(text: string): void {
    this.sayReconnected();
    this.sink.notice(text);
  }

  private sayReconnected(): void {
    if (this.reconnected === undefined) return;
    const text = this.reconnected;
    this.reconnected = undefined;
    this.lost = false;
    this.sink.notice(text);
  }

  /** The engine's current client (asked again on every call, so a session rebuilt after an outage is used). */
  private get client(): LogsClient {
    if (typeof this.source !== 'function') return this.source;
    try {
      this.lastClient = this.source();
    } catch {
      // The engine's session is being replaced: keep the last client until the new one is there.
    }
    return this.lastClient;
  }

  /** Podman answers the logs endpoint with quirks of its own (see backlog, followRun and runEnd). */
  private get onPodman(): boolean {
    return this.client.pingInfo?.libpodApiVersion !== undefined;
  }

  async run(first: ContainerInspect): Promise<void> {
    await this.backlog();
    this.options.onBacklog?.();
    if (this.options.until !== undefined) return;
    this.current = first.State;
    this.knownRun = hasRun(first.State) ? first.State.StartedAt : undefined;
    this.eventsFrom = parseTimestamp(`${first.Created} `)?.nanos;
    if (!first.State.Running && this.options.followRestarts && !hasRun(first.State)) this.notice(`${this.name} has not started yet; waiting for it to start…`);
    let state: FollowState = stateFor(this.seen(first.State));
    while (state !== 'done') state = nextFollowState(state, await this.step(state));
  }

  /** Runs the step of STATE; an engine that went away ends it with 'unreachable' when restarts are followed. */
  private async step(state: Exclude<FollowState, 'done'>): Promise<FollowInput> {
    try {
      // Each state's step is the method of its name.
      return await this[state]();
    } catch (error) {
      if (state === 'outage' || this.options.signal.aborted || !this.options.followRestarts || !isEngineError(error, 'unreachable')) throw error;
      this.outageCause = error.message;
      return { kind: 'unreachable' };
    }
  }

  private seen(state: State): FollowInput & { kind: 'seen' } {
    return { kind: 'seen', running: isRunning(state), cut: this.cut, newRun: hasRun(state) && state.StartedAt !== this.knownRun };
  }

  /** The run of `current`, live, then what happened since it ended. */
  private async following(): Promise<FollowInput> {
    const current = this.current;
    if (this.knownRun !== undefined && current.StartedAt !== this.knownRun) this.notice(`${this.name} restarted`);
    if (hasRun(current)) this.showRun(current);
    this.cut = false;
    await this.followRun();
    if (!this.options.followRestarts) return { kind: 'finished' };
    const next = await this.inspect();
    if (!next) return { kind: 'removed' };
    this.current = next;
    if (isRunning(next) && next.StartedAt === this.knownRun) await delay(SAME_RUN_RETRY_MS, undefined, { signal: this.options.signal });
    // The run ended (stopped, or restarted since): the rest of it up to its end, then what happened since.
    else if ((await this.catchUp(next)) === 'removed') return { kind: 'removed' };
    return this.seen(next);
  }

  /** The rest of the run that stopped during the outage, up to its end; then the wait for a start goes on. */
  private async draining(): Promise<FollowInput> {
    const current = this.current;
    this.cut = false;
    if (hasRun(current)) {
      if (this.knownRun !== undefined && current.StartedAt !== this.knownRun) this.notice(`${this.name} restarted`);
      this.showRun(current);
      await this.readRunEnd(this.runEnd(current));
    }
    this.sayReconnected();
    return { kind: 'drained' };
  }

  /** Says the container exited (once per run) and waits for its next start. */
  private async waiting(): Promise<FollowInput> {
    if (!this.options.followRestarts) return { kind: 'finished' };
    const current = this.current;
    this.runOpen = false;
    if (hasRun(current) && this.announced !== current.StartedAt) {
      this.announced = current.StartedAt;
      this.notice(`${this.name} exited with status ${current.ExitCode}; waiting for it to start again…`);
    }
    const finished = hasRun(current) ? parseTimestamp(`${current.FinishedAt} `)?.nanos : undefined;
    if (finished !== undefined && (this.eventsFrom === undefined || finished > this.eventsFrom)) this.eventsFrom = finished;
    const waited = await waitForStart(this.client, this.id, this.eventsFrom, this.options.signal);
    if (waited.kind === 'removed') {
      this.notice(`${this.name} was removed`);
      return { kind: 'removed' };
    }
    const next = await this.inspect();
    if (!next) return { kind: 'removed' };
    if ((await this.catchUp(next, waited.kind === 'started' ? waited.nanos : undefined)) === 'removed') return { kind: 'removed' };
    this.current = next;
    return this.seen(next);
  }

  /** The engine went away (killed, restarted): says so, waits for it, and resumes after the last line shown. */
  private async outage(): Promise<FollowInput> {
    // Not again while it was never seen back; a "reconnected" not said yet is dropped with the engine.
    if (!this.lost) this.sink.notice(`lost the engine (${this.outageCause}); reconnecting…`);
    this.reconnected = undefined;
    this.lost = true;
    const state = await this.waitForEngine();
    if (!state) {
      this.reader.releaseHeld();
      this.lost = false;
      this.sink.notice(`reconnected; ${this.name} was removed`);
      return { kind: 'removed' };
    }
    this.reconnected = `reconnected; ${this.name} is ${state.Running ? 'running' : `stopped (exit ${state.ExitCode})`}`;
    // A running container's follow may stay silent: the engine answered, and that is all there is to wait for.
    if (state.Running) this.sayReconnected();
    // The outage was announced; an exit seen now needs no second line, a new run still gets its own.
    if (!state.Running) this.announced = state.StartedAt;
    this.cut = true;
    this.current = state;
    return this.seen(state);
  }

  /**
   * The last `tail` lines. When they all fall in one second the resume count would be short: read that second
   * whole. Podman (4.x) joins a long line's parts to the line before when asked for a tail, so there the tail is
   * taken here, from the whole log.
   */
  private async backlog(): Promise<void> {
    const { tail, signal } = this.options;
    const range = { ...(this.options.since === undefined ? {} : { since: this.options.since }), ...(this.options.until === undefined ? {} : { until: this.options.until }) };
    let held: Array<['stdout' | 'stderr', string, string | undefined]> = [];
    const keep = this.onPodman && typeof tail === 'number' ? tail : undefined;
    // Only a tail of a number of lines is held back (it may need reading again); `all` goes straight to the sink.
    const hold = (stream: 'stdout' | 'stderr', text: string, stamp?: string): void => {
      held.push([stream, text, stamp]);
      if (keep !== undefined && held.length >= 2 * keep + 1024) held = held.slice(-keep);
    };
    const probe = new LogMessageReader(typeof tail === 'number' ? hold : this.toSink);
    await this.readStream(probe, keep === undefined ? { tail, signal, ...range } : { signal, ...range });
    if (keep !== undefined) held = held.slice(-keep);
    const cut = keep === undefined && typeof tail === 'number' && probe.shownMessages >= tail && probe.oldestSecond === probe.resumeSince;
    if (!cut) {
      for (const [stream, text, stamp] of held) this.sink.output(stream, text, stamp);
      probe.output = this.toSink;
      this.reader = probe;
      return;
    }
    const since = probe.resumeSince;
    await this.readStream(this.reader, { signal, ...range, ...(since === undefined ? {} : { since }) });
  }

  /**
   * Follows the current run from after the last message shown, until the engine ends the stream. When restarts
   * are followed, an unfinished line at the end is held back: it is read again with the rest of the run.
   */
  private async followRun(): Promise<void> {
    this.reader.beginResume();
    const since = this.reader.resumeSince;
    // Podman's follow ends a restarted run with a few of the next run's messages out of order (see deferFor).
    if (this.onPodman && this.options.followRestarts) this.reader.deferFor(PODMAN_FOLLOW_DEFER_MS);
    try {
      await this.readStream(this.reader, { follow: true, signal: this.options.signal, ...(since === undefined ? {} : { since }) }, this.options.followRestarts);
    } finally {
      this.reader.deferFor(undefined);
    }
  }

  /** From here on the run of STATE is the one shown: its own start event, replayed, is not a restart. */
  private showRun(state: State): void {
    this.knownRun = state.StartedAt;
    this.runOpen = isRunning(state);
    const started = parseTimestamp(`${state.StartedAt} `)?.nanos;
    if (started !== undefined && (this.eventsFrom === undefined || started > this.eventsFrom)) this.eventsFrom = started;
  }

  /**
   * Acts on what happened since the run shown up to STATE, in the engine's order: a run's last lines up to its
   * `die`, then "exited with status N", then "restarted" before the next run's lines, once per run however many ran
   * between two inspects. Without the events (an engine that dropped them), the rest of the run shown, if still
   * open, is read up to STATE's bounds, and the loop's own notices follow from STATE. STARTSEEN: the start event
   * that ended a wait, if one did.
   */
  private async catchUp(state: State, startSeen?: bigint): Promise<'removed' | undefined> {
    const events = await runEventsUpTo(this.client, this.id, this.eventsFrom ?? 0n, state, this.options.signal);
    if (events === undefined) {
      // A start already waited for is not waited for again (no restart storm); 1 µs more clears a double's rounding.
      if (startSeen !== undefined) this.eventsFrom = startSeen + 1000n;
      if (this.runOpen) await this.readRunEnd(state.StartedAt === this.knownRun ? this.runEnd(state) : this.endBefore(state));
      return undefined;
    }
    const knownStart = this.knownRun === undefined ? undefined : parseTimestamp(`${this.knownRun} `)?.nanos;
    let shownBefore = this.knownRun !== undefined;
    for (const event of events) {
      this.eventsFrom = event.nanos + 1n;
      if (event.kind === 'removed') {
        this.reader.releaseHeld();
        this.notice(`${this.name} was removed`);
        return 'removed';
      }
      if (event.kind === 'start') {
        // While the run shown is open (its die not seen yet), a start is its own, however late the engine sent it.
        if (this.runOpen || (knownStart !== undefined && event.nanos >= knownStart && event.nanos - knownStart < OWN_START_WINDOW_NS)) continue;
        this.runOpen = true;
        if (shownBefore) this.notice(`${this.name} restarted`);
        shownBefore = true;
      } else if (this.runOpen) {
        this.runOpen = false;
        await this.readRunEnd(event.nanos);
        this.notice(`${this.name} exited with status ${event.exitCode ?? state.ExitCode}; waiting for it to start again…`);
      }
    }
    if (hasRun(state)) this.knownRun = state.StartedAt;
    if (!isRunning(state)) this.announced = state.StartedAt;
    return undefined;
  }

  /** The instant (nanoseconds) a stopped run's last line was written by, from its FinishedAt. */
  private runEnd(state: State): bigint | undefined {
    const finished = parseTimestamp(`${state.FinishedAt} `)?.nanos;
    if (finished === undefined) return undefined;
    return this.onPodman ? finished + PODMAN_FINISHED_SLACK_NS : finished;
  }

  /**
   * The end of the runs before NEXT, which has started since the run shown. NEXT's own first lines can be stamped
   * before its StartedAt (Docker stamps StartedAt once the process runs: a line it printed at once came up to 1.5 ms
   * earlier in 22 of 30 restarts), so its FinishedAt is the better bound: it keeps the end of the last run while the
   * next one runs. Never past NEXT's start; NEXT's start alone when FinishedAt says nothing about the run shown.
   */
  private endBefore(next: State): bigint | undefined {
    const beforeNext = beforeRun(next);
    const finished = this.runEnd(next);
    const shownStart = this.knownRun === undefined ? undefined : parseTimestamp(`${this.knownRun} `)?.nanos;
    if (finished === undefined || shownStart === undefined || finished <= shownStart) return beforeNext;
    return beforeNext === undefined || finished < beforeNext ? finished : beforeNext;
  }

  /**
   * What a run wrote after the last message shown, up to END (nanoseconds), without following; nothing later. With
   * no END known, nothing is read here: the next resumed stream brings it.
   */
  private async readRunEnd(end: bigint | undefined): Promise<void> {
    if (end === undefined) return;
    this.reader.beginResume();
    const since = this.reader.resumeSince;
    // Whole microseconds, rounded up, so that a double's rounding never drops the run's last message.
    const until = Number(end / 1000n + 1n) / 1e6;
    await this.readStream(this.reader, { signal: this.options.signal, until, ...(since === undefined ? {} : { since }) });
  }

  private async readStream(
    reader: LogMessageReader,
    query: { tail?: number | 'all'; since?: number; until?: number; follow?: boolean; signal: AbortSignal },
    holdUnfinished = false,
  ): Promise<void> {
    let clean = false;
    try {
      for await (const chunk of this.client.containers.logs(this.id, { ...query, timestamps: true, tty: this.tty, rawFrames: true })) reader.push(chunk, !this.tty);
      clean = true;
    } finally {
      reader.end(clean, holdUnfinished);
    }
  }

  /** The container's state, or undefined (after saying so) when it was removed. */
  private async inspect(): Promise<State | undefined> {
    try {
      return (await this.client.containers.inspect(this.id, { signal: this.options.signal })).State;
    } catch (error) {
      if (!isEngineError(error, 'not-found')) throw error;
      // Nothing more can be read: what the last stream held back is shown as it came.
      this.reader.releaseHeld();
      this.notice(`${this.name} was removed`);
      return undefined;
    }
  }

  /** Waits until the engine answers again; the container's state then, or undefined when it is gone. */
  private async waitForEngine(): Promise<State | undefined> {
    const { signal } = this.options;
    for (let attempt = 0; ; attempt++) {
      await delay(ENGINE_RETRY_MS[Math.min(attempt, ENGINE_RETRY_MS.length - 1)] ?? 1500, undefined, { signal });
      try {
        return (await this.client.containers.inspect(this.id, { signal })).State;
      } catch (error) {
        if (isEngineError(error, 'not-found')) return undefined;
        if (signal.aborted || !isEngineError(error, 'unreachable')) throw error;
      }
    }
  }
}

export async function followContainerLogs(source: LogsClientSource, id: string, sink: LogSink, options: FollowOptions): Promise<void> {
  const client = typeof source === 'function' ? source() : source;
  const first = await client.containers.inspect(id, { signal: options.signal });
  const follower = new Follower(source, client, id, first.Name.replace(/^\//, ''), first.Config.Tty, sink, options);
  await follower.run(first);
}

