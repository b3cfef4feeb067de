/**
 * The exit status of a run whose output has ended. The `next-exit` wait normally answers within milliseconds of the
 * attached stream's end. Podman (4.3) never answers it when the container is force-removed while a stop is under
 * way: the attached stream ends, the stop returns, and the wait stays open for ever, so a run that trusts the wait
 * alone hangs. After a grace period the container's inspect decides instead: its exit code once it has exited, or a
 * clear error when it is gone without a status. The wait still wins whenever it answers.
 */
import type { EngineClient } from '../api';
import { EngineError, isEngineError, type WaitResult } from '../connection';
import { shortId } from '../../common/format';

/** How long the wait gets after the output ended before inspect is asked, and between two inspects. */
export const WAIT_GRACE_MS = 2_000;

export async function exitStatusAfterOutput(client: EngineClient, id: string, wait: Promise<WaitResult>, signal: AbortSignal): Promise<WaitResult> {
  for (;;) {
    const answered = await Promise.race([wait, delay(WAIT_GRACE_MS, signal)]);
    if (answered !== undefined) return answered;
    const status = await statusFromInspect(client, id, signal);
    if (status !== undefined) return status;
  }
}

async function statusFromInspect(client: EngineClient, id: string, signal: AbortSignal): Promise<WaitResult | undefined> {
  try {
    const { State } = await client.containers.inspect(id, { signal });
    return State.Running || STILL_ENDING.has(State.Status) ? undefined : { StatusCode: State.ExitCode, Error: null };
  } catch (error) {
    if (!isEngineError(error, 'not-found')) throw error;
    throw new EngineError('not-found', `The container ${shortId(id)} was removed before the engine reported its exit status`, {
      endpoint: client.endpoint.display,
      hint: 'Something else removed it while it ran (a prune, or a remove with force)',
    });
  }
}

/** States in which the exit status is not final yet (the wait may still answer). */
const STILL_ENDING = new Set<string>(['stopping', 'restarting', 'removing']);

/** Resolves with undefined after `ms`, or rejects when the run's signal aborts. */
function delay(ms: number, signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(undefined);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
