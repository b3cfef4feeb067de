/**
 * VS Code's Python debugger (the ms-python.debugpy extension) speaks to debugpy; Berth only carries debugpy's port
 * to this machine and hands the `debugpy` attach configuration over. Without that extension (as in code-server,
 * whose marketplace may not offer it) Berth refuses before it starts or forwards anything, and offers to install
 * it. The Node.js path never asks for it.
 */
import * as vscode from 'vscode';
import { EngineError } from '../engine';
import { reportFailure, type FailureDeps } from '../workbench/feedback';
import { FORWARD_TOKEN_FIELD } from './sessions';

export const PYTHON_DEBUGGER_EXTENSION = 'ms-python.debugpy';
/** The debug type VS Code's Python Debugger (ms-python.debugpy) contributes. */
export const PYTHON_DEBUG_TYPE = 'debugpy';

export interface DebugpyAttachSummary {
  readonly container: string;
  readonly pid: number | undefined;
  readonly containerPort: number;
  readonly localPort: number;
  readonly remoteRoot: string | undefined;
  readonly localRoot: string | undefined;
  /** The configuration's FORWARD_TOKEN_FIELD value. */
  readonly token: string;
}

/** What VS Code's Python debugger attaches with: debugpy behind the forward on 127.0.0.1, and the path mapping. */
export function debugpyAttachConfiguration(name: string, localPort: number, token: string, localRoot: string | undefined, remoteRoot: string | undefined): vscode.DebugConfiguration {
  return {
    type: PYTHON_DEBUG_TYPE,
    request: 'attach',
    name,
    connect: { host: '127.0.0.1', port: localPort },
    ...(localRoot !== undefined && remoteRoot !== undefined ? { pathMappings: [{ localRoot, remoteRoot }] } : {}),
    [FORWARD_TOKEN_FIELD]: token,
  };
}

export function pythonDebuggerInstalled(): boolean {
  return vscode.extensions.getExtension(PYTHON_DEBUGGER_EXTENSION) !== undefined;
}

export function pythonDebuggerMissing(): EngineError {
  return new EngineError('not-found', `VS Code's Python Debugger extension (${PYTHON_DEBUGGER_EXTENSION}) is not installed, so Berth cannot attach to debugpy`, {
    hint: 'Install it (Install Python Debugger), then start debugging again. Nothing was started',
  });
}

/**
 * True when the Python debugger is there. Else false once the refusal is shown with Install Python Debugger and
 * Show Extension; a call from automation gets the refusal as its rejection instead, and nothing is shown.
 */
export function requirePythonDebugger(deps: FailureDeps, what: string, automation: boolean): boolean {
  if (pythonDebuggerInstalled()) return true;
  const refusal = pythonDebuggerMissing();
  deps.log.warn(`${what}: ${PYTHON_DEBUGGER_EXTENSION} is not installed${automation ? '' : '; offered to install it'}`);
  if (automation) throw refusal;
  const install = {
    title: vscode.l10n.t('Install Python Debugger'),
    run: async () => {
      await vscode.commands.executeCommand('workbench.extensions.installExtension', PYTHON_DEBUGGER_EXTENSION);
      deps.log.info(`Installed ${PYTHON_DEBUGGER_EXTENSION}; Python debugging in containers can start now`);
      void vscode.window.showInformationMessage(vscode.l10n.t('Installed the Python Debugger. Start debugging again.'));
    },
  };
  const show = { title: vscode.l10n.t('Show Extension'), run: () => vscode.commands.executeCommand('extension.open', PYTHON_DEBUGGER_EXTENSION) };
  void reportFailure(deps, vscode.l10n.t('{0} failed: {1}', what, refusal.message), refusal, [install, show]).catch((error: unknown) =>
    reportFailure(deps, vscode.l10n.t('Installing the Python Debugger failed: {0}', error instanceof Error ? error.message : String(error)), error),
  );
  return false;
}
