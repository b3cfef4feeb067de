/** Reconnection arithmetic: the `since` of the events query and the backoff between attempts. */

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
}

/**
 * Capped at 1.5 s so that views match an engine that came back within 2 s. A retry is one connect attempt, cheap
 * even for a remote engine, and it only runs while the engine is unreachable.
 */
export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 1500 };

/** Delay before reconnect attempt `attempt` (0-based): doubling from `initialMs`, capped at `maxMs`. */
export function backoffDelay(attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const exponent = Math.min(Math.max(attempt, 0), 30);
  return Math.min(policy.maxMs, policy.initialMs * 2 ** exponent);
}
