/**
 * A planned prune carried out: each planned object is removed by its id, never through the engine's own prune
 * endpoint (which would take whatever is unused by then, plan or not). An object that went meanwhile is not
 * reported; one the engine now refuses (started, or taken into use since the plan) stays and is reported as kept.
 * Build cache has no removal by id: its part is the engine's prune, narrowed to `until`.
 */
import { formatBytes } from '../../common/format';
import { forEachBounded } from '../../common/concurrency';
import type { EngineClient, PruneReport } from '../api';
import { type ListFilters, isEngineError, retryWhileBusy } from '../connection';
import { errorMessage } from '../../common/errors';
import { removeHelper } from './usage';
import type { PruneItem, PrunePlan, PrunePlanPart } from './pruneTypes';
import type { PruneKind } from './pruneFilters';

export interface PruneOutcome {
  readonly kind: PruneKind;
  /** What was removed: container ids; volume, network and image names as the plan lists them. */
  readonly removed: string[];
  /** For images, the engine's own account, as docker prints it: `untagged: …` and `deleted: sha256:…` lines. */
  readonly engineLines?: string[];
  /** The planned size of what was removed (an image's: its own layers), or the engine's figure for build cache. */
  readonly spaceReclaimed: number;
  /** Planned objects that stayed, each with the engine's reason. */
  readonly refused?: string[];
}

/** How many removals run at once: enough to overlap, few enough not to flood the engine. */
const REMOVALS_AT_ONCE = 4;

/** Removes what the plan lists, part by part in docker system prune's order, and nothing else. */
export async function runPrune(client: EngineClient, plan: PrunePlan, signal?: AbortSignal): Promise<PruneOutcome[]> {
  const outcomes: PruneOutcome[] = [];
  for (const part of plan.parts) {
    // A part with nothing planned never reaches the engine (Podman, with no build cache, has no build prune).
    if (part.remove.length === 0) outcomes.push({ kind: part.kind, removed: [], spaceReclaimed: 0 });
    else if (part.kind === 'build-cache') {
      const report = await pruneRacing(client, plan.filters, signal);
      outcomes.push({ kind: part.kind, removed: report.removed, spaceReclaimed: report.spaceReclaimed });
    } else {
      outcomes.push(await removePart(client, part, signal));
    }
  }
  return outcomes;
}

async function removePart(client: EngineClient, part: PrunePlanPart, signal?: AbortSignal): Promise<PruneOutcome> {
  const removed: string[] = [];
  const engineLines: string[] = [];
  const refused: string[] = [];
  let spaceReclaimed = 0;
  // In waves: an image waits until the planned images built on it are settled (the engine refuses it before them).
  const settled = new Set<string>();
  let pending = part.remove;
  while (pending.length > 0) {
    const ready = pending.filter((item) => (item.removeAfter ?? []).every((id) => settled.has(id)));
    // A plan from a hostile engine may name a cycle: what is left then goes at once, and the engine decides.
    const wave = ready.length > 0 ? ready : pending;
    await forEachBounded(
      wave,
      REMOVALS_AT_ONCE,
      async (item) => {
        try {
          engineLines.push(...(await removeItem(client, part.kind, item, signal)));
          removed.push(part.kind === 'containers' ? item.id : item.name);
          spaceReclaimed += item.size ?? 0;
        } catch (error) {
          if (isEngineError(error, 'not-found')) return;
          if (isEngineError(error, 'cancelled')) throw error;
          refused.push(`${item.name}: ${errorMessage(error)}`);
        } finally {
          settled.add(item.id);
        }
      },
      signal,
    );
    if (signal?.aborted) throw signal.reason;
    pending = pending.filter((item) => !settled.has(item.id));
  }
  const isImages = part.kind === 'dangling-images' || part.kind === 'unused-images';
  return { kind: part.kind, removed, spaceReclaimed, ...(isImages ? { engineLines } : {}), ...(refused.length > 0 ? { refused } : {}) };
}

/** Removes one planned object; for an image, returns the engine's untagged/deleted lines. Throws when it stays. */
async function removeItem(client: EngineClient, kind: PruneKind, item: PruneItem, signal?: AbortSignal): Promise<string[]> {
  switch (kind) {
    case 'containers':
      await client.containers.remove(item.id, { signal });
      return [];
    case 'volumes':
      for (const helper of item.helpers ?? []) await removeHelper(client, helper, signal);
      await client.volumes.remove(item.id, { signal });
      return [];
    case 'networks':
      await client.networks.remove(item.id, { signal });
      return [];
    default:
      return removeImage(client, item, signal);
  }
}

/**
 * An image with several tags: each tag but the last is untagged by name, then the image goes by id (dockerd and
 * Podman refuse an id several repositories refer to). Never forced: one taken into use since the plan is refused.
 */
async function removeImage(client: EngineClient, item: PruneItem, signal?: AbortSignal): Promise<string[]> {
  const tags = item.tags ?? [];
  const lines: string[] = [];
  for (const tag of tags.slice(0, -1)) lines.push(...deleteLines(await client.images.remove(tag, { signal })));
  lines.push(...deleteLines(await client.images.remove(item.id, { signal })));
  return lines;
}

function deleteLines(items: ReadonlyArray<{ Untagged?: string; Deleted?: string }>): string[] {
  return items.flatMap((each) => [...(each.Untagged ? [`untagged: ${each.Untagged}`] : []), ...(each.Deleted ? [`deleted: ${each.Deleted}`] : [])]);
}

/** dockerd refuses a second build-cache prune while one runs (409). */
const RACE = /prune operation is already running/i;
const RACE_ATTEMPTS = 5;

function pruneRacing(client: EngineClient, filters: ListFilters, signal?: AbortSignal): Promise<PruneReport> {
  const until = filters['until'];
  return retryWhileBusy(() => client.system.prune('build', { filters: until !== undefined ? { until } : {}, signal }), RACE, { attempts: RACE_ATTEMPTS, stepMs: 50, signal });
}

/** The one-line summary after a prune: what went, and each planned object the engine refused to remove. */
export function describeOutcome(outcomes: readonly PruneOutcome[]): string {
  const removed = outcomes.reduce((sum, outcome) => sum + outcome.removed.length, 0);
  const reclaimed = outcomes.reduce((sum, outcome) => sum + outcome.spaceReclaimed, 0);
  const refused = outcomes.flatMap((outcome) => outcome.refused ?? []);
  const kept = refused.length > 0 ? `; kept ${refused.length} the engine refused to remove (${refused.join('; ')})` : '';
  if (removed === 0 && reclaimed === 0) return `Nothing to remove (another client may have removed it first)${kept}`;
  return `Removed ${removed} object${removed === 1 ? '' : 's'}; reclaimed ${formatBytes(reclaimed)}${kept}`;
}
