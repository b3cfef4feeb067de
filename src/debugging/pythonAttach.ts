/**
 * Attach Python Debugger on a running container: the container's Python processes started with
 * `python3 -m debugpy --listen …` (from `top`), the chosen one's port forwarded through the engine, and VS Code's
 * Python debugger (`debugpy`, from ms-python.debugpy) attached to 127.0.0.1 with a path mapping. Without that
 * extension it refuses before it forwards anything (pythonDebugger.ts).
 */
import * as vscode from 'vscode';
import { EngineError, findDebugpyServers, waitForListening, type DebugpyProcess } from '../engine';
import { withCancellableProgress } from '../workbench/feedback';
import { isAutomationCall, resolveRunningContainer, splitArgs } from '../workbench/targets';
import { mappedRoots } from './attach';
import type { AttachDeps } from './deps';
import { debugpyAttachConfiguration, PYTHON_DEBUG_TYPE, requirePythonDebugger, type DebugpyAttachSummary } from './pythonDebugger';

const ACTIVITY = 'Attaching the Python debugger';

/** What automation may pass after the container. */
interface PythonAttachOptions {
  /** The python process (a PID as `top` shows it); without it, the only one, or a pick. */
  readonly pid?: number;
  readonly remoteRoot?: string;
  readonly localRoot?: string;
}

async function chooseProcess(found: readonly DebugpyProcess[], pid: number | undefined, name: string): Promise<DebugpyProcess | undefined> {
  if (pid !== undefined) {
    const chosen = found.find((each) => each.pid === pid);
    if (!chosen) throw new EngineError('not-found', `No Python process ${pid} listens with debugpy in container ${name}`, { hint: 'Choose one of its debugpy processes' });
    return chosen;
  }
  if (found.length === 1) return found[0];
  const picked = await vscode.window.showQuickPick(
    found.map((each) => ({ label: each.command, description: vscode.l10n.t('PID {0}, debugpy on port {1}', each.pid, each.port), each })),
    { placeHolder: vscode.l10n.t('Python process to debug') },
  );
  return picked?.each;
}

export async function attachPythonDebugger(deps: AttachDeps, args: unknown[]): Promise<DebugpyAttachSummary | undefined> {
  const automation = isAutomationCall(args[0]);
  if (!requirePythonDebugger(deps, ACTIVITY, automation)) return undefined;
  const ref = await resolveRunningContainer(deps, args, vscode.l10n.t('Running container with the Python app to debug'));
  if (!ref) return undefined;
  const options = splitArgs(args).options as PythonAttachOptions;
  const client = ref.session.client;
  const found = await withCancellableProgress(vscode.l10n.t('Looking for debugpy in {0}', ref.name), (signal) => findDebugpyServers(client, ref.id, signal));
  const chosen = await chooseProcess(found, options.pid, ref.name);
  if (!chosen) return undefined;
  const roots = await mappedRoots(client, ref.id, options, automation);
  if (!roots) return undefined;
  const { folder, localRoot, remoteRoot } = roots;

  const active = await withCancellableProgress(vscode.l10n.t('Forwarding the debugpy port {0} of {1}', chosen.port, ref.name), async (signal) => {
    await waitForListening(client, ref.id, chosen.port, { signal });
    return deps.forwards.start(ref.session.id, client, ref.id, { localPort: 0, containerPort: chosen.port }, signal);
  });
  const token = deps.debugForwards.own(active);
  const configuration = debugpyAttachConfiguration(vscode.l10n.t('Berth: {0}', ref.name), active.forward.localPort, token, localRoot, remoteRoot);
  const started = await vscode.debug.startDebugging(folder, configuration);
  if (!started) {
    await deps.debugForwards.abandon(token);
    throw new EngineError('server', `VS Code did not start the Python debugger for ${ref.name}`, {
      hint: `Check that VS Code's Python Debugger (${PYTHON_DEBUG_TYPE}) is enabled, then attach again`,
    });
  }
  deps.log.info(`Attached the Python debugger to process ${chosen.pid} of ${ref.name} through ${active.forward.address} -> ${chosen.port}`);
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Debugging process {0} of {1} through {2}. Stopping the debug session stops the forward.', chosen.pid, ref.name, active.forward.address),
  );
  return { container: ref.name, pid: chosen.pid, containerPort: chosen.port, localPort: active.forward.localPort, remoteRoot, localRoot, token };
}
