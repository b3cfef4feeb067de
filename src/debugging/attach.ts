/**
 * Attach Node.js Debugger on a running container: the container's node processes (from `top`), the one started with
 * `--inspect` (or, once the user agrees, one sent SIGUSR1 to open its inspector), its inspector port forwarded
 * through the engine, and VS Code's JavaScript debugger attached to 127.0.0.1 with localRoot/remoteRoot mapping.
 */
import * as vscode from 'vscode';
import { EngineError, findNodeProcesses, signalInspector, signalledInspectorPort, type EngineClient, type NodeProcess } from '../engine';
import { confirm, withCancellableProgress } from '../workbench/feedback';
import { isAutomationCall, resolveRunningContainer, splitArgs, type ContainerRef } from '../workbench/targets';
import type { AttachDeps } from './deps';
import { forwardInspector, inspectorAttachConfiguration } from './inspectorForward';

/** What automation may pass after the container. */
export interface AttachOptions {
  /** The node process (a PID as `top` shows it); without it, the one with the inspector, or a pick. */
  readonly pid?: number;
  readonly remoteRoot?: string;
  readonly localRoot?: string;
  /** Answers the SIGUSR1 question (dropped when the call comes from outside Berth's UI). */
  readonly confirmed?: boolean;
}

export interface AttachSummary {
  readonly container: string;
  readonly pid: number;
  readonly containerPort: number;
  readonly localPort: number;
  readonly signalled: boolean;
  readonly remoteRoot: string | undefined;
  readonly localRoot: string | undefined;
  /** The configuration's FORWARD_TOKEN_FIELD value. */
  readonly token: string;
}

async function chooseProcess(found: readonly NodeProcess[], pid: number | undefined, name: string): Promise<NodeProcess | undefined> {
  if (pid !== undefined) {
    const chosen = found.find((each) => each.pid === pid);
    if (!chosen) throw new EngineError('not-found', `No Node.js process ${pid} runs in container ${name}`, { hint: 'Choose one of its node processes' });
    return chosen;
  }
  const inspecting = found.filter((each) => each.inspectorPort !== undefined);
  const candidates = inspecting.length > 0 ? inspecting : found;
  if (candidates.length === 1) return candidates[0];
  const picked = await vscode.window.showQuickPick(
    candidates.map((each) => ({
      label: each.command,
      description: each.inspectorPort !== undefined ? vscode.l10n.t('PID {0}, inspector on port {1}', each.pid, each.inspectorPort) : vscode.l10n.t('PID {0}', each.pid),
      each,
    })),
    { placeHolder: inspecting.length > 0 ? vscode.l10n.t('Node.js process to debug') : vscode.l10n.t('Node.js process to open the inspector of (with SIGUSR1)') },
  );
  return picked?.each;
}

async function askRemoteRoot(given: string | undefined, workingDir: string, automation: boolean): Promise<string | undefined> {
  if (given !== undefined) return given;
  if (automation) return workingDir;
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Folder of the app in the container'),
    prompt: vscode.l10n.t("The container's path that matches the workspace folder (remoteRoot); its working directory is offered."),
    value: workingDir,
    validateInput: (text) => (text.startsWith('/') ? undefined : vscode.l10n.t('Give an absolute path in the container, starting with /')),
  });
}

export interface MappedRoots {
  readonly folder: vscode.WorkspaceFolder | undefined;
  readonly localRoot: string | undefined;
  readonly remoteRoot: string | undefined;
}

/**
 * The workspace folder, and the container folder it maps to for breakpoints (asked, offering the container's working
 * directory); undefined once the user cancels that question.
 */
export async function mappedRoots(
  client: EngineClient,
  id: string,
  given: { readonly localRoot?: string; readonly remoteRoot?: string },
  automation: boolean,
): Promise<MappedRoots | undefined> {
  const inspect = await client.containers.inspect(id);
  const folder = vscode.workspace.workspaceFolders?.[0];
  const localRoot = given.localRoot ?? folder?.uri.fsPath;
  const remoteRoot = localRoot === undefined ? undefined : await askRemoteRoot(given.remoteRoot, inspect.Config.WorkingDir || '/', automation);
  if (localRoot !== undefined && remoteRoot === undefined) return undefined;
  return { folder, localRoot, remoteRoot };
}

