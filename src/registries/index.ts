/**
 * Wires the registries feature: the credential store and chain, Sign In / Sign Out, the Registries view and its
 * commands, Tag Image… and Push Image. extension.ts calls `registerRegistries` once.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { registriesCommands } from './commands';
import type { RegistriesDeps, RegistriesFeature } from './deps';
import { authRetryOptions } from './registryCommands';
import { createRegistriesParts } from './view';

export { withRegistryAuthRetry, isRegistryAuthFailure, runRefusedMessage, type AuthRetryOptions } from './authRetry';

export type { RegistriesDeps, RegistriesFeature } from './deps';
export { REGISTRIES_VIEW_ID } from './view';

export function registerRegistries(deps: RegistriesDeps, owner: DisposableStore): RegistriesFeature {
  const parts = createRegistriesParts(deps, owner);
  registerCommandTable(registriesCommands(deps, parts), deps, owner);
  return {
    chain: parts.chain,
    store: parts.store,
    authRetry: (automatic) => authRetryOptions(parts.chain, parts.signIn, deps.log, automatic),
    refresh: () => parts.tree.refresh(),
  };
}
