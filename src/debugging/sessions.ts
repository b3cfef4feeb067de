/**
 * The debug sessions Berth started through a forward of its own. Each launch configuration carries a token that
 * names its forward; the top session that VS Code starts for it owns the forward. Ending that session stops the
 * forward (the window's Forwarded row goes), and the forward ending first (the container stopped) detaches the
 * session. Every request to these sessions and their children passes the termination guard (terminationGuard.ts).
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import { errorMessage } from '../common/errors';
import type { ActiveForward, ActiveForwards } from '../forwards';
import type { LogDeps } from '../workbench/deps';
import { keepDebuggeeRunning, type ProtocolMessage } from './terminationGuard';

/** The configuration field that ties a debug session to the forward Berth made for it. */
export const FORWARD_TOKEN_FIELD = 'berthForward';

interface Owned {
  readonly forward: ActiveForward;
  /** Also run when the session ends (the container a berth-node configuration started is removed). */
  readonly cleanup: (() => Promise<void>) | undefined;
  session: vscode.DebugSession | undefined;
  /** Whether the JavaScript debugger has a session for the program itself (it opened the inspector's websocket). */
  targetAttached: boolean;
  /** Told once the target is attached, or the session ended first. */
  readonly waiters: Set<(outcome: TargetOutcome) => void>;
}

/** How the wait for the debugger to reach the program ended. */
export type TargetOutcome = 'attached' | 'ended' | 'timed-out';

export class DebugForwards extends Disposable {
  private readonly byToken = new Map<string, Owned>();
  /** Every token handed out in this window: a session's children start after its forward may have gone. */
  private readonly issued = new Set<string>();

  constructor(
    private readonly deps: LogDeps & { readonly forwards: Pick<ActiveForwards, 'stop'> },
  ) {
    super();
    this._register(vscode.debug.onDidStartDebugSession((session) => this.started(session)));
    this._register(vscode.debug.onDidTerminateDebugSession((session) => void this.terminated(session)));
    this._register(
      vscode.debug.registerDebugAdapterTrackerFactory('*', {
        createDebugAdapterTracker: (session) => (this.isBerths(session) ? { onWillReceiveMessage: (message: ProtocolMessage) => this.guard(session, message) } : undefined),
      }),
    );
  }

  /** Whether SESSION or one of its parents was started by Berth through a forward. */
  private isBerths(session: vscode.DebugSession | undefined): boolean {
    for (let each = session; each !== undefined; each = each.parentSession) {
      const token = (each.configuration as Record<string, unknown>)[FORWARD_TOKEN_FIELD];
      if (typeof token === 'string' && this.issued.has(token)) return true;
    }
    return false;
  }

  private guard(session: vscode.DebugSession, message: ProtocolMessage): void {
    if (keepDebuggeeRunning(message)) this.deps.log.info(`Debug session ${session.name}: detaching instead of terminating, so the app in the container keeps running`);
  }

  /** A token to put in the configuration under FORWARD_TOKEN_FIELD; the forward is stopped when its session ends. */
  own(forward: ActiveForward, cleanup?: () => Promise<void>): string {
    const token = randomUUID();
    this.issued.add(token);
    const owned: Owned = { forward, cleanup, session: undefined, targetAttached: false, waiters: new Set() };
    this.byToken.set(token, owned);
    forward.forward.onEnd(() => {
      // A disconnect that keeps the debuggee (never stopDebugging: see terminationGuard.ts).
      owned.session?.customRequest('disconnect', { terminateDebuggee: false }).then(undefined, () => undefined);
    });
    return token;
  }

  /** The session never started (VS Code refused the configuration): the forward goes now. */
  async abandon(token: string): Promise<void> {
    const owned = this.byToken.get(token);
    if (owned) await this.release(token, owned);
  }

  /**
   * Resolves once the JavaScript debugger under TOKEN's session has a session of its own for the program: its
   * attach request answers before it has opened the inspector's websocket, and a detach in that gap leaves the
   * session hanging. 'ended' when the session ended (or was never started) first; 'timed-out' after TIMEOUTMS.
   */
  whenTargetAttached(token: string, timeoutMs: number): Promise<TargetOutcome> {
    const owned = this.byToken.get(token);
    if (!owned) return Promise.resolve('ended');
    if (owned.targetAttached) return Promise.resolve('attached');
    return new Promise((resolve) => {
      const settle = (outcome: TargetOutcome): void => {
        clearTimeout(timer);
        owned.waiters.delete(settle);
        resolve(outcome);
      };
      const timer = setTimeout(() => settle('timed-out'), timeoutMs);
      owned.waiters.add(settle);
    });
  }

  /** The top session started for TOKEN, while its forward is owned. */
  sessionOf(token: string): vscode.DebugSession | undefined {
    return this.byToken.get(token)?.session;
  }

  /** Whether the session a token names is still being debugged through its forward. */
  has(token: string): boolean {
    return this.byToken.has(token);
  }

  private started(session: vscode.DebugSession): void {
    if (session.parentSession !== undefined) {
      const owned = [...this.byToken.values()].find((each) => each.session !== undefined && isWithin(session, each.session));
      if (owned && !owned.targetAttached) {
        owned.targetAttached = true;
        for (const waiter of [...owned.waiters]) waiter('attached');
      }
      return;
    }
    const token = (session.configuration as Record<string, unknown>)[FORWARD_TOKEN_FIELD];
    const owned = typeof token === 'string' ? this.byToken.get(token) : undefined;
    if (owned && owned.session === undefined) owned.session = session;
  }

  private async terminated(session: vscode.DebugSession): Promise<void> {
    for (const [token, owned] of this.byToken) {
      if (owned.session?.id === session.id) await this.release(token, owned);
    }
  }

  private async release(token: string, owned: Owned): Promise<void> {
    this.byToken.delete(token);
    for (const waiter of [...owned.waiters]) waiter('ended');
    try {
      await this.deps.forwards.stop(owned.forward);
      await owned.cleanup?.();
    } catch (error) {
      this.deps.log.warn(`Ending the debug session of ${owned.forward.containerName}: ${errorMessage(error)}`);
    }
    this.deps.log.info(`Debug session of ${owned.forward.containerName} ended: stopped forwarding ${owned.forward.forward.address} -> ${owned.forward.forward.containerPort}`);
  }

  override dispose(): void {
    for (const [token, owned] of this.byToken) void this.release(token, owned);
    super.dispose();
  }
}

/** Whether SESSION is ROOT's descendant. */
function isWithin(session: vscode.DebugSession, root: vscode.DebugSession): boolean {
  for (let each = session.parentSession; each !== undefined; each = each.parentSession) if (each.id === root.id) return true;
  return false;
}
