/**
 * Commands of the Registries view: Pull (a tag, with the chain's credentials and a sign-in offer on refusal) and
 * Copy Reference; and the sign-in offer the extension's own Pull Image… can use through `withRegistryAuthRetry`.
 */
import * as vscode from 'vscode';
import { withRegistryAuthRetry, type AuthRetryOptions } from './authRetry';
import type { CredentialChain } from './credentialChain';
import { formatBytes } from '../common/format';
import { LayerProgress } from '../common/layerProgress';
import { reportFailure, withCancellableProgress } from '../workbench/feedback';
import type { EngineGetter } from './registryEngine';
import { referenceOf, type RegistryTreeNode } from './registriesTree';
import type { RegistrySignIn, SignInRequest } from './signIn';

/**
 * The interactive offer: shows the engine's refusal with a **Sign In…** button. With `automatic` credentials
 * (tests, scripts) it signs in with them without asking.
 */
export function signInOffer(signIn: RegistrySignIn, log: vscode.LogOutputChannel, automatic?: Omit<SignInRequest, 'registry'>): (registry: string, message: string) => Promise<boolean> {
  return async (registry, message) => {
    if (automatic?.username !== undefined && automatic.password !== undefined) {
      return (await signIn.signIn({ registry, username: automatic.username, password: automatic.password })) !== undefined;
    }
    const signInButton = { title: vscode.l10n.t('Sign In…'), run: () => undefined };
    const choice = await reportFailure({ log }, vscode.l10n.t('Berth: {0} refused: {1}', registry, message), new Error(message), [signInButton]);
    if (choice !== signInButton) return false;
    return (await signIn.signIn({ registry, reason: vscode.l10n.t('{0} asks for credentials', registry) })) !== undefined;
  };
}

export function authRetryOptions(chain: CredentialChain, signIn: RegistrySignIn, log: vscode.LogOutputChannel, automatic?: Omit<SignInRequest, 'registry'>): AuthRetryOptions {
  return { chain, offerSignIn: signInOffer(signIn, log, automatic), log: (line) => log.debug(line) };
}

export interface PullOptions {
  /** Credentials to sign in with if the registry refuses (automation: no prompt). */
  readonly signInWith?: { readonly username: string; readonly password: string } | undefined;
}

export interface PullResult {
  readonly reference: string;
  /** How many times the pull ran (2 after one sign-in). */
  readonly attempts: number;
  readonly bytes: number;
}

export interface RegistryCommandDeps {
  readonly engine: EngineGetter;
  readonly chain: CredentialChain;
  readonly signIn: RegistrySignIn;
  readonly log: vscode.LogOutputChannel;
}

function referenceFromTarget(target: RegistryTreeNode | string | undefined): string | undefined {
  if (typeof target === 'string') return target.trim() || undefined;
  if (target?.kind === 'tag' || target?.kind === 'repository') return referenceOf(target);
  return undefined;
}

export async function pullTag(deps: RegistryCommandDeps, target: RegistryTreeNode | string | undefined, options: PullOptions = {}): Promise<PullResult | undefined> {
  const reference = referenceFromTarget(target) ?? (await vscode.window.showInputBox({ title: vscode.l10n.t('Pull'), prompt: vscode.l10n.t('Image reference'), ignoreFocusOut: true }));
  if (!reference) return undefined;
  const result = await withCancellableProgress(vscode.l10n.t('Pulling {0}', reference), (signal, progress) =>
    withRegistryAuthRetry(
      reference,
      async ({ credential, attempt }) => {
        const layers = new LayerProgress();
        for await (const line of deps.engine().images.pull(reference, { ...(credential ? { auth: credential } : {}), signal })) {
          if (layers.update(line)) {
            const { current, total } = layers.totals;
            progress.report({ message: `${formatBytes(current)} / ${formatBytes(total)}` });
          }
        }
        return { reference, attempts: attempt, bytes: layers.totals.total };
      },
      authRetryOptions(deps.chain, deps.signIn, deps.log, options.signInWith),
    ),
  );
  deps.log.info(`Pulled ${reference}`);
  if (!isAutomatedPull(target, options)) void vscode.window.showInformationMessage(vscode.l10n.t('Berth: pulled {0}', reference));
  return result;
}

/** A pull given its reference or a sign-in by automation: a failure rejects (the command table passes it on). */
export function isAutomatedPull(target: unknown, options: PullOptions | undefined): boolean {
  return typeof target === 'string' || options?.signInWith !== undefined;
}

export async function copyReference(target: RegistryTreeNode | string | undefined): Promise<string | undefined> {
  const reference = referenceFromTarget(target);
  if (!reference) return undefined;
  await vscode.env.clipboard.writeText(reference);
  void vscode.window.setStatusBarMessage(`Copied ${reference}`, 3000);
  return reference;
}
