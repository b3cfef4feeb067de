/**
 * Wires the registries feature: the credential store and chain, Sign In / Sign Out, the Registries view and its
 * commands, Tag Image… and Push Image. extension.ts calls `registerRegistries` once.
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { ownRows } from '../workbench/callOrigin';
import { registerCommandTable } from '../workbench/commandTable';
import { registriesCommands } from './commands';
import { CredentialChain } from './credentialChain';
import { RegistryCredentialStore } from './credentialStore';
import type { RegistriesDeps, RegistriesFeature } from './deps';
import { dockerConfigRegistries, dockerConfigSource } from './dockerConfigRegistries';
import { RegistriesTreeProvider } from './registriesTree';
import { authRetryOptions } from './registryCommands';
import { RegistrySignIn } from './signIn';
import { TypedRepositories } from './typedRepositories';

export { withRegistryAuthRetry, isRegistryAuthFailure, runRefusedMessage, type AuthRetryOptions } from './authRetry';

export type { RegistriesDeps, RegistriesFeature } from './deps';

export const REGISTRIES_VIEW_ID = 'berth.registries';

export function registerRegistries(deps: RegistriesDeps, owner: DisposableStore): RegistriesFeature {
  const store = owner.add(new RegistryCredentialStore(deps.secrets));
  const chain = new CredentialChain([store, dockerConfigSource(deps.dockerConfig)]);
  const signIn = new RegistrySignIn(store, deps.log);
  const typed = new TypedRepositories(deps.globalState);
  const tree = owner.add(
    new RegistriesTreeProvider({
      chain,
      signedIn: () => store.registries(),
      fromDockerConfig: () => dockerConfigRegistries(deps.dockerConfig),
      log: deps.log,
      typed,
    }),
  );
  const view = owner.add(vscode.window.createTreeView(REGISTRIES_VIEW_ID, { treeDataProvider: ownRows(tree), showCollapseAll: true }));
  owner.add(
    tree.onDidListRoot((count) => {
      view.message = count === 0 ? 'No registries yet. Sign in to a registry (the key icon above), or log in with the docker CLI.' : undefined;
    }),
  );
  owner.add(store.onDidChange(() => tree.refresh()));

  registerCommandTable(registriesCommands(deps, { chain, signIn, tree, typed }), deps, owner);

  return {
    chain,
    store,
    authRetry: (automatic) => authRetryOptions(chain, signIn, deps.log, automatic),
    refresh: () => tree.refresh(),
  };
}
