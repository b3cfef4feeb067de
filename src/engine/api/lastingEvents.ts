/**
 * The engine's events across the clean ends of its stream. Podman 4.3 ends every event stream, without a word, when it
 * rotates its events file (every 1 MB of events by default, which a busy engine logs in minutes). A follower that took
 * that end for the engine's would stop following while the engine still runs.
 */
import type { EngineEvent, EventsOptions } from '../connection';
import type { EngineClient } from './client';
import { engineTimeOf, eventKey, eventNanos } from './eventFormat';

/**
 * A stream that ends within QUICK_END_MS of opening, MAX_QUICK_ENDS times in a row, comes from an engine that will not
 * keep one open, not from a rotation: following stops then rather than asking again and again.
 */
export const QUICK_END_MS = 1000;
export const MAX_QUICK_ENDS = 5;

export interface LastingEventsOptions extends EventsOptions {
  /**
   * Asked after a stream ended cleanly, before the next one opens: false stops following (the object followed is
   * gone, say). Absent: always open the next.
   */
  readonly beforeReopen?: () => Promise<boolean>;
}

/**
 * `client.system.events(options)`, opened again after each clean end from the newest event seen, so an event that came
 * between two streams is in the second and none comes twice. Ends when the signal aborts, when `beforeReopen` says
 * so, or after MAX_QUICK_ENDS quick ends in a row; throws what a stream throws (a broken connection).
 */
export async function* lastingEvents(client: { readonly system: Pick<EngineClient['system'], 'events'> }, options: LastingEventsOptions): AsyncGenerator<EngineEvent, void, undefined> {
  const { beforeReopen, ...streamOptions } = options;
  let since = streamOptions.since;
  /** The newest stamp seen, and the events that carry it: a stream opened again at that stamp repeats them. */
  let newest = -1n;
  let atNewest = new Set<string>();
  /** Where the current stream resumed, and what was seen there already (none for the first stream). */
  let resumedAt: bigint | undefined;
  let seenAtResume = new Set<string>();
  let quickEnds = 0;
  for (;;) {
    const openedAt = Date.now();
    for await (const event of client.system.events({ ...streamOptions, since })) {
      const nanos = eventNanos(event);
      const key = eventKey(event, nanos);
      // What a resumed stream repeats (Podman replays part of its file as well); a first stream passes everything on,
      // in the order the engine sends it.
      if (resumedAt !== undefined && (nanos < resumedAt || (nanos === resumedAt && seenAtResume.has(key)))) continue;
      if (nanos > newest) {
        newest = nanos;
        atNewest = new Set();
      }
      if (nanos === newest) atNewest.add(key);
      yield event;
    }
    if (streamOptions.signal?.aborted === true) return;
    quickEnds = Date.now() - openedAt < QUICK_END_MS ? quickEnds + 1 : 0;
    if (quickEnds >= MAX_QUICK_ENDS) return;
    if (beforeReopen !== undefined && !(await beforeReopen())) return;
    if (newest >= 0n) {
      since = engineTimeOf(newest);
      resumedAt = newest;
      seenAtResume = new Set(atNewest);
    }
  }
}
