/**
 * The Volumes feature: the Volumes view (with the Disk Usage row), the volume commands and their events.
 * extension.ts calls `registerVolumes` once, handing over `revealContainer` from the Containers feature.
 */
import type { DisposableStore } from '../common/lifecycle';
import { extendDeps } from '../workbench/deps';
import { registerCommandTable } from '../workbench/commandTable';
import { volumeCommands } from './commands';
import type { VolumesFeature, VolumesRegistrationDeps } from './deps';
import { VolumesView } from './view';

export type { VolumesDeps, VolumesFeature, VolumesRegistrationDeps } from './deps';

export function registerVolumes(deps: VolumesRegistrationDeps, owner: DisposableStore): VolumesFeature {
  const view = owner.add(new VolumesView(deps));
  registerCommandTable(volumeCommands, extendDeps(deps, { refreshDiskUsage: (signal?: AbortSignal) => view.refreshDiskUsage(0, signal) }), owner);
  return { view };
}
