/**
 * The Registries feature's command table: Sign In / Sign Out, the Registries view's row commands, Tag Image… and
 * Push Image, and the internal commands tests read the view and the log through.
 */
import * as vscode from 'vscode';
import { RegistryError } from '../engine/registry';
import { command, type CommandEntry } from '../workbench/commandTable';
import { labelOf, rowsUnder } from '../views/treeItems';
import type { RegistriesDeps, RegistriesParts } from './deps';
import { pushImage, pushQuestion, tagImage, tagQuestion, type ImageTarget } from './imageCommands';
import type { RegistriesTreeProvider, RegistryTreeNode } from './registriesTree';
import { authRetryOptions, copyReference, isAutomatedPull, pullTag, type PullOptions } from './registryCommands';
import type { RegistrySignIn, SignInRequest } from './signIn';
import { repositoryNameProblem } from './typedRepositories';

/** A tree node's label, for `berth.internal.registriesChildren` (tests read the view through it). */
interface ChildSummary {
  readonly label: string;
  readonly description: string | undefined;
  readonly contextValue: string | undefined;
  readonly tooltip: string | undefined;
  readonly node: RegistryTreeNode;
}

export function registriesCommands(deps: RegistriesDeps, { chain, signIn, tree, typed }: RegistriesParts): Array<CommandEntry<RegistriesDeps>> {
  const commandDeps = { engine: deps.engine, chain, signIn, log: deps.log };
  const imageDeps = { engine: deps.engine, log: deps.log, authRetry: authRetryOptions(chain, signIn, deps.log) };
  // Automation (tests, other commands) passes what the prompts would ask; its calls reject instead of showing a message.
  const givenReference = (_target?: unknown, options?: unknown): boolean => (options as { reference?: unknown } | undefined)?.reference !== undefined;
  const table: Array<CommandEntry<RegistriesDeps>> = [
    command('berth.registries.signIn', 'Signing in', () => (request?: SignInRequest | RegistryTreeNode) => signIn.signIn(signInRequestOf(request)), {
      rejectsWhen: (request) => isCompleteSignIn(signInRequestOf(request as SignInRequest | RegistryTreeNode | undefined)),
    }),
    command('berth.registries.signOut', 'Signing out', () => (target?: RegistryTreeNode | string) => signOut(signIn, target)),
    command('berth.registries.refresh', 'Refreshing the registries', () => (node?: RegistryTreeNode) =>
      tree.refresh(node?.kind === 'registry' || node?.kind === 'repository' ? node : undefined),
    ),
    command('berth.registries.pull', 'Pulling', () => (target?: RegistryTreeNode | string, options?: PullOptions) => pullTag(commandDeps, target, options), {
      rejectsWhen: (target, options) => isAutomatedPull(target, options as PullOptions | undefined),
    }),
    command('berth.registries.typeRepository', 'Listing a typed repository', () => async (target?: RegistryTreeNode | string, options?: { repository?: string }) => {
      const registry = typeof target === 'string' ? target : target?.kind === 'type-repository' || target?.kind === 'registry' ? target.registry : undefined;
      if (registry === undefined) throw new Error('Type a Repository… needs a registry row of the Registries view');
      const repository = options?.repository ?? (await askRepository(registry));
      if (repository === undefined) return undefined;
      const problem = repositoryNameProblem(repository);
      if (problem) throw new RegistryError('bad-request', registry, problem);
      await typed.add(registry, repository);
      tree.refresh();
      return { registry, repository };
    }, { rejectsWhen: (_target, options) => (options as { repository?: unknown } | undefined)?.repository !== undefined }),
    command('berth.registries.forgetRepository', 'Forgetting a typed repository', () => async (target?: RegistryTreeNode) => {
      if (target?.kind !== 'repository' || !target.typed) return;
      await typed.remove(target.registry, target.repository);
      tree.refresh();
    }),
    command('berth.registries.copyReference', 'Copying the reference', () => (target?: RegistryTreeNode | string) => copyReference(target)),
    command('berth.images.tag', 'Tagging', () => (target?: ImageTarget, options?: { reference?: string }) => tagImage(imageDeps, target, options), {
      rejectsWhen: givenReference,
      asksOutsideCallers: tagQuestion,
    }),
    command('berth.images.push', 'Pushing', () => (target?: ImageTarget, options?: { reference?: string }) => pushImage(imageDeps, target, options), {
      rejectsWhen: givenReference,
      asksOutsideCallers: pushQuestion,
    }),
    command('berth.internal.registriesChildren', 'Reading the Registries view', () => (path?: string[]) => childrenAt(tree, path ?? [])),
  ];
  const logUri = deps.logUri;
  if (logUri) {
    table.push(command('berth.internal.logFile', 'Finding the log file', () => () => vscode.Uri.joinPath(logUri, `${deps.log.name}.log`).fsPath));
  }
  return table;
}

function askRepository(registry: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Type a Repository of {0}', registry),
    prompt: vscode.l10n.t('A repository name, such as team/app (on Docker Hub, library/busybox for an official image)'),
    placeHolder: 'team/app',
    ignoreFocusOut: true,
    validateInput: (value) => repositoryNameProblem(value.trim()),
  }).then((value) => value?.trim());
}

function isCompleteSignIn(request: SignInRequest): boolean {
  return request.registry !== undefined && request.username !== undefined && request.password !== undefined;
}

/** The command's argument: an automation request, or a registry node (from its context menu) pre-filling the host. */
function signInRequestOf(value: SignInRequest | RegistryTreeNode | undefined): SignInRequest {
  if (typeof value !== 'object' || value === null) return {};
  if ('kind' in value) return value.kind === 'registry' ? { registry: value.registry } : {};
  return value;
}

async function signOut(signIn: RegistrySignIn, target: RegistryTreeNode | string | undefined): Promise<{ registry: string; removed: boolean } | undefined> {
  const registry = typeof target === 'string' ? target : target?.kind === 'registry' ? target.registry : await vscode.window.showInputBox({ title: vscode.l10n.t('Sign Out of Registry'), prompt: vscode.l10n.t('Registry host') });
  if (!registry) return undefined;
  const removed = await signIn.signOut(registry);
  if (!removed) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Berth has no sign-in for {0}. If it is listed, its credentials come from the docker configuration: remove them with "docker logout {0}".', registry),
    );
  }
  return { registry, removed };
}

/** The children at a path of labels (`[]` = registries, `['127.0.0.1:5055']` = its repositories, …). */
async function childrenAt(tree: RegistriesTreeProvider, path: readonly string[]): Promise<ChildSummary[]> {
  const rows = await rowsUnder(tree, path, 'The Registries view');
  return rows.map(({ node, item }) => ({
    label: labelOf(item),
    description: typeof item.description === 'string' ? item.description : undefined,
    contextValue: item.contextValue,
    tooltip: typeof item.tooltip === 'string' ? item.tooltip : undefined,
    node,
  }));
}
