/**
 * The Networks feature: the Networks view and the network commands, following network events while visible.
 * extension.ts calls `registerNetworks` once, handing over `revealContainer` from the Containers feature.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { extendDeps } from '../workbench/deps';
import { networkCommands } from './commands';
import type { NetworksFeature, NetworksRegistrationDeps } from './deps';
import { NetworksView } from './view';

export type { NetworksDeps, NetworksFeature, NetworksRegistrationDeps } from './deps';

export function registerNetworks(deps: NetworksRegistrationDeps, owner: DisposableStore): NetworksFeature {
  const view = owner.add(new NetworksView(deps));
  registerCommandTable(networkCommands, extendDeps(deps, { refreshNetworks: () => view.networks?.refresh() ?? Promise.resolve() }), owner);
  return { view };
}
