/**
 * The Build feature: Build Image… on Dockerfiles (Explorer, editor title, palette), and the `berth-build` and
 * `berth-run` task types. extension.ts calls
 * `registerBuild` once; the image is revealed through the Images view part it hands over.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { buildCommands } from './commands';
import type { BuildDeps } from './deps';
import { BerthTaskProvider } from './tasks';

export type { BuildDeps } from './deps';

export function registerBuild(deps: BuildDeps, owner: DisposableStore): void {
  registerCommandTable(buildCommands, deps, owner);
  owner.add(new BerthTaskProvider(deps));
}
