/**
 * The extension's core: the settings and the engine sessions (one client + model per engine, one of them current),
 * remembered per workspace. extension.ts makes it with the log, then hands it to each feature's `register`.
 * It knows no feature: features depend on it through the small interfaces in deps.ts.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { Disposable, toDisposable } from '../common/lifecycle';
import { readSettings, type BerthSettings } from '../config';
import type { EngineSession } from '../model/session';
import { EngineSessions } from '../model/engineSessions';
import { discoverEngines, endpointKey, LOCAL_ENGINE_ID } from '../model/engineList';
import { SavedListingFile } from '../model/savedListing';
import type { LogLevel, ModelSnapshot } from '../model/engineModel';
import type { CoreDeps } from './deps';
import { WorkspaceEngineConsent } from './workspaceConsent';

/** Workspace state key of the engine the user made current (an id, never a host: hosts stay out of storage). */
const CURRENT_ENGINE_KEY = 'berth.currentEngine';

export interface EngineSnapshot extends ModelSnapshot {
  endpoint: string;
  /** The engine's id (`local`, `context:<name>`, `podman:<socket>`, `settings:<name>`). */
  engine: string;
}

/** One engine, for `berth.internal.engines`. */
export interface EngineSummary {
  id: string;
  name: string;
  origin: string;
  source: string;
  endpoint: string;
  aliases: string[];
  state: 'connecting' | 'connected' | 'unreachable';
  status: string;
  reason?: string;
  current: boolean;
  product?: string;
  version?: string;
  apiVersion?: string;
}

export interface BerthApi {
  /** Resolves once the current engine's model holds a first full listing; rejects when that engine is unreachable. */
  whenModelReady(): Promise<void>;
  snapshot(): EngineSnapshot;
}

export class BerthCore extends Disposable implements CoreDeps {
  private _settings: BerthSettings;
  /** Every engine's session; `engines.current` is the one palette commands and the status bar use. */
  readonly engines: EngineSessions;
  private readonly _onDidChangeSession = this._register(new vscode.EventEmitter<EngineSession>());
  private readonly _onDidChangeEngines = this._register(new vscode.EventEmitter<void>());
  private readonly _onDidChangeSettings = this._register(new vscode.EventEmitter<BerthSettings>());
  /** Fired after another session became current (a switch, or the current engine's endpoint changed). */
  readonly onDidChangeSession = this._onDidChangeSession.event;
  /** Fired after engines were added, removed or replaced. */
  readonly onDidChangeEngines = this._onDidChangeEngines.event;
  readonly onDidChangeSettings = this._onDidChangeSettings.event;
  /** Engines named by workspace settings wait for the user's consent (workspaceConsent.ts). */
  readonly consent: WorkspaceEngineConsent;

