/**
 * The newest N events of one engine, followed live, with the gap filled after a reconnect.
 *
 * - On reconnect the stream resumes with `since` a little before the newest event seen (REPLAY_WINDOW_NS): the
 *   engine stamps an event before it queues it, so two events logged at once may arrive out of order, and a resume at
 *   exactly the newest time would miss the older of them.
 * - Every event inside that window is remembered by its key (exact time, type, action, actor, attributes), so what
 *   the engine replays is dropped once: nothing missing, nothing doubled.
 * - The history keeps at most `maxEntries` events (the oldest go first); memory does not grow with the event rate.
 */
import { Emitter } from '../common/emitter';
import { errorMessage } from '../common/errors';
import { engineTimeOf, eventKey, eventNanos, QUICK_END_MS, type EngineEvent, type ListFilters } from '../engine';
import { pauseUnlessAborted } from '../common/concurrency';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './reconnect';

/** How far before the newest event seen a resumed stream starts (events stamped this close may arrive swapped). */
export const REPLAY_WINDOW_NS = 1_000_000_000n;

export interface HistoryEntry {
  /** Increases by one per event kept: a view can tell new entries from old without comparing times. */
  readonly sequence: number;
  readonly event: EngineEvent;
  readonly nanos: bigint;
}

export interface HistoryChange {
  readonly added: number;
}

export class EventHistory {
  private readonly ring: Array<HistoryEntry | undefined>;
  private start = 0;
  private count = 0;
  private nextSequence = 0;
  private newestNanos = 0n;
  /** Keys of the events within REPLAY_WINDOW_NS of the newest, in arrival order (times near-sorted). */
  private readonly recentKeys = new Map<string, bigint>();
  private duplicateCount = 0;

  constructor(private capacity: number) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.ring = new Array<HistoryEntry | undefined>(this.capacity);
  }

  get maxEntries(): number {
    return this.capacity;
  }

  get size(): number {
    return this.count;
  }

  /** Events dropped because they had been seen already (replays after a reconnect). */
  get duplicates(): number {
    return this.duplicateCount;
  }

  /** Total events kept since the history was made (including those since pushed out by newer ones). */
  get total(): number {
    return this.nextSequence;
  }

  /** Adds EVENT unless it was seen already (false then). */
  add(event: EngineEvent): boolean {
    const nanos = eventNanos(event);
    const key = eventKey(event, nanos);
    if (this.recentKeys.has(key)) {
      this.duplicateCount++;
      return false;
    }
    this.recentKeys.set(key, nanos);
    if (nanos > this.newestNanos) {
      this.newestNanos = nanos;
      this.forgetOldKeys();
    }
    const entry: HistoryEntry = { sequence: this.nextSequence++, event, nanos };
    if (this.count < this.capacity) {
      this.ring[(this.start + this.count) % this.capacity] = entry;
      this.count++;
    } else {
      this.ring[this.start] = entry;
      this.start = (this.start + 1) % this.capacity;
    }
    return true;
  }

  /** Oldest first. */
  entries(): HistoryEntry[] {
    const result: HistoryEntry[] = [];
    for (let i = 0; i < this.count; i++) result.push(this.ring[(this.start + i) % this.capacity] as HistoryEntry);
    return result;
  }

  /** The `since` a resumed stream starts from, or undefined before the first event. */
  resumeSince(): string | undefined {
    return this.newestNanos > 0n ? engineTimeOf(this.newestNanos - REPLAY_WINDOW_NS) : undefined;
  }

  /** A new bound (a setting changed): the newest MAX_ENTRIES stay. */
  resize(maxEntries: number): void {
    const kept = this.entries().slice(-Math.max(1, Math.floor(maxEntries)));
    this.capacity = Math.max(1, Math.floor(maxEntries));
    this.ring.length = 0;
    this.ring.length = this.capacity;
    this.start = 0;
    this.count = kept.length;
    kept.forEach((entry, index) => (this.ring[index] = entry));
  }

  private forgetOldKeys(): void {
    const cutoff = this.newestNanos - REPLAY_WINDOW_NS;
    for (const [key, nanos] of this.recentKeys) {
      if (nanos >= cutoff) break;
      this.recentKeys.delete(key);
    }
  }
}

export type FollowState = { readonly kind: 'connecting' } | { readonly kind: 'live' } | { readonly kind: 'disconnected'; readonly reason: string };

export interface EventSource {
  events(options: { since?: string; filters?: ListFilters; signal?: AbortSignal; onOpen?: () => void }): AsyncIterable<EngineEvent>;
}

export interface EventFollowOptions {
  /** `since` of the very first connection (what the engine still holds from before), e.g. 15 minutes ago. */
  readonly firstSince: () => string;
  readonly backoff?: BackoffPolicy;
  /** Called for each event kept (a view throttles its redraws itself). */
  readonly onChange?: (change: HistoryChange) => void;
}

/**
 * Follows SOURCE's events into a history until the signal aborts, reconnecting after a failure (with a backoff) and
 * resuming from the newest event seen. `onDidChangeState` says when the connection drops and when it is back.
 */
export class EventFollower {
  private readonly _onDidChangeState = new Emitter<FollowState>();
  readonly onDidChangeState = this._onDidChangeState.event;
  private currentState: FollowState = { kind: 'connecting' };
  private connections = 0;

  constructor(
    private readonly source: EventSource,
    readonly history: EventHistory,
    private readonly options: EventFollowOptions,
  ) {}

  get state(): FollowState {
    return this.currentState;
  }

  /** Connections after the first (each one a gap that `since` filled). */
  get reconnects(): number {
    return Math.max(0, this.connections - 1);
  }

  /** Runs until SIGNAL aborts. */
  async run(signal: AbortSignal): Promise<void> {
    for (let failures = 0; !signal.aborted; ) {
      const openedAt = Date.now();
      try {
        const since = this.history.resumeSince() ?? this.options.firstSince();
        const stream = this.source.events({
          since,
          signal,
          onOpen: () => {
            this.connections++;
            failures = 0;
            this.setState({ kind: 'live' });
          },
        });
        for await (const event of stream) {
          if (this.history.add(event)) this.options.onChange?.({ added: 1 });
        }
        if (signal.aborted) return;
        // A clean end: Podman ends every event stream when it rotates its events file (every 1 MB of events), so the
        // stream opens again at once and the view says nothing unless that fails. An engine that ends each stream as
        // soon as it opens is paced like a failure.
        if (Date.now() - openedAt >= QUICK_END_MS) {
          this.setState({ kind: 'connecting' });
          continue;
        }
        failures++;
        this.setState({ kind: 'disconnected', reason: 'the engine closed the event stream' });
        await pauseUnlessAborted(backoffDelay(failures - 1, this.options.backoff ?? DEFAULT_BACKOFF), signal);
      } catch (error) {
        if (signal.aborted) return;
        failures++;
        this.setState({ kind: 'disconnected', reason: errorMessage(error) });
        // The pause ends with the abort: a hidden view's loop leaves no timer behind.
        await pauseUnlessAborted(backoffDelay(failures - 1, this.options.backoff ?? DEFAULT_BACKOFF), signal);
      }
    }
  }

  private setState(state: FollowState): void {
    if (state.kind === 'live' && this.currentState.kind === 'live') return;
    this.currentState = state;
    this._onDidChangeState.fire(state);
  }

  dispose(): void {
    this._onDidChangeState.dispose();
  }
}
