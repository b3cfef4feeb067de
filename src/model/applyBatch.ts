/**
 * Applies one batch of engine work (see batcher.ts) to the model's stores: removals locally, every other touched
 * container by its own inspect (answered by id, where a list filtered by id makes the engine scan every container),
 * each touched image by an inspect, or all images again when the batch says so. Returns what changed, for the model
 * to report. No `vscode` here.
 */
import { isBerthHelper, isEngineError, type ContainerSummary } from '../engine';
import { errorMessage } from '../common/errors';
import type { PendingWork } from './batcher';
import { containerSummaryFromInspect } from './containerInspect';
import type { CreateEventRows } from './createdEvent';
import { imageKey, imageSummaryFromInspect, type ImageRecord } from './records';
import { emptyChange, fullChange, isEmptyChange, type MutableChange, type ModelChange } from './modelChange';
import type { ContainerStore, ImageStore, Updated } from './stores';
import type { ModelSource } from './source';

/**
 * Inspects in flight at once when a burst touched many containers. Each adds an abort listener to the
 * model's lifetime signal, and Node warns past 10.
 */
const FETCH_CONCURRENCY = 8;

const BARE_IMAGE_ID = /^[0-9a-f]{64}$/;

export interface BatchTarget {
  readonly source: ModelSource;
  readonly containers: ContainerStore;
  readonly images: ImageStore;
  /** Rows from create events: not a `previous` to keep fields from. */
  readonly createEventRows: CreateEventRows;
  readonly now: () => number;
  readonly warn: (message: string) => void;
}

/** Applies WORK to TARGET's stores; the change to report, or undefined when nothing changed. */
export async function applyBatch(target: BatchTarget, work: PendingWork, signal: AbortSignal): Promise<ModelChange | undefined> {
  const change = emptyChange();
  const usageChanged = new Set<string>();

  const refetch: string[] = [];
  for (const [id, effect] of work.containers) {
    if (effect !== 'remove') {
      refetch.push(id);
      continue;
    }
    const removed = target.containers.remove(id, usageChanged);
    if (removed) change.containers.removed.push(removed);
  }
  for (let index = 0; index < refetch.length; index += FETCH_CONCURRENCY) {
    const ids = refetch.slice(index, index + FETCH_CONCURRENCY);
    // One container that cannot be read must not cost the rest of the batch its update (a lost batch leaves rows
    // missing until the next full listing).
    const settled = await Promise.allSettled(ids.map((id) => fetchContainer(target, id, signal)));
    for (const [position, outcome] of settled.entries()) {
      if (outcome.status === 'rejected') {
        if (signal.aborted) throw outcome.reason;
        target.warn(`Refreshing container ${ids[position] ?? ''} failed: ${errorMessage(outcome.reason)}`);
        continue;
      }
      const summary = outcome.value;
      if (summary) {
        const result = target.containers.upsert(summary, usageChanged);
        if (result.kind === 'added') change.containers.added.push(result.current);
        else if (result.kind === 'updated') change.containers.updated.push(result);
        continue;
      }
      const removed = target.containers.remove(ids[position] ?? '', usageChanged);
      if (removed) change.containers.removed.push(removed);
    }
  }

  for (const reference of work.images) {
    // One image that cannot be read must not cost the rest of the batch its update.
    try {
      await applyImage(target, reference, change, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      target.warn(`Refreshing image ${reference} failed: ${errorMessage(error)}`);
    }
  }
  if (work.relistImages) {
    target.images.replaceAll(await target.source.listImages({ signal }));
    return fullChange();
  }

  for (const key of usageChanged) if (target.images.get(key)) change.images.usageChanged.push(key);
  return isEmptyChange(change) ? undefined : change;
}

/**
 * One container's listing row, from an inspect (undefined when it is gone). The inspect is also the barrier
 * after `die`: Docker emits it before recording the exited state, and inspect waits for the container's
 * lock, which the engine holds until the state is recorded (see `refetch` in actions.ts).
 */
async function fetchContainer(target: BatchTarget, id: string, signal: AbortSignal): Promise<ContainerSummary | undefined> {
  try {
    const inspect = await target.source.inspectContainer(id, { signal });
    // Berth's own helpers are not the user's containers: never a row.
    if (isBerthHelper({ Labels: inspect.Config?.Labels ?? null })) return undefined;
    const previous = target.containers.get(id)?.summary;
    return containerSummaryFromInspect(inspect, target.now(), target.createEventRows.has(previous) ? undefined : previous);
  } catch (error) {
    if (isEngineError(error, 'not-found')) return undefined;
    throw error;
  }
}

async function applyImage(target: BatchTarget, reference: string, change: MutableChange, signal: AbortSignal): Promise<void> {
  // Podman's image events carry bare hex ids, and for a removed image it answers those with a 500 instead of
  // a 404; the `sha256:` form gets the 404.
  const name = BARE_IMAGE_ID.test(reference) ? `sha256:${reference}` : reference;
  try {
    const inspect = await target.source.inspectImage(name, { signal });
    const displaced: Array<Updated<ImageRecord>> = [];
    const result = target.images.upsert(imageSummaryFromInspect(inspect), displaced);
    if (result.kind === 'added') change.images.added.push(result.current);
    else if (result.kind === 'updated') change.images.updated.push(result);
    change.images.updated.push(...displaced);
  } catch (error) {
    if (!isEngineError(error, 'not-found')) throw error;
    // Gone: an id names the record directly; a tag is taken off whichever image held it.
    const known = target.images.find(name);
    if (!known) return;
    if (known.key === imageKey(name) || known.id === name) {
      const removed = target.images.remove(known.key);
      if (removed) change.images.removed.push(removed);
    }
  }
}