  constructor(
    readonly log: vscode.LogOutputChannel,
    private readonly workspaceState: vscode.Memento,
    /** Where each engine's last listing is kept for the next window (the extension's global storage). */
    savedListingDir?: string,
  ) {
    super();
    this.consent = new WorkspaceEngineConsent(workspaceState, log, () => this.rediscoverEngines());
    this._settings = readSettings(this.consent.allows);
    this.consent.askAbout(this._settings.withheld);
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.rediscoverEngines()));
    this.engines = this._register(
      new EngineSessions({
        log: (level, message) => this.logLine(level, message),
        savedListings: (descriptor) => (savedListingDir && descriptor.endpoint ? new SavedListingFile(savedListingDir, endpointKey(descriptor.endpoint)) : undefined),
      }),
    );
    this._register(this.engines.onDidChangeCurrent((session) => this._onDidChangeSession.fire(session)));
    this._register(this.engines.onDidChangeEngines(() => this._onDidChangeEngines.fire()));
    this.updateEngines(workspaceState.get<string>(CURRENT_ENGINE_KEY));
    this._register(vscode.workspace.onDidChangeConfiguration((event) => this.onConfigurationChanged(event)));
  }

  /** Starts every engine's model after activate() has returned: no engine call, not even its setup, on the activation path. */
  startAfterActivation(): void {
    const kickoff = setImmediate(() => this.engines.start());
    this._register(toDisposable(() => clearImmediate(kickoff)));
  }

  get settings(): BerthSettings {
    return this._settings;
  }

  /** The current engine's session. */
  get session(): EngineSession {
    return this.engines.current;
  }

  get api(): BerthApi {
    return {
      whenModelReady: () => this.session.model.whenConnected(),
      snapshot: () => this.snapshot(),
    };
  }

  /** The session of an engine by id (or alias, or name); the current one when `engine` is undefined. Throws when it is gone. */
  sessionFor(engine: string | undefined): EngineSession {
    const session = engine === undefined || engine === '' ? this.session : this.engines.find(engine);
    if (!session) throw new Error(`Berth has no engine "${engine}" (any more). Run "Berth: Switch Context…" to see the engines.`);
    // A command needs it: a remote engine left asleep at activation starts following now.
    this.engines.wake(session);
    return session;
  }

  /** The engine a command target belongs to: a tree node's, `{ engine }`'s, else the current one. */
  sessionOfTarget(target: unknown): EngineSession {
    const engine = typeof target === 'object' && target !== null ? (target as { engine?: unknown }).engine : undefined;
    return this.sessionFor(typeof engine === 'string' ? engine : undefined);
  }

  snapshot(engine?: string): EngineSnapshot {
    const session = this.sessionFor(engine);
    return { ...session.model.snapshot(), endpoint: session.endpointDisplay, engine: session.id };
  }

  engineSummaries(): EngineSummary[] {
    const current = this.session;
    return this.engines.all.map((session) => {
      const summary: EngineSummary = {
        id: session.id,
        name: session.name,
        origin: session.descriptor.origin,
        source: session.descriptor.sourceText,
        endpoint: session.endpointDisplay,
        aliases: [...session.descriptor.aliases],
        state: session.state,
        status: session.statusText(),
        current: session === current,
      };
      if (session.reason !== undefined) summary.reason = session.reason;
      if (session.info) Object.assign(summary, session.info);
      return summary;
    });
  }

  /** Makes an engine current and remembers it for this workspace. */
  async switchEngine(key: string): Promise<EngineSession | undefined> {
    const session = this.engines.setCurrent(key);
    if (!session) return undefined;
    this.log.info(`Current engine: ${session.name} (${session.endpointDisplay})`);
    await this.workspaceState.update(CURRENT_ENGINE_KEY, session.id);
    return session;
  }

  /** Reads the settings and the engine sources again (contexts and Podman sockets may have appeared since). */
  rediscoverEngines(): void {
    // A settings write may be announced after the write's promise resolved: read them now rather than wait.
    if (!this.applySettings()) this.updateEngines(undefined);
  }

  /** Writes one line to the Berth log channel at the given level. */
  logLine(level: LogLevel, message: string): void {
    this.log[level](message);
  }

  private updateEngines(preferred: string | undefined): void {
    const descriptors = discoverEngines({ hostSetting: this._settings.engineHost, configured: this._settings.engines });
    for (const problem of this._settings.engineProblems) this.log.warn(problem);
    const before = new Set(this.engines.all);
    this.engines.update(descriptors, { preferred });
    for (const session of this.engines.all) {
      if (before.has(session)) continue;
      this.log.info(`Engine ${session.name}: ${session.endpointDisplay} (${session.descriptor.sourceText})`);
      if (session.configError) this.log.error(`The configuration of engine ${session.name} is invalid: ${errorMessage(session.configError)}`);
    }
  }

  private onConfigurationChanged(event: vscode.ConfigurationChangeEvent): void {
    if (event.affectsConfiguration('berth')) this.applySettings();
  }

  /** Reads the settings; when something changed, applies it and returns whether the engine list was updated. */
  private applySettings(): boolean {
    const previous = this._settings;
    const next = readSettings(this.consent.allows);
    this.consent.askAbout(next.withheld);
    if (JSON.stringify(previous) === JSON.stringify(next)) return false;
    this._settings = next;
    const hostChanged = previous.engineHost !== next.engineHost;
    const enginesChanged = hostChanged || JSON.stringify(previous.engines) !== JSON.stringify(next.engines);
    if (enginesChanged) {
      // Pointing berth.engine.host somewhere is choosing that engine: it becomes current.
      this.updateEngines(hostChanged ? LOCAL_ENGINE_ID : undefined);
      if (hostChanged) void this.workspaceState.update(CURRENT_ENGINE_KEY, LOCAL_ENGINE_ID);
    }
    this._onDidChangeSettings.fire(next);
    return enginesChanged;
  }
}
