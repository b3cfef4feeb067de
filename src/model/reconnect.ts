/** Reconnection arithmetic: the `since` of the events query and the backoff between attempts; one follow loop. */

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

/** What `followEvents` does in each round: open the event stream, list, then answer each event. */
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
  for (let failures = 0; !signal.aborted; ) {
    try {
      const events = steps.events();
      const first = events.next();
      first.catch(() => undefined);
      await steps.list();
      failures = 0;
      for (let next = await first; !next.done; next = await events.next()) await steps.onEvent(next.value);
    } catch (error) {
      if (signal.aborted) return;
      failures++;
      steps.onFailure(error);
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(failures - 1, policy)));
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
