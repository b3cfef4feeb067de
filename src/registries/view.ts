/**
 * The Registries feature's parts, made once: the credential store and chain (Berth's sign-ins, then the docker
 * configuration), Sign In, the typed repositories and the Registries view, whose rows follow the sign-ins.
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { showViewHeader } from '../views/viewHeader';
import { ownRows } from '../workbench/callOrigin';
import { CredentialChain } from './credentialChain';
import { RegistryCredentialStore } from './credentialStore';
import type { RegistriesDeps, RegistriesParts } from './deps';
import { dockerConfigRegistries, dockerConfigSource } from './dockerConfigRegistries';
import { RegistriesTreeProvider } from './registriesTree';
import { RegistrySignIn } from './signIn';
import { TypedRepositories } from './typedRepositories';

export const REGISTRIES_VIEW_ID = 'berth.registries';

export function createRegistriesParts(deps: RegistriesDeps, owner: DisposableStore): RegistriesParts {
  const store = owner.add(new RegistryCredentialStore(deps.secrets));
  const chain = new CredentialChain([store, dockerConfigSource(deps.dockerConfig)]);
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
      showViewHeader(view, { message: count === 0 ? 'No registries yet. Sign in to a registry (the key icon above), or log in with the docker CLI.' : undefined });
    }),
  );
  owner.add(store.onDidChange(() => tree.refresh()));
  return { store, chain, signIn: new RegistrySignIn(store, deps.log), tree, typed };
}
