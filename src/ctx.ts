/**
 * The extension's one context object: the log channel, the settings, and the current engine session
 * (client + model). It composes the views, commands and document providers, and owns them all.
 */
import * as vscode from 'vscode';
import { Disposable } from './common/lifecycle';
import { readSettings, type BerthSettings } from './config';
import { EngineSession } from './model/session';
import { describe, type EngineModel, type LogLevel, type ModelSnapshot } from './model/engineModel';
import { ContainersView } from './views/containers/containersView';
import { ImagesView } from './views/images/imagesView';
import { EngineStatus } from './views/engineStatus';
import { registerCommands } from './commands';
import { LogsDocumentProvider } from './logs/logsDocumentProvider';
import { InspectDocumentProvider } from './views/inspectDocumentProvider';
import { registerRegistries, type RegistriesFeature } from './registries';
import { registerLazyLanguageFeatures } from './language/lazyLanguageFeatures';

export interface BerthApi {
  /** Resolves once the model holds a first full listing; rejects when the engine is unreachable. */
  whenModelReady(): Promise<void>;
  snapshot(): ModelSnapshot & { endpoint: string };
}

export class Ctx extends Disposable {
  readonly log: vscode.LogOutputChannel;
  private _settings: BerthSettings;
  private _session: EngineSession;
  private readonly _onDidChangeSession = this._register(new vscode.EventEmitter<EngineSession>());
  private readonly _onDidChangeSettings = this._register(new vscode.EventEmitter<BerthSettings>());
  /** Fired after the session was replaced (the endpoint setting changed). */
  readonly onDidChangeSession = this._onDidChangeSession.event;
  readonly onDidChangeSettings = this._onDidChangeSettings.event;

  readonly containersView: ContainersView;
  readonly imagesView: ImagesView;
  readonly logsDocuments: LogsDocumentProvider;
  /** Sign-ins, the credential chain (Berth's SecretStorage, then the docker configuration) and the Registries view. */
  readonly registries: RegistriesFeature;

  constructor(readonly extension: vscode.ExtensionContext) {
    super();
    this.log = this._register(vscode.window.createOutputChannel('Berth', { log: true }));
    this._settings = readSettings();
    this._session = this.createSession();
    this._register({ dispose: () => this._session.dispose() });
    this._register(vscode.workspace.onDidChangeConfiguration((event) => this.onConfigurationChanged(event)));

    this.containersView = this._register(new ContainersView(this));
    this.imagesView = this._register(new ImagesView(this));
    this._register(new EngineStatus(this));
    this.logsDocuments = this._register(new LogsDocumentProvider(this));
    this._register(new InspectDocumentProvider(this));
    this.registries = registerRegistries(this, {
      secrets: extension.secrets,
      log: this.log,
      engine: () => this._session.client,
      logUri: extension.logUri,
    });
    registerLazyLanguageFeatures(this, this.log, extension.extensionUri);
    registerCommands(this);
    // After activate() has returned: no engine call, not even its setup, on the activation path.
    const kickoff = setImmediate(() => this._session.model.start());
    this._register({ dispose: () => clearImmediate(kickoff) });
  }

  get settings(): BerthSettings {
    return this._settings;
  }

  get session(): EngineSession {
    return this._session;
  }

  get model(): EngineModel {
    return this._session.model;
  }

  get api(): BerthApi {
    return {
      whenModelReady: () => this._session.model.whenConnected(),
      snapshot: () => this.snapshot(),
    };
  }

  snapshot(): ModelSnapshot & { endpoint: string } {
    return { ...this._session.model.snapshot(), endpoint: this._session.endpointDisplay };
  }

  /** Gives a registration made outside the Ctx (commands) the Ctx as owner. */
  registerDisposable<T extends vscode.Disposable>(item: T): T {
    return this._register(item);
  }

  /** Writes one line to the Berth log channel at the given level. */
  logLine(level: LogLevel, message: string): void {
    this.log[level](message);
  }

  private createSession(): EngineSession {
    const session = new EngineSession({
      host: this._settings.engineHost,
      log: (level, message) => this.logLine(level, message),
    });
    this.log.info(`Engine endpoint: ${session.endpointDisplay}`);
    if (session.configError) this.log.error(`The engine endpoint setting is invalid: ${describe(session.configError)}`);
    return session;
  }

  private onConfigurationChanged(event: vscode.ConfigurationChangeEvent): void {
    if (!event.affectsConfiguration('berth')) return;
    const previous = this._settings;
    this._settings = readSettings();
    if (previous.engineHost !== this._settings.engineHost) {
      const old = this._session;
      this._session = this.createSession();
      this._onDidChangeSession.fire(this._session);
      old.dispose();
      this._session.model.start();
    }
    this._onDidChangeSettings.fire(this._settings);
  }
}
