/**
 * Dockerfile and Compose language support: diagnostics, completion, hover (and more) from two bundled language
 * servers, driven by vscode-languageclient. A server starts only when a document of its language is first open,
 * so activating Berth for its views costs no server process.
 */
import { errorMessage } from '../common/errors';
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

export interface LanguageServerSpec {
  /** Client id; also the prefix of its settings (`<id>.trace.server`). */
  readonly id: string;
  readonly name: string;
  readonly languageId: string;
  /** Path of the bundled server, relative to the extension root. */
  readonly serverPath: string;
}


export const LANGUAGE_SERVERS: readonly LanguageServerSpec[] = [
  { id: 'berth.dockerfile', name: 'Berth Dockerfile Language Server', languageId: 'dockerfile', serverPath: 'dist/server/dockerfile-language-server.js' },
  { id: 'berth.compose', name: 'Berth Compose Language Server', languageId: 'dockercompose', serverPath: 'dist/server/compose-language-server.js' },
];


/** A started (or starting) client per language; exposed so tests and `berth.internal` commands can inspect it. */
export class LanguageFeatures extends Disposable {
  readonly #extensionUri: vscode.Uri;
  readonly #log: vscode.LogOutputChannel;
  readonly #clients = new Map<string, Promise<LanguageClient | undefined>>();

  constructor(extensionUri: vscode.Uri, log: vscode.LogOutputChannel) {
    super();
    this.#extensionUri = extensionUri;
    this.#log = log;
    this._register(vscode.workspace.onDidOpenTextDocument((document) => this.#onOpen(document)));
    for (const document of vscode.workspace.textDocuments) this.#onOpen(document);
  }

  /** The languages whose server has been started (or is starting). */
  get startedLanguages(): string[] {
    return [...this.#clients.keys()];
  }

  /** Starts the server for `languageId` if there is one; resolves once it is running (undefined if it failed). */
  ensureStarted(languageId: string): Promise<LanguageClient | undefined> {
    const existing = this.#clients.get(languageId);
    if (existing) return existing;
    const spec = LANGUAGE_SERVERS.find((candidate) => candidate.languageId === languageId);
    if (!spec) return Promise.resolve(undefined);
    const started = this.#start(spec);
    this.#clients.set(languageId, started);
    return started;
  }

  /** For tests and support: which servers were started, and whether each is up. */
  async states(): Promise<{ languageId: string; running: boolean }[]> {
    return Promise.all(
      [...this.#clients].map(async ([languageId, pending]) => ({ languageId, running: (await pending)?.isRunning() ?? false })),
    );
  }

  #onOpen(document: vscode.TextDocument): void {
    if (!LANGUAGE_SERVERS.some((spec) => spec.languageId === document.languageId)) return;
    void this.ensureStarted(document.languageId);
  }

  async #start(spec: LanguageServerSpec): Promise<LanguageClient | undefined> {
    const module = vscode.Uri.joinPath(this.#extensionUri, spec.serverPath).fsPath;
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy'] } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { language: spec.languageId, scheme: 'file' },
        { language: spec.languageId, scheme: 'untitled' },
      ],
      // One log channel for all of Berth; the client does not dispose a channel it was given.
      outputChannel: this.#log,
      diagnosticCollectionName: spec.id,
    };
    const client = new LanguageClient(spec.id, spec.name, serverOptions, clientOptions);
    this.#log.info(`Starting ${spec.name} for ${spec.languageId} documents`);
    try {
      await client.start();
      return client;
    } catch (error) {
      this.#log.error(`${spec.name} failed to start: ${errorMessage(error)}`);
      const showLog = vscode.l10n.t('Show Log');
      void vscode.window.showWarningMessage(vscode.l10n.t('Berth: the {0} language server did not start. See the Berth log for why.', spec.languageId), showLog).then((choice) => {
        if (choice) this.#log.show();
      });
      return undefined;
    }
  }

  override dispose(): void {
    super.dispose();
    for (const pending of this.#clients.values()) {
      void pending.then((client) => client?.stop()).catch(() => undefined);
    }
    this.#clients.clear();
  }
}
