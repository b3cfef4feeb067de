/**
 * Sign In to Registry… and Sign Out. Credentials are checked against the registry's `/v2/` before they are
 * stored; a refusal shows the registry's own message. Nothing secret reaches a log line or a message.
 */
import { errorMessage } from '../common/errors';
import * as vscode from 'vscode';
import { repositoryCatalogFor } from '../engine/registry';
import { insecureCredentialTransport, parseRegistryAddress } from '../engine/registry';
import { confirmAutomatedWrite } from '../workbench/automation';
import { reportFailure, withCancellableProgress } from '../workbench/feedback';
import { registryKey } from './credentialChain';
import type { RegistryCredentialStore } from './credentialStore';

/** Automation (tests, other commands): any field given skips its prompt. */
export interface SignInRequest {
  readonly registry?: string | undefined;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  /** Why Berth asks, shown in the prompts (e.g. the engine's refusal). */
  readonly reason?: string | undefined;
}

export interface SignInResult {
  readonly registry: string;
  readonly username: string;
}

/** What is wrong with a registry address for a sign-in, or undefined; suits `validateInput`. */
export function signInAddressProblem(input: string): string | undefined {
  try {
    const address = parseRegistryAddress(input);
    return insecureCredentialTransport(address.origin);
  } catch (error) {
    return errorMessage(error);
  }
}

export class RegistrySignIn {
  readonly #store: RegistryCredentialStore;
  readonly #log: vscode.LogOutputChannel;

  constructor(store: RegistryCredentialStore, log: vscode.LogOutputChannel) {
    this.#store = store;
    this.#log = log;
  }

  /**
   * Prompts for what the request lacks, verifies against the registry, stores on success.
   * Interactive: a refusal is shown and the user may try again; resolves undefined when cancelled.
   * Fully automated (all three fields given): a refusal rejects with the registry's message.
   */
  async signIn(request: SignInRequest = {}): Promise<SignInResult | undefined> {
    const automated = request.registry !== undefined && request.username !== undefined && request.password !== undefined;
    let registry = request.registry;
    let username = request.username;
    for (;;) {
      registry ??= await vscode.window.showInputBox({
        title: vscode.l10n.t('Sign In to Registry (1/3)'),
        prompt: request.reason ?? vscode.l10n.t('Registry host, e.g. registry.example.com or 127.0.0.1:5000'),
        placeHolder: 'registry.example.com',
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() ? signInAddressProblem(value) : vscode.l10n.t('Enter a registry host')),
      });
      if (registry === undefined) return undefined;
      const problem = signInAddressProblem(registry);
      if (problem) {
        if (automated) throw new Error(problem);
        void reportFailure({ log: this.#log }, `Berth: ${problem}`, new Error(problem));
        return undefined;
      }
      const key = registryKey(registry);
      username ??= await vscode.window.showInputBox({
        title: vscode.l10n.t('Sign In to {0} (2/3)', key),
        prompt: vscode.l10n.t('User name'),
        value: (await this.#store.get(key))?.username ?? '',
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Enter a user name')),
      });
      if (username === undefined) return undefined;
      const password =
        request.password ??
        (await vscode.window.showInputBox({
          title: vscode.l10n.t('Sign In to {0} as {1} (3/3)', key, username),
          prompt: vscode.l10n.t('Password or access token (stored in VS Code secret storage, never in settings)'),
          password: true,
          ignoreFocusOut: true,
          validateInput: (value) => (value ? undefined : vscode.l10n.t('Enter a password or access token')),
        }));
      if (password === undefined) return undefined;
      // A password handed in by a command's arguments is stored only with the user's yes (Berth's tests excepted).
      if (request.password !== undefined && !(await confirmAutomatedWrite(vscode.l10n.t('Store credentials for {0} (user {1}) in VS Code\'s secret storage?', key, username), vscode.l10n.t('Sign In'), `A command asked Berth to sign in to ${key} with a password it supplied. Berth checks them with the registry, stores them, and sends them with pulls and pushes to ${key}.`))) {
        this.#log.warn(`Sign-in to ${key} as ${username} with a password from a command's arguments: declined`);
        if (automated) throw new Error(`Signing in to ${key} was declined`);
        return undefined;
      }

      try {
        await this.#verify(registry, username, password);
      } catch (error) {
        const message = errorMessage(error);
        if (automated) {
          this.#log.warn(`Sign-in to ${key} as ${username} was refused: ${message}`);
          throw error;
        }
        const tryAgain = { title: vscode.l10n.t('Try Again'), run: () => undefined };
        const choice = await reportFailure({ log: this.#log }, vscode.l10n.t('Berth: could not sign in to {0}: {1}', key, message), error, [tryAgain]);
        if (choice !== tryAgain) return undefined;
        continue;
      }
      await this.#store.store(key, { username, password });
      this.#log.info(`Signed in to ${key} as ${username}; the credentials are in VS Code secret storage`);
      return { registry: key, username };
    }
  }

  /** Removes Berth's sign-in; says where else credentials may come from. */
  async signOut(registry: string): Promise<boolean> {
    const key = registryKey(registry);
    const removed = await this.#store.delete(key);
    this.#log.info(removed ? `Signed out of ${key}` : `No Berth sign-in for ${key} to remove`);
    return removed;
  }

  /**
   * Docker Hub and GHCR are checked the way their own sites sign users in (Hub's login, GitHub's token check): the
   * same APIs the view then lists through. Every other registry is checked at its `/v2/`.
   */
  async #verify(registry: string, username: string, password: string): Promise<void> {
    const key = registryKey(registry);
    const log = (line: string): void => this.#log.debug(line);
    const client = repositoryCatalogFor(registry, { auth: { username, password }, log });
    try {
      await withCancellableProgress(vscode.l10n.t('Checking the credentials with {0}…', key), (signal) => client.verify({ signal }));
    } finally {
      await client.close();
    }
  }
}
