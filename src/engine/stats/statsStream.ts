/**
 * Follows a container's stats stream for as long as the caller wants it: every sample goes to `onSample`; a stream
 * that sends nothing for `stallMs` (dockerd sends one a second, Podman 4 one every 5 s) is dropped and opened again quietly, and so is
 * one the engine ends or breaks, after a short pause that grows while it keeps failing. It stops for good when the
 * signal aborts, or when the engine says the container is gone. While stopped it holds no timer and no connection.
 */
import { errorMessage } from '../../common/errors';
import type { EngineClient, StatsSample } from '../api';
import { isEngineError } from '../connection';
import { pauseUnlessAborted } from '../../common/concurrency';

export interface FollowStatsOptions {
  readonly signal: AbortSignal;
  readonly onSample: (sample: StatsSample) => void;
  /** A stream ended, stalled or failed and is about to be opened again (for the log). */
  readonly onReconnect?: ((reason: string) => void) | undefined;
  /** No sample for this long: the stream is dropped and opened again. Default STATS_STALL_MS. */
  readonly stallMs?: number | undefined;
  /** The first pause before opening again; it doubles up to 8× while failures go on. Default 1 s. */
  readonly retryMs?: number | undefined;
}

export type FollowStatsEnd = 'aborted' | 'gone';

/** dockerd sends a sample a second, Podman 4 one every 5 s: three of Podman's intervals with nothing is a stall. */
export const STATS_STALL_MS = 15_000;

export async function followStats(client: { readonly containers: Pick<EngineClient['containers'], 'stats'> }, id: string, options: FollowStatsOptions): Promise<FollowStatsEnd> {
  const stallMs = options.stallMs ?? STATS_STALL_MS;
  const retryMs = options.retryMs ?? 1_000;
  let failures = 0;
  while (!options.signal.aborted) {
    const attempt = new AbortController();
    const stopAttempt = (): void => attempt.abort();
    options.signal.addEventListener('abort', stopAttempt, { once: true });
    let stalled = false;
    const watchdog = setTimeout(() => {
      stalled = true;
      attempt.abort();
    }, stallMs);
    let reason: string;
    try {
      for await (const sample of client.containers.stats(id, { signal: attempt.signal })) {
        watchdog.refresh();
        failures = 0;
        options.onSample(sample);
      }
      reason = 'the engine ended the stream';
    } catch (error) {
      if (options.signal.aborted) return 'aborted';
      if (isEngineError(error, 'not-found')) return 'gone';
      reason = stalled ? `no sample for ${stallMs} ms` : errorMessage(error);
    } finally {
      clearTimeout(watchdog);
      options.signal.removeEventListener('abort', stopAttempt);
    }
    if (options.signal.aborted) return 'aborted';
    options.onReconnect?.(reason);
    // A stall is retried at once; an ended or failing stream after a pause, so a broken engine is not hammered.
    if (!stalled) await pauseUnlessAborted(retryMs * 2 ** Math.min(failures++, 3), options.signal);
  }
  return 'aborted';
}

