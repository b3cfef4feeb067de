// Debug sessions in the integration suites: the top sessions Berth started through a forward, the 'stopped' events
// of every debug adapter, and a detach that keeps the debuggee. Sessions are ended with a disconnect that keeps the
// debuggee, never vscode.debug.stopDebugging: should Berth's termination guard fail, the JavaScript debugger would
// kill the host's process tree of the app's container PID.
import { connect } from 'node:net';
import * as vscode from 'vscode';

/** Whether something accepts connections on 127.0.0.1:PORT. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** The top sessions Berth's Attach started (their configuration carries its forward token). */
export class AttachedSessions implements vscode.Disposable {
  readonly roots: vscode.DebugSession[] = [];
  /** The JavaScript debugger's sessions for the programs under the roots (it has opened their inspectors). */
  private readonly targets: vscode.DebugSession[] = [];
  private readonly registration = vscode.debug.onDidStartDebugSession((session) => {
    if (session.parentSession === undefined && typeof (session.configuration as { berthForward?: unknown }).berthForward === 'string') this.roots.push(session);
    if (session.parentSession !== undefined) this.targets.push(session);
  });

  of(token: string): vscode.DebugSession | undefined {
    return this.roots.find((session) => (session.configuration as { berthForward?: unknown }).berthForward === token);
  }

  /** The sessions for programs under ROOT. */
  targetsOf(root: vscode.DebugSession): vscode.DebugSession[] {
    return this.targets.filter((session) => {
      for (let each = session.parentSession; each !== undefined; each = each.parentSession) if (each.id === root.id) return true;
      return false;
    });
  }

  /** Detaches every session (the app keeps running). */
  async detachAll(): Promise<void> {
    for (const session of this.roots.splice(0)) await detach(session);
  }

  dispose(): void {
    this.registration.dispose();
  }
}

/** How long a detach may take before the suite goes on: a debugger that never answers must not hold up an after hook. */
const DETACH_ANSWER_MS = 15_000;

export async function detach(session: vscode.DebugSession): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const unanswered = new Promise<void>((resolve) => (timer = setTimeout(resolve, DETACH_ANSWER_MS)));
  await Promise.race([Promise.resolve(session.customRequest('disconnect', { terminateDebuggee: false })).catch(() => undefined), unanswered]);
  clearTimeout(timer);
}

/** The 'stopped' events of every debug adapter in this window, with the session they came from. */
export class StoppedEvents implements vscode.Disposable {
  readonly seen: Array<{ session: vscode.DebugSession; threadId: number }> = [];
  private readonly registration = vscode.debug.registerDebugAdapterTrackerFactory('*', {
    createDebugAdapterTracker: (session) => ({
      onDidSendMessage: (message: { type?: string; event?: string; body?: { threadId?: number } }) => {
        if (message.type === 'event' && message.event === 'stopped' && typeof message.body?.threadId === 'number') {
          this.seen.push({ session, threadId: message.body.threadId });
        }
      },
    }),
  });

  dispose(): void {
    this.registration.dispose();
  }
}
