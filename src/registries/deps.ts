/** What the Registries feature needs of the extension, and what it hands the other features. */
import type * as vscode from 'vscode';
import type { ReportDeps } from '../workbench/feedback';
import type { AuthRetryOptions } from './authRetry';
import type { CredentialChain } from './credentialChain';
import type { RegistryCredentialStore } from './credentialStore';
import type { DockerConfigLocation } from './dockerConfigRegistries';
import type { RegistriesTreeProvider } from './registriesTree';
import type { EngineGetter } from './registryEngine';
import type { RegistrySignIn } from './signIn';
import type { TypedRepositories } from './typedRepositories';

export interface RegistriesDeps extends ReportDeps {
  readonly secrets: vscode.SecretStorage;
  /** Where the repositories typed into "Type a Repository…" are kept (names only, nothing secret). */
  readonly globalState: vscode.Memento;
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
  /**
   * Options for `withRegistryAuthRetry(reference, op, options)`: chain lookup + "Sign In…" offer on refusal; with
   * `automatic` credentials (automation) the offer signs in with them without asking.
   */
  authRetry(automatic?: { readonly username: string; readonly password: string }): AuthRetryOptions;
  refresh(): void;
}

/** The parts of the feature its commands act through, made once by registerRegistries. */
export interface RegistriesParts {
  readonly store: RegistryCredentialStore;
  readonly chain: CredentialChain;
  readonly signIn: RegistrySignIn;
  readonly tree: RegistriesTreeProvider;
  readonly typed: TypedRepositories;
}
