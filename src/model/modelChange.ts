/**
 * What one model update changed, as the views consume it: the records added, updated and removed, so a tree
 * refreshes only those rows (or everything, for a full listing). No `vscode` here.
 */
import type { ContainerRecord, ImageRecord } from './records';
import type { Updated } from './stores';

export interface ModelChange {
  /** Everything may have changed (a full listing, or the engine went away). */
  readonly full: boolean;
  /** A saved listing shown until the engine answers (savedListing.ts): nothing of it was read from the engine. */
  readonly saved?: true;
  /**
   * The engine's listing applied over a saved one (listingDiff.ts): every container and image is in it, as added,
   * updated or removed, though `full` is false.
   */
  readonly relisted?: true;
  readonly containers: {
    readonly added: readonly ContainerRecord[];
    readonly updated: ReadonlyArray<Updated<ContainerRecord>>;
    readonly removed: readonly ContainerRecord[];
  };
  readonly images: {
    readonly added: readonly ImageRecord[];
    readonly updated: ReadonlyArray<Updated<ImageRecord>>;
    readonly removed: readonly ImageRecord[];
    /** Keys of images whose container count changed. */
    readonly usageChanged: readonly string[];
  };
}

export interface MutableChange {
  full: boolean;
  containers: { added: ContainerRecord[]; updated: Array<Updated<ContainerRecord>>; removed: ContainerRecord[] };
  images: {
    added: ImageRecord[];
    updated: Array<Updated<ImageRecord>>;
    removed: ImageRecord[];
    usageChanged: string[];
  };
}

export function emptyChange(): MutableChange {
  return {
    full: false,
    containers: { added: [], updated: [], removed: [] },
    images: { added: [], updated: [], removed: [], usageChanged: [] },
  };
}

export function fullChange(): ModelChange {
  return { ...emptyChange(), full: true };
}

export function isEmptyChange(change: ModelChange): boolean {
  const { containers, images } = change;
  return (
    !change.full &&
    containers.added.length + containers.updated.length + containers.removed.length === 0 &&
    images.added.length + images.updated.length + images.removed.length + images.usageChanged.length === 0
  );
}
