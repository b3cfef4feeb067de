/**
 * The Stats feature: CPU and memory on the running rows of the Containers view (only the rows on screen, only while
 * the view is visible, redrawn at most once a second), the last health-check output in an unhealthy row's tooltip,
 * and the Container Stats panel (panel.ts). extension.ts calls `registerStats` once and hands over the view.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { statsCommands } from './commands';
import type { StatsDeps, StatsFeature } from './deps';
import { TreeStats } from './treeStats';

export type { StatsDeps, StatsFeature } from './deps';

export function registerStats(deps: StatsDeps, owner: DisposableStore): StatsFeature {
  const rows = owner.add(new TreeStats(deps));
  registerCommandTable(statsCommands, deps, owner);
  return { openTreeStreams: () => rows.openStreams() };
}
