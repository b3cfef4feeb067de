/**
 * The sessions of every engine Berth shows, and which one is current (the one palette commands and the status
 * bar use). Updating the engine list keeps the sessions of engines that did not change, so their models keep
 * following without a re-list; new engines get a session, gone ones are disposed. No `vscode` here.
 */
import { Disposable, toDisposable } from '../common/lifecycle';
import { Emitter } from '../common/emitter';
import { sameFields } from '../common/objects';
import { endpointKey, type EngineDescriptor } from './engineList';
import type { LogLevel } from './engineModel';
import { EngineSession } from './session';
import type { SavedListingStore } from './savedListing';

export interface EngineSessionsOptions {
  readonly log: (level: LogLevel, message: string) => void;
  /** Makes a session for an engine; tests pass in-memory sources through it. */
  readonly create?: ((descriptor: EngineDescriptor) => EngineSession) | undefined;
  /** Where an engine's last listing is kept (savedListing.ts); none when undefined. */
  readonly savedListings?: ((descriptor: EngineDescriptor) => SavedListingStore | undefined) | undefined;
}

export class EngineSessions extends Disposable {
  private sessions: EngineSession[] = [];
  /** The engine the user chose; when it is not in the list, the first engine is current. */
  private preferredId: string | undefined;
  private _current: EngineSession | undefined;
  private started = false;
  /**
   * The Berth views shown right now. Remote (ssh) engines wait for one of them, or for a command that needs them:
   * opening a Dockerfile activates Berth for its language features, and that must not dial out to other machines.
   */
  private readonly shownViews = new Set<string>();
  private readonly create: (descriptor: EngineDescriptor) => EngineSession;
  private readonly _onDidChangeEngines = this._register(new Emitter<void>());
  private readonly _onDidChangeCurrent = this._register(new Emitter<EngineSession>());
  /** Engines were added, removed or replaced. */
  readonly onDidChangeEngines = this._onDidChangeEngines.event;
  /** Another session became current (a switch, or the current engine was replaced). */
  readonly onDidChangeCurrent = this._onDidChangeCurrent.event;

  constructor(options: EngineSessionsOptions) {
    super();
    this.create =
      options.create ??
      ((descriptor) => {
        const store = options.savedListings?.(descriptor);
        // A saved listing is shown for the engines a window starts with: that is when the views wait for a first
        // listing. An engine added later is saved for the next window, and shown from the engine itself now.
        return new EngineSession({ descriptor, log: options.log, savedListing: store && { store, show: !this.started } });
      });
    // The sessions are a list in display order (not a store): each one is disposed when it leaves the list, the rest here.
    this._register(toDisposable(() => {
      for (const session of this.sessions.splice(0)) session.dispose();
    }));
  }

  get all(): readonly EngineSession[] {
    return this.sessions;
  }

  /** More than one engine: the views show one root node per engine. */
  get isMulti(): boolean {
    return this.sessions.length > 1;
  }

  get current(): EngineSession {
    if (!this._current) throw new Error('No engine is configured');
    return this._current;
  }

  /** By id, by the id of a source merged into it, or by name (case-insensitive). */
  find(key: string): EngineSession | undefined {
    return (
      this.sessions.find((session) => session.id === key) ??
      this.sessions.find((session) => session.descriptor.aliases.includes(key)) ??
      this.sessions.find((session) => session.name.toLowerCase() === key.toLowerCase())
    );
  }

  /** Makes an engine current; returns it, or undefined when no engine has that id or name. */
  setCurrent(key: string): EngineSession | undefined {
    const session = this.find(key);
    if (!session) return undefined;
    this.preferredId = session.id;
    this.selectCurrent();
    return session;
  }

  /** Sets the engine list (in display order). Unchanged engines keep their session. */
  update(descriptors: readonly EngineDescriptor[], options: { preferred?: string | undefined } = {}): void {
    if (this.isDisposed) return;
    if (options.preferred !== undefined) this.preferredId = options.preferred;
    const previous = new Map(this.sessions.map((session) => [session.id, session]));
    const next: EngineSession[] = [];
    const created: EngineSession[] = [];
    for (const descriptor of descriptors) {
      const existing = previous.get(descriptor.id);
      if (existing && sameEngine(existing.descriptor, descriptor)) {
        previous.delete(descriptor.id);
        next.push(existing);
        continue;
      }
      const session = this.create(descriptor);
      created.push(session);
      next.push(session);
    }
    const changed = created.length > 0 || previous.size > 0 || next.some((session, index) => this.sessions[index] !== session);
    this.sessions = next;
    this.selectCurrent();
    for (const gone of previous.values()) gone.dispose();
    if (this.started) for (const session of created) this.startIfWanted(session);
    if (changed) this._onDidChangeEngines.fire();
  }

  /** Starts the connect/follow loop of every local engine's model (after activation has returned). */
  start(): void {
    this.started = true;
    for (const session of this.sessions) this.startIfWanted(session);
  }

  /** A Berth view was shown or hidden. While one is shown, remote engines start following (and then keep on). */
  setViewShown(viewId: string, shown: boolean): void {
    if (!shown) {
      this.shownViews.delete(viewId);
      return;
    }
    this.shownViews.add(viewId);
    if (this.started) for (const session of this.sessions) session.model.start();
  }

  /** A command needs this engine: its model starts following even if it is remote and no view was shown. */
  wake(session: EngineSession): void {
    if (this.started) session.model.start();
  }

  private startIfWanted(session: EngineSession): void {
    if (this.shownViews.size > 0 || !isRemote(session)) session.model.start();
  }

  private selectCurrent(): void {
    const preferred = this.preferredId === undefined ? undefined : this.find(this.preferredId);
    const current = preferred ?? this.sessions[0];
    if (current === this._current) return;
    this._current = current;
    if (current) this._onDidChangeCurrent.fire(current);
  }
}

/** Engines reached through another process (ssh) rather than a socket or a TCP connection of our own. */
export function isRemote(session: EngineSession): boolean {
  return session.descriptor.endpoint?.kind === 'ssh';
}

/** Whether a session made for `a` serves `b` as it is: same name, endpoint, TLS files, error and aliases. */
export function sameEngine(a: EngineDescriptor, b: EngineDescriptor): boolean {
  return (
    sameFields(a, b, ['id', 'name', 'display', 'sourceText']) &&
    (a.endpoint ? endpointKey(a.endpoint) : '') === (b.endpoint ? endpointKey(b.endpoint) : '') &&
    JSON.stringify(a.endpoint?.tls ?? null) === JSON.stringify(b.endpoint?.tls ?? null) &&
    a.configError?.message === b.configError?.message &&
    a.aliases.join('\n') === b.aliases.join('\n')
  );
}
