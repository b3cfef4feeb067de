/**
 * The Networks feature: the Networks view and the network commands, following network events while visible.
 * extension.ts calls `registerNetworks` once, handing over `revealContainer` from the Containers feature.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { extendDeps, type LogDeps, type SessionsDeps } from '../workbench/deps';
import { networkCommands } from './commands';
import { NetworksView } from './view';

export interface NetworksRegistrationDeps extends SessionsDeps, LogDeps {
  readonly revealContainer: (id: string, engine: string) => Promise<void>;
}

export interface NetworksFeature {
  readonly view: NetworksView;
}

export function registerNetworks(deps: NetworksRegistrationDeps, owner: DisposableStore): NetworksFeature {
  const view = owner.add(new NetworksView(deps));
  registerCommandTable(networkCommands, extendDeps(deps, { refreshNetworks: () => view.networks?.refresh() ?? Promise.resolve() }), owner);
  return { view };
}
