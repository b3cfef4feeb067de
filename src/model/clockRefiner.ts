/**
 * A listing words times coarsely (`Up 2 hours` is anything from 1.5 to 2.5 hours), so a row read back from it
 * would turn to `Up 3 hours` at a moment `docker ps` does not. After each full listing, the containers whose
 * clock is such an estimate are inspected once (the engine's StartedAt/FinishedAt), in the background and
 * through the model's ordinary refetch. Rows under a minute old are exact from the listing and need nothing.
 */
import { errorMessage } from '../common/errors';
import type { IDisposable } from '../common/lifecycle';
import type { EngineModel, LogLevel } from './engineModel';

export function refineClocksAfterListings(model: EngineModel, log: (level: LogLevel, message: string) => void): IDisposable {
  let running = false;
  return model.onDidChange((change) => {
    if (!change.full || running) return;
    const ids = [...model.containers()].filter((record) => record.clock?.exact === false).map((record) => record.id);
    if (ids.length === 0) return;
    running = true;
    log('debug', `Inspecting ${ids.length} containers for their exact start and finish times`);
    model
      .refetchContainers(ids)
      .catch((error: unknown) => log('debug', `Reading exact container times stopped: ${errorMessage(error)}`))
      .finally(() => {
        running = false;
      });
  });
}