async function signalAfterConsent(client: EngineClient, id: string, name: string, chosen: NodeProcess, confirmed: boolean | undefined): Promise<boolean> {
  const port = signalledInspectorPort(chosen);
  const agreed = await confirm(
    vscode.l10n.t('No Node.js process in {0} runs with --inspect. Send SIGUSR1 to process {1} to open its inspector?', name, chosen.pid),
    vscode.l10n.t('Send SIGUSR1'),
    confirmed,
    vscode.l10n.t(
      '{0}\n\nNode.js then listens for a debugger on 127.0.0.1:{1} inside the container until the process ends; the app keeps running. Berth forwards that port to this machine without publishing it.',
      chosen.command,
      port,
    ),
  );
  if (!agreed) return false;
  await signalInspector(client, id, chosen);
  return true;
}

/** Three times the JavaScript debugger's own attach timeout (10 s): room for its last try, and for that try's error to end the session. */
const TARGET_ATTACH_TIMEOUT_MS = 30_000;

/**
 * Waits until the debugger has reached the program through the forward, so that what the user is told (and what
 * the command returns) is an attached debugger; a session that never gets there is stopped with a clear error.
 */
async function reachedProgram(deps: AttachDeps, token: string, name: string, address: string): Promise<void> {
  const outcome = await deps.debugForwards.whenTargetAttached(token, TARGET_ATTACH_TIMEOUT_MS);
  if (outcome === 'attached') return;
  const root = deps.debugForwards.sessionOf(token);
  // Passes the termination guard like every request to this session: it detaches, the app keeps running.
  if (root) void Promise.resolve(vscode.debug.stopDebugging(root)).catch(() => undefined);
  await deps.debugForwards.abandon(token);
  throw new EngineError('unreachable', `The JavaScript debugger did not reach the Node.js process in ${name} through ${address}${outcome === 'ended' ? ': its session ended first' : ''}`, {
    hint: 'Check the JavaScript Debug output for its own words, then attach again',
  });
}

export async function attachNodeDebugger(deps: AttachDeps, args: unknown[]): Promise<AttachSummary | undefined> {
  const ref = await resolveRunningContainer(deps, args, vscode.l10n.t('Running container with the Node.js app to debug'));
  if (!ref) return undefined;
  return attachToContainer(deps, ref, splitArgs(args).options, isAutomationCall(args[0]));
}

/** Attach on one running container: its node process, SIGUSR1 once agreed, the forward, and the debugger. */
export async function attachToContainer(deps: AttachDeps, ref: ContainerRef, options: AttachOptions, automation: boolean): Promise<AttachSummary | undefined> {
  const client = ref.session.client;
  const found = await withCancellableProgress(vscode.l10n.t('Looking for Node.js processes in {0}', ref.name), (signal) => findNodeProcesses(client, ref.id, signal));
  const chosen = await chooseProcess(found, options.pid, ref.name);
  if (!chosen) return undefined;
  let signalled = false;
  if (chosen.inspectorPort === undefined) {
    signalled = await signalAfterConsent(client, ref.id, ref.name, chosen, options.confirmed);
    if (!signalled) return undefined;
  }
  const roots = await mappedRoots(client, ref.id, options, automation);
  if (!roots) return undefined;
  const { folder, localRoot, remoteRoot } = roots;
  const containerPort = chosen.inspectorPort ?? signalledInspectorPort(chosen);

  const active = await withCancellableProgress(vscode.l10n.t('Forwarding the inspector port {0} of {1}', containerPort, ref.name), (signal) =>
    forwardInspector(deps, ref.session.id, client, ref.id, containerPort, signal),
  );
  const token = deps.debugForwards.own(active);
  const configuration = inspectorAttachConfiguration(vscode.l10n.t('Berth: {0}', ref.name), active, token, { localRoot, remoteRoot });
  const started = await vscode.debug.startDebugging(folder, configuration);
  if (!started) {
    await deps.debugForwards.abandon(token);
    throw new EngineError('server', `VS Code did not start the Node.js debugger for ${ref.name}`, {
      hint: "Check that VS Code's JavaScript Debugger is enabled, then attach again",
    });
  }
  await reachedProgram(deps, token, ref.name, active.forward.address);
  deps.log.info(`Attached the Node.js debugger to process ${chosen.pid} of ${ref.name} through ${active.forward.address} -> ${containerPort}${signalled ? ' (opened with SIGUSR1)' : ''}`);
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Debugging process {0} of {1} through {2}. Stopping the debug session stops the forward.', chosen.pid, ref.name, active.forward.address),
  );
  return { container: ref.name, pid: chosen.pid, containerPort, localPort: active.forward.localPort, signalled, remoteRoot, localRoot, token };
}
