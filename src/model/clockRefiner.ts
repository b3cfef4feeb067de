/**
 * A listing words times coarsely (`Up 2 hours` is anything from 1.5 to 2.5 hours), so a row read back from it
 * would turn to `Up 3 hours` at a moment `docker ps` does not. After each full listing, the containers whose
 * clock is such an estimate are inspected once (the engine's StartedAt/FinishedAt), in the background and
 * through the model's ordinary refetch. Rows under a minute old are exact from the listing and need nothing.
 *
 * The refetches go in chunks, one after another: the model applies its work in order, so an engine event that
 * comes meanwhile waits for one chunk, not for thousands of inspects, and each chunk redraws only its own rows.
 */
import { errorMessage } from '../common/errors';
import type { IDisposable } from '../common/lifecycle';
import type { EngineModel, LogLevel } from './engineModel';

/** Containers inspected per refetch: about 20-60 ms of engine time, the most an event waits behind. */
export const REFINE_CHUNK = 64;

export type RefinedModel = Pick<EngineModel, 'onDidChange' | 'containers' | 'refetchContainers'>;

export function refineClocksAfterListings(model: RefinedModel, log: (level: LogLevel, message: string) => void): IDisposable {
  let running = false;
  return model.onDidChange((change) => {
    // A saved listing's clocks are the ones the model had when it saved them; the engine's listing comes next.
    if (!(change.full || change.relisted) || change.saved || running) return;
    const ids = [...model.containers()].filter((record) => record.clock?.exact === false).map((record) => record.id);
    if (ids.length === 0) return;
    running = true;
    log('debug', `Inspecting ${ids.length} containers for their exact start and finish times`);
    refineInChunks(model, ids)
      .catch((error: unknown) => log('debug', `Reading exact container times stopped: ${errorMessage(error)}`))
      .finally(() => {
        running = false;
      });
  });
}

/** A disposed model rejects its refetch, which ends the loop. */
async function refineInChunks(model: RefinedModel, ids: readonly string[]): Promise<void> {
  for (let index = 0; index < ids.length; index += REFINE_CHUNK) {
    await model.refetchContainers(ids.slice(index, index + REFINE_CHUNK));
  }
}
