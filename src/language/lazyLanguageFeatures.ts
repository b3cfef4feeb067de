/**
 * Loads the language client bundle (`dist/language.js`, built from languageFeatures.ts) only when the first
 * Dockerfile or Compose document opens. vscode-languageclient is large; keeping it out of `dist/extension.js`
 * keeps activation for the views fast and the activation bundle small.
 */
import { errorMessage } from '../common/errors';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageFeatures } from './languageFeatures';
import { Disposable, MutableDisposable } from '../common/lifecycle';

/** The languages served by the bundled servers (kept in step with LANGUAGE_SERVERS in languageFeatures.ts). */
const SERVED_LANGUAGES: ReadonlySet<string> = new Set(['dockerfile', 'dockercompose']);

/**
 * Extensions that run these same servers (Microsoft's Container Tools and its predecessor, Docker DX): with one of
 * them installed, Berth's would only duplicate every diagnostic, completion and hover.
 */
export const PEER_EXTENSIONS: readonly string[] = ['ms-azuretools.vscode-containers', 'ms-azuretools.vscode-docker', 'docker.docker'];

export const LANGUAGE_FEATURES_SETTING = 'berth.languageFeatures.enabled';

/** Why Berth's servers stay off, or undefined when they may start. */
function reasonToStayOff(): string | undefined {
  if (!vscode.workspace.getConfiguration().get<boolean>(LANGUAGE_FEATURES_SETTING, true)) return `${LANGUAGE_FEATURES_SETTING} is off`;
  const peer = PEER_EXTENSIONS.find((id) => vscode.extensions.getExtension(id) !== undefined);
  return peer === undefined ? undefined : `${peer} already provides Dockerfile and Compose language features`;
}

type LanguageModule = typeof import('./languageFeatures');

export class LazyLanguageFeatures extends Disposable {
  /** Cleared (its servers stopped) when they must stay off; loaded again when they may run. */
  private readonly features = this._register(new MutableDisposable<LanguageFeatures>());
  /** The last reason logged for staying off, so each document opened does not repeat it. */
  private loggedReason: string | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(vscode.workspace.onDidOpenTextDocument((document) => this.onOpen(document)));
    this._register(vscode.extensions.onDidChange(() => this.reconsider()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(LANGUAGE_FEATURES_SETTING)) this.reconsider();
      }),
    );
    this.reconsider();
  }

  /** Stops the servers when they must stay off; starts them for open documents when they may run again. */
  private reconsider(): void {
    const reason = reasonToStayOff();
    if (reason !== undefined && this.features.value) {
      this.log.info(`Stopping Berth's language servers: ${reason}`);
      this.features.clear();
    }
    for (const document of vscode.workspace.textDocuments) this.onOpen(document);
  }

  private onOpen(document: vscode.TextDocument): void {
    if (this.features.value || !SERVED_LANGUAGES.has(document.languageId)) return;
    const reason = reasonToStayOff();
    if (reason !== undefined) {
      if (reason !== this.loggedReason) this.log.info(`Berth's language servers stay off: ${reason}`);
      this.loggedReason = reason;
      return;
    }
    this.loggedReason = undefined;
    const bundle = path.join(this.extensionUri.fsPath, 'dist', 'language.js');
    try {
      // A runtime require of the separate bundle: esbuild must not inline it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const module = require(bundle) as LanguageModule;
      // The loaded module sees this document in workspace.textDocuments and starts its server.
      this.features.value = new module.LanguageFeatures(this.extensionUri, this.log);
    } catch (error) {
      this.log.error(`Could not load the language client from ${bundle}: ${errorMessage(error)}`);
    }
  }

  /** For tests and support: which servers run, and whether each is up. */
  async states(): ReturnType<LanguageFeatures['states']> {
    return this.features.value ? this.features.value.states() : [];
  }
}
