/** Stopping containers: several at a time, each failure on its own, in the order the caller gave them. */
import { DEFAULT_CONCURRENCY, forEachBounded } from '../../common/concurrency';
import { errorMessage } from '../../common/errors';
import type { EngineClient } from '../api';
import { EngineError, type CallOptions, type ContainerSummary, type ListFilters } from '../connection';

/** The states `docker ps` lists by default, and so the ones `docker stop $(docker ps -q)` stops. */
const STOPPABLE_STATES = ['running', 'paused', 'restarting'];

/** How many stops run at once: the shared bound of every multi-action. */
const STOP_CONCURRENCY = DEFAULT_CONCURRENCY;

export interface ListRunningOptions extends CallOptions {
  /** Further filters (e.g. a label) to narrow "all running". */
  filters?: ListFilters | undefined;
}

export function listRunning(client: EngineClient, options: ListRunningOptions = {}): Promise<ContainerSummary[]> {
  return client.containers.list({ filters: { ...options.filters, status: ['running'] }, signal: options.signal });
}

/**
 * Running, paused and restarting containers: those a stop has something to do for. Chosen here rather than with a
 * `status` filter, because Podman refuses `status=restarting` ("unknown container state").
 */
export async function listStoppable(client: EngineClient, options: ListRunningOptions = {}): Promise<ContainerSummary[]> {
  const all = await client.containers.list({ all: true, filters: options.filters, signal: options.signal });
  return all.filter((container) => STOPPABLE_STATES.includes(container.State));
}

export interface StopAllOptions extends ListRunningOptions {
  timeoutSeconds?: number;
  onStopped?: (id: string) => void;
}

export interface StopAllResult {
  stopped: string[];
  failed: Array<{ id: string; error: EngineError }>;
}

/** Stops every running, paused or restarting container, several at a time; one failure does not stop the others. */
export async function stopAllRunning(client: EngineClient, options: StopAllOptions = {}): Promise<StopAllResult> {
  const stoppable = await listStoppable(client, { filters: options.filters, signal: options.signal });
  const result: StopAllResult = { stopped: [], failed: [] };
  await forEachBounded(stoppable, STOP_CONCURRENCY, async (container) => {
    try {
      await client.containers.stop(container.Id, { timeoutSeconds: options.timeoutSeconds, signal: options.signal });
      result.stopped.push(container.Id);
      options.onStopped?.(container.Id);
    } catch (error) {
      result.failed.push({ id: container.Id, error: asEngineError(error) });
    }
  });
  if (options.signal?.aborted) throw new EngineError('cancelled', `Cancelled after stopping ${result.stopped.length} of ${stoppable.length}`);
  return result;
}

export interface StopContainersOptions extends CallOptions {
  timeoutSeconds?: number | undefined;
  /** Sent instead of each container's own stop signal (API 1.42 and later; see stopSignalSupport). */
  stopSignal?: string | undefined;
  /** Called for each id in the order given, once it and every id before it have settled. */
  onSettledInOrder?: (id: string, error: EngineError | undefined) => void;
}

/** Stops the given containers several at a time (like `docker stop A B C`); resolves one result per id, in order. */
export async function stopContainers(
  client: EngineClient,
  ids: readonly string[],
  options: StopContainersOptions = {},
): Promise<Array<{ id: string; error: EngineError | undefined }>> {
  const results: Array<{ id: string; error: EngineError | undefined } | undefined> = ids.map(() => undefined);
  let reported = 0;
  const reportReady = (): void => {
    for (let next = results[reported]; next !== undefined && reported < ids.length; next = results[++reported]) {
      options.onSettledInOrder?.(next.id, next.error);
    }
  };
  await forEachBounded(
    ids.map((id, index) => ({ id, index })),
    STOP_CONCURRENCY,
    async ({ id, index }) => {
      let failure: EngineError | undefined;
      try {
        await client.containers.stop(id, { timeoutSeconds: options.timeoutSeconds, stopSignal: options.stopSignal, signal: options.signal });
      } catch (error) {
        failure = asEngineError(error);
      }
      results[index] = { id, error: failure };
      reportReady();
    },
  );
  return results as Array<{ id: string; error: EngineError | undefined }>;
}

function asEngineError(error: unknown): EngineError {
  return error instanceof EngineError ? error : new EngineError('server', errorMessage(error), { cause: error });
}
