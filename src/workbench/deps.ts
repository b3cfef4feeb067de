/**
 * What a feature may ask of the extension's core (the log, the settings and the engine sessions). A feature's own
 * `…Deps` interface picks from these, so a view or command is built and tested without the whole extension.
 */
import type * as vscode from 'vscode';
import type { BerthSettings } from '../config';
import type { EngineSessions } from '../model/engineSessions';
import type { EngineSession } from '../model/session';

export interface LogDeps {
  readonly log: vscode.LogOutputChannel;
}

export interface SettingsDeps {
  readonly settings: BerthSettings;
  readonly onDidChangeSettings: vscode.Event<BerthSettings>;
}

/** Every engine's session; `session` is the current one, which palette commands and the status bar use. */
export interface SessionsDeps {
  readonly engines: EngineSessions;
  readonly session: EngineSession;
  /** The session of an engine by id, alias or name; the current one when `engine` is undefined. Throws when it is gone. */
  sessionFor(engine: string | undefined): EngineSession;
  /** The engine a command target belongs to: a tree node's, `{ engine }`'s, else the current one. */
  sessionOfTarget(target: unknown): EngineSession;
  /** Fired after another session became current (a switch, or the current engine's endpoint changed). */
  readonly onDidChangeSession: vscode.Event<EngineSession>;
  /** Fired after engines were added, removed or replaced. */
  readonly onDidChangeEngines: vscode.Event<void>;
}

/** The whole core, as extension.ts hands it to the features. */
export interface CoreDeps extends LogDeps, SettingsDeps, SessionsDeps {}

/**
 * A feature's deps: `base` (the core) plus the feature's own parts. The core is not copied: its getters (the current
 * session, the settings) stay live and its methods keep it as `this`, so an extended deps object acts on the core.
 */
export function extendDeps<B extends object, E extends object>(base: B, extra: E): B & E {
  return new Proxy(extra, {
    get(target, key) {
      if (Reflect.has(target, key)) return Reflect.get(target, key) as unknown;
      const value = Reflect.get(base, key, base) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(base) : value;
    },
    has: (target, key) => Reflect.has(target, key) || Reflect.has(base, key),
  }) as B & E;
}
