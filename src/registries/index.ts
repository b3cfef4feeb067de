/**
 * Wires the registries feature: the credential store and chain, Sign In / Sign Out, the Registries view and its
 * commands, Tag Image… and Push Image. `activate` (or Ctx) calls `registerRegistries` once.
 */
import * as vscode from 'vscode';
import type { AuthRetryOptions } from './authRetry';
import { CredentialChain } from './credentialChain';
import { RegistryCredentialStore } from './credentialStore';
import { dockerConfigRegistries, dockerConfigSource, type DockerConfigLocation } from './dockerConfigRegistries';
import type { EngineGetter } from './engine';
import { pushImage, tagImage, type ImageTarget } from './imageCommands';
import { own, type DisposableOwner } from './owner';
import { RegistriesTreeProvider, type RegistryTreeNode } from './registriesTree';
import { authRetryOptions, copyReference, pullTag, type PullOptions } from './registryCommands';
import { RegistrySignIn, type SignInRequest } from './signIn';

export { withRegistryAuthRetry, isRegistryAuthFailure } from './authRetry';

export const REGISTRIES_VIEW_ID = 'berth.registries';

export interface RegistriesDeps {
  readonly secrets: vscode.SecretStorage;
  readonly log: vscode.LogOutputChannel;
  /** The client of the engine a target belongs to (re-read on every use: the current engine and endpoints change). */
  readonly engine: EngineGetter;
  /**
   * The extension's log folder (`context.logUri`): the Berth LogOutputChannel writes `Berth.log` there. Exposed to
   * tests through `berth.internal.logFile`, so they can scan the log for secrets.
   */
  readonly logUri?: vscode.Uri | undefined;
  /** Where the docker configuration is; defaults to DOCKER_CONFIG or ~/.docker. */
  readonly dockerConfig?: DockerConfigLocation | undefined;
}

/** What other parts of the extension use: the chain for pulls/runs, and the sign-in offer for retries. */
export interface RegistriesFeature {
  readonly chain: CredentialChain;
  readonly store: RegistryCredentialStore;
  /** Options for `withRegistryAuthRetry(reference, op, options)`: chain lookup + "Sign In…" offer on refusal. */
  authRetry(): AuthRetryOptions;
  refresh(): void;
}

/** A tree node's label, for `berth.internal.registriesChildren` (tests read the view through it). */
interface ChildSummary {
  readonly label: string;
  readonly description: string | undefined;
  readonly contextValue: string | undefined;
  readonly tooltip: string | undefined;
  readonly node: RegistryTreeNode;
}

export function registerRegistries(owner: DisposableOwner, deps: RegistriesDeps): RegistriesFeature {
  const store = own(owner, new RegistryCredentialStore(deps.secrets));
  const chain = new CredentialChain([store, dockerConfigSource(deps.dockerConfig)]);
  const signIn = new RegistrySignIn(store, deps.log);
  const tree = own(
    owner,
    new RegistriesTreeProvider({
      chain,
      signedIn: () => store.registries(),
      fromDockerConfig: () => dockerConfigRegistries(deps.dockerConfig),
      log: deps.log,
    }),
  );
  const view = own(owner, vscode.window.createTreeView(REGISTRIES_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true }));
  own(
    owner,
    tree.onDidListRoot((count) => {
      view.message = count === 0 ? 'No registries yet. Sign in to a registry (the key icon above), or log in with the docker CLI.' : undefined;
    }),
  );
  own(owner, store.onDidChange(() => tree.refresh()));

  const commandDeps = { engine: deps.engine, chain, signIn, log: deps.log };
  const imageDeps = { engine: deps.engine, log: deps.log, authRetry: authRetryOptions(chain, signIn, deps.log) };
  const commands: Record<string, (...args: never[]) => unknown> = {
    'berth.registries.signIn': (request?: SignInRequest | RegistryTreeNode) => signIn.signIn(signInRequestOf(request)),
    'berth.registries.signOut': (target?: RegistryTreeNode | string) => signOut(signIn, target),
    'berth.registries.refresh': (node?: RegistryTreeNode) => tree.refresh(node?.kind === 'registry' || node?.kind === 'repository' ? node : undefined),
    'berth.registries.pull': (target?: RegistryTreeNode | string, options?: PullOptions) => pullTag(commandDeps, target, options),
    'berth.registries.copyReference': (target?: RegistryTreeNode | string) => copyReference(target),
    'berth.images.tag': (target?: ImageTarget, options?: { reference?: string }) => tagImage(imageDeps, target, options),
    'berth.images.push': (target?: ImageTarget, options?: { reference?: string }) => pushImage(imageDeps, target, options),
    'berth.internal.registriesChildren': (path?: string[]) => childrenAt(tree, path ?? []),
  };
  const logUri = deps.logUri;
  if (logUri) commands['berth.internal.logFile'] = () => vscode.Uri.joinPath(logUri, `${deps.log.name}.log`).fsPath;
  for (const [id, handler] of Object.entries(commands)) own(owner, vscode.commands.registerCommand(id, handler));

  return {
    chain,
    store,
    authRetry: () => authRetryOptions(chain, signIn, deps.log),
    refresh: () => tree.refresh(),
  };
}

/** The command's argument: an automation request, or a registry node (from its context menu) pre-filling the host. */
function signInRequestOf(value: SignInRequest | RegistryTreeNode | undefined): SignInRequest {
  if (typeof value !== 'object' || value === null) return {};
  if ('kind' in value) return value.kind === 'registry' ? { registry: value.registry } : {};
  return value;
}

async function signOut(signIn: RegistrySignIn, target: RegistryTreeNode | string | undefined): Promise<{ registry: string; removed: boolean } | undefined> {
  const registry = typeof target === 'string' ? target : target?.kind === 'registry' ? target.registry : await vscode.window.showInputBox({ title: 'Sign Out of Registry', prompt: 'Registry host' });
  if (!registry) return undefined;
  const removed = await signIn.signOut(registry);
  if (!removed) {
    void vscode.window.showInformationMessage(
      `Berth has no sign-in for ${registry}. If it is listed, its credentials come from the docker configuration: remove them with "docker logout ${registry}".`,
    );
  }
  return { registry, removed };
}

/** The children at a path of labels (`[]` = registries, `['127.0.0.1:5055']` = its repositories, …). */
async function childrenAt(tree: RegistriesTreeProvider, path: readonly string[]): Promise<ChildSummary[]> {
  let parent: RegistryTreeNode | undefined;
  for (const [depth, label] of path.entries()) {
    const children = await tree.getChildren(parent);
    parent = children.find((child) => labelOf(tree.getTreeItem(child)) === label);
    if (!parent) throw new Error(`The Registries view has no "${label}" under ${depth === 0 ? 'its root' : path.slice(0, depth).join(' › ')}`);
  }
  const children = await tree.getChildren(parent);
  return children.map((node) => {
    const item = tree.getTreeItem(node);
    return {
      label: labelOf(item),
      description: typeof item.description === 'string' ? item.description : undefined,
      contextValue: item.contextValue,
      tooltip: typeof item.tooltip === 'string' ? item.tooltip : undefined,
      node,
    };
  });
}

function labelOf(item: vscode.TreeItem): string {
  const label = item.label;
  return typeof label === 'string' ? label : (label?.label ?? '');
}
