/** Reconnection arithmetic: the `since` of the events query and the backoff between attempts; one follow loop. */
import { pauseUnlessAborted } from '../common/concurrency';
import { QUICK_END_MS } from '../engine';

/**
 * `since` for `GET /events` as `SEC.NANOS`. JSON numbers lose the last digits of `timeNano`
 * (doubles keep about 16), so the value may be a few hundred nanoseconds early; the engine then
 * replays the last event seen, which is harmless because every event is answered by a refetch.
 */
export function sinceFromEvent(timeNano: number | undefined, time: number | undefined): string | undefined {
  if (typeof timeNano === 'number' && Number.isFinite(timeNano) && timeNano > 0) {
    const nanos = BigInt(Math.floor(timeNano));
    const seconds = nanos / 1_000_000_000n;
    const rest = nanos % 1_000_000_000n;
    return `${seconds}.${rest.toString().padStart(9, '0')}`;
  }
  if (typeof time === 'number' && Number.isFinite(time) && time > 0) return `${Math.floor(time)}.000000000`;
  return undefined;
}

/** `since` for the first connection: a little before now, so an event between listing and subscribing is not lost. */
export function sinceBefore(nowMs: number, marginMs: number): string {
  const ms = Math.max(0, Math.floor(nowMs - marginMs));
  return `${Math.floor(ms / 1000)}.${String((ms % 1000) * 1_000_000).padStart(9, '0')}`;
}

export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
  /** Attempts made at up to `maxMs` before the delay grows again, towards `slowMaxMs` (an engine that stays away). */
  readonly fastAttempts?: number;
  readonly slowMaxMs?: number;
}

/**
 * At most 1.5 s apart for the first 20 attempts (about 25 s), so that views match an engine that came back within
 * 2 s (a restart, a daemon reload). An engine still away after that is tried less and less often, up to every 30 s:
 * each attempt at an ssh engine spawns ssh, and a laptop that left the network should not do that every 1.5 s all
 * day. Retry and Refresh reconnect at once; commands call the engine without waiting for this loop.
 */
export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 1500, fastAttempts: 20, slowMaxMs: 30_000 };

/**
 * Delay before reconnect attempt `attempt` (0-based): doubling from `initialMs`, capped at `maxMs`; after
 * `fastAttempts` attempts, doubling again from `maxMs` up to `slowMaxMs`.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const at = Math.max(attempt, 0);
  const fast = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(at, 30));
  if (policy.fastAttempts === undefined || policy.slowMaxMs === undefined || at < policy.fastAttempts) return fast;
  const slowExponent = Math.min(at - policy.fastAttempts + 1, 30);
  return Math.min(policy.slowMaxMs, Math.max(policy.maxMs, policy.maxMs * 2 ** slowExponent));
}

export interface FollowSteps<E> {
  /** Opens the event stream (from the last event seen); its first read is started before the listing. */
  events(): AsyncIterator<E>;
  list(): Promise<void>;
  onEvent(event: E): Promise<void>;
  /** A round failed (not because SIGNAL was aborted); the next one starts after a backoff. */
  onFailure(error: unknown): void;
}

/**
 * Subscribes, lists, then follows the events until SIGNAL aborts; any failure starts over (list again, resume
 * from the last event) after a backoff. The subscription is opened before the listing, so no event between the two
 * is lost.
 */
export async function followEvents<E>(signal: AbortSignal, steps: FollowSteps<E>, policy: BackoffPolicy = DEFAULT_BACKOFF): Promise<void> {
  for (let failures = 0, quickEnds = 0; !signal.aborted; ) {
    const startedAt = Date.now();
    try {
      const events = steps.events();
      const first = events.next();
      first.catch(() => undefined);
      await steps.list();
      failures = 0;
      for (let next = await first; !next.done; next = await events.next()) await steps.onEvent(next.value);
      // A clean end (Podman ends its event streams when it rotates its events file) starts over at once; ends that
      // keep coming right after the start back off, so an engine that never keeps a stream open is not listed nonstop.
      quickEnds = Date.now() - startedAt < QUICK_END_MS ? quickEnds + 1 : 0;
      if (quickEnds > 1) await pauseUnlessAborted(backoffDelay(quickEnds - 2, policy), signal);
    } catch (error) {
      if (signal.aborted) return;
      failures++;
      steps.onFailure(error);
      // The pause ends with the abort: a hidden view's loop leaves no timer behind.
      await pauseUnlessAborted(backoffDelay(failures - 1, policy), signal);
    }
  }
}

/** At most one follow loop: `start` while one runs does nothing, `stop` aborts it (a view was hidden). */
export class FollowSwitch {
  private controller: AbortController | undefined;

  constructor(private readonly run: (signal: AbortSignal) => Promise<void>) {}

  start(): void {
    if (this.controller) return;
    this.controller = new AbortController();
    void this.run(this.controller.signal);
  }

  stop(): void {
    this.controller?.abort();
    this.controller = undefined;
  }
}
