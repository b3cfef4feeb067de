/**
 * Loads the language client bundle (`dist/language.js`, built from languageFeatures.ts) only when the first
 * Dockerfile or Compose document opens. vscode-languageclient is large; keeping it out of `dist/extension.js`
 * keeps activation for the views fast and the activation bundle small.
 */
import { errorMessage } from '../common/errors';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageFeatures } from './languageFeatures';
import { Disposable } from '../common/lifecycle';

/** The languages served by the bundled servers (kept in step with LANGUAGE_SERVERS in languageFeatures.ts). */
const SERVED_LANGUAGES: ReadonlySet<string> = new Set(['dockerfile', 'dockercompose']);

type LanguageModule = typeof import('./languageFeatures');

export class LazyLanguageFeatures extends Disposable {
  private features: LanguageFeatures | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(vscode.workspace.onDidOpenTextDocument((document) => this.onOpen(document)));
    for (const document of vscode.workspace.textDocuments) this.onOpen(document);
  }

  private onOpen(document: vscode.TextDocument): void {
    if (this.features || !SERVED_LANGUAGES.has(document.languageId)) return;
    const bundle = path.join(this.extensionUri.fsPath, 'dist', 'language.js');
    try {
      // A runtime require of the separate bundle: esbuild must not inline it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const module = require(bundle) as LanguageModule;
      // The loaded module sees this document in workspace.textDocuments and starts its server.
      this.features = this._register(new module.LanguageFeatures(this.extensionUri, this.log));
    } catch (error) {
      this.log.error(`Could not load the language client from ${bundle}: ${errorMessage(error)}`);
    }
  }

  /** For tests and support: which servers run, and whether each is up. */
  async states(): ReturnType<LanguageFeatures['states']> {
    return this.features ? this.features.states() : [];
  }
}
