/** The shapes of a prune's plan, shared by the planning (`prune.ts`) and the removal (`pruneRun.ts`). */
import type { ListFilters } from '../connection';
import type { PruneKind } from './pruneFilters';

export interface PruneItem {
  readonly name: string;
  /** What the removal names: a container's or network's id, a volume's name, an image's id. */
  readonly id: string;
  /** Bytes, when known (an image's: what it does not share with other images). */
  readonly size?: number | undefined;
  /** An image's tags, removed one by one before the image itself (dockerd refuses an id with several). */
  readonly tags?: readonly string[] | undefined;
  /** Berth's helper containers that mount this volume: removed first, as they are Berth's, not the user's. */
  readonly helpers?: readonly string[] | undefined;
  /** An image's ids of the planned images built on it: removed first, as the engine refuses a parent before them. */
  readonly removeAfter?: readonly string[] | undefined;
}

export interface PrunePlanPart {
  readonly kind: PruneKind;
  readonly remove: PruneItem[];
  /** Objects the filters match that stay because something uses them. */
  readonly kept: PruneItem[];
}

export interface PrunePlan {
  readonly parts: PrunePlanPart[];
  /** The filters as the user gave them (`label=a=b`, `label!=keep`, `until=24h`), already in the engine's form. */
  readonly filters: ListFilters;
}
