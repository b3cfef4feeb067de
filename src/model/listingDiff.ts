/**
 * The engine's first listing applied over a saved one (savedListing.ts) as a difference: the rows the engine still
 * has are reported as updated, so a view redraws only those that read differently, where a full change would send
 * every row to the page again while it may still be drawing the saved ones. No `vscode` here.
 */
import type { ContainerSummary, ImageSummary } from '../engine';
import type { ImageRecord } from './records';
import { emptyChange, type MutableChange } from './modelChange';
import { renderClock, rememberExactClock } from './statusClock';
import type { ContainerStore, ImageStore, Updated } from './stores';

export function applyListingOver(
  stores: { readonly containers: ContainerStore; readonly images: ImageStore },
  containers: readonly ContainerSummary[],
  images: readonly ImageSummary[],
  nowMs: number,
): MutableChange {
  const change = emptyChange();
  const usageChanged = new Set<string>();
  const listed = new Set<string>();
  for (const summary of containers) {
    listed.add(summary.Id);
    // A saved clock from the engine's own times that still reads as the listing words it stays: the row ages from
    // the engine's StartedAt/FinishedAt rather than from an estimate read back from words.
    const saved = stores.containers.get(summary.Id);
    if (saved?.clock?.exact && saved.state === summary.State && renderClock(saved.clock, nowMs) === summary.Status) rememberExactClock(summary, saved.clock);
    const result = stores.containers.upsert(summary, usageChanged);
    if (result.kind === 'added') change.containers.added.push(result.current);
    else if (result.kind === 'updated') change.containers.updated.push(result);
  }
  for (const record of [...stores.containers.values()]) {
    if (listed.has(record.id)) continue;
    const removed = stores.containers.remove(record.id, usageChanged);
    if (removed) change.containers.removed.push(removed);
  }
  const keys = new Set<string>();
  for (const summary of images) {
    const displaced: Array<Updated<ImageRecord>> = [];
    const result = stores.images.upsert(summary, displaced);
    keys.add(result.current.key);
    if (result.kind === 'added') change.images.added.push(result.current);
    else if (result.kind === 'updated') change.images.updated.push(result);
    change.images.updated.push(...displaced);
  }
  for (const record of [...stores.images.values()]) {
    if (keys.has(record.key)) continue;
    const removed = stores.images.remove(record.key);
    if (removed) change.images.removed.push(removed);
  }
  for (const key of usageChanged) if (stores.images.get(key)) change.images.usageChanged.push(key);
  return change;
}
