/**
 * The Volumes feature: the Volumes view (with the Disk Usage row), the volume commands and their events.
 * extension.ts calls `registerVolumes` once, handing over `revealContainer` from the Containers feature.
 */
import type { DisposableStore } from '../common/lifecycle';
import { extendDeps } from '../workbench/deps';
import { registerCommandTable } from '../workbench/commandTable';
import type { LogDeps, SessionsDeps } from '../workbench/deps';
import { volumeCommands } from './commands';
import { VolumesView } from './view';

export interface VolumesRegistrationDeps extends SessionsDeps, LogDeps {
  readonly revealContainer: (id: string, engine: string) => Promise<void>;
  readonly engines: SessionsDeps['engines'];
}

export interface VolumesFeature {
  readonly view: VolumesView;
}

export function registerVolumes(deps: VolumesRegistrationDeps, owner: DisposableStore): VolumesFeature {
  const view = owner.add(new VolumesView(deps));
  registerCommandTable(volumeCommands, extendDeps(deps, { refreshDiskUsage: (signal?: AbortSignal) => view.refreshDiskUsage(0, signal) }), owner);
  return { view };
}
