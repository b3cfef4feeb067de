// Debug sessions in the integration suites: the top sessions Berth started through a forward, the 'stopped' events
// of every debug adapter, and a detach that keeps the debuggee. Sessions are ended with a disconnect that keeps the
// debuggee, never vscode.debug.stopDebugging: should Berth's termination guard fail, the JavaScript debugger would
// kill the host's process tree of the app's container PID.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { EngineClient } from '../../../src/engine';
import { ensureNodeImage } from '../../support/nodeImage';

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

/** The app the debugging suites debug: a timer whose callback has a local variable. */
export const DEBUG_APP = ['let counter = 0;', 'setInterval(() => {', '  counter += 1;', '  const message = `tick ${counter}`;', '  if (message === "") console.log(message);', '}, 100);', ''].join('\n');
/** The line (0-based) of `const message`: the breakpoint's, where `counter` is at least 1. */
export const DEBUG_APP_BREAK_LINE = 3;

export interface DebugApp {
  /** The Node.js test image. */
  image: string;
  /** A temporary folder holding app.js (the local root). */
  folder: string;
  readonly attached: AttachedSessions;
}

/**
 * A suite's hooks for debugging DEBUG_APP: the Node.js test image and a temporary folder with app.js before it; its
 * breakpoints, the sessions Berth attached and the folder gone after it.
 */
export function useDebugApp(client: EngineClient, folderPrefix: string): DebugApp {
  const app: DebugApp = { image: '', folder: '', attached: new AttachedSessions() };
  before(async () => {
    app.image = await ensureNodeImage(client);
    app.folder = await mkdtemp(join(tmpdir(), folderPrefix));
    await writeFile(join(app.folder, 'app.js'), DEBUG_APP);
  });
  after(async () => {
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    await app.attached.detachAll();
    app.attached.dispose();
    if (app.folder !== '') await rm(app.folder, { recursive: true, force: true });
  });
  return app;
}
