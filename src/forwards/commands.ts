/**
 * Forward Port… on a running container (its row's menu, or the palette with a pick), and Open in Browser, Copy
 * Address and Stop on a forward's row (or a pick of the forwards from the palette). The port is asked with the
 * container's exposed ports offered and each keystroke checked by the engine client's own parser.
 */
import * as vscode from 'vscode';
import { parsePortForwardSpec, portForwardSpecProblem, type PortForwardSpec } from '../engine';
import { command, type CommandEntry } from '../workbench/commandTable';
import { withCancellableProgress } from '../workbench/feedback';
import { isAutomationCall, resolveRunningContainer, splitArgs } from '../workbench/targets';
import { fieldsQuestion } from '../workbench/callOrigin';
import { summaryOf, type ActiveForward, type ForwardSummary } from './active';
import type { ForwardCommandDeps } from './deps';
import { isForwardRow } from './rows';

/** `{ port: '9000:80' | 80 }` from automation, read as the prompt reads it. */
function givenSpec(args: unknown[]): PortForwardSpec | undefined {
  const port = (splitArgs(args).options as { port?: unknown }).port;
  if (typeof port === 'number') return parsePortForwardSpec(String(port));
  return typeof port === 'string' ? parsePortForwardSpec(port) : undefined;
}

/** The container's exposed TCP ports (`80/tcp` → 80), for the prompt to offer. */
function exposedPorts(exposed: unknown): number[] {
  if (typeof exposed !== 'object' || exposed === null) return [];
  return Object.keys(exposed)
    .filter((key) => key.endsWith('/tcp'))
    .map((key) => Number(key.slice(0, -'/tcp'.length)))
    .filter((port) => Number.isInteger(port) && port > 0)
    .sort((a, b) => a - b);
}

async function askSpec(name: string, exposed: readonly number[]): Promise<PortForwardSpec | undefined> {
  const offered = exposed.length > 0 ? vscode.l10n.t('Exposed by the image: {0}.', exposed.join(', ')) : vscode.l10n.t('The image exposes no port.');
  const answer = await vscode.window.showInputBox({
    title: vscode.l10n.t('Forward a port of {0}', name),
    prompt: vscode.l10n.t('{0} PORT forwards the same local port; LOCAL:PORT another; :PORT a free one.', offered),
    placeHolder: '8080, 9000:8080, :8080',
    value: exposed[0] !== undefined ? String(exposed[0]) : '',
    validateInput: (text) => portForwardSpecProblem(text),
  });
  return answer === undefined ? undefined : parsePortForwardSpec(answer);
}

async function forwardPort(deps: ForwardCommandDeps, args: unknown[]): Promise<ForwardSummary | undefined> {
  const ref = await resolveRunningContainer(deps, args, vscode.l10n.t('Running container whose port to forward'));
  if (!ref) return undefined;
  const client = ref.session.client;
  let spec = givenSpec(args);
  if (spec === undefined) {
    const inspect = await client.containers.inspect(ref.id);
    spec = await askSpec(inspect.Name.replace(/^\//, ''), exposedPorts(inspect.Config.ExposedPorts));
    if (spec === undefined) return undefined;
  }
  const chosen = spec;
  const active = await withCancellableProgress(vscode.l10n.t('Forwarding port {0} of {1}', chosen.containerPort, ref.name), (signal) =>
    deps.forwards.start(ref.session.id, client, ref.id, chosen, signal),
  );
  const summary = summaryOf(active);
  deps.log.info(`Forwarding ${summary.address} -> ${summary.containerPort} of ${summary.container}${summary.throughHelper ? ' through a helper container' : ''}`);
  const open = vscode.l10n.t('Open in Browser');
  const copy = vscode.l10n.t('Copy Address');
  void vscode.window.showInformationMessage(vscode.l10n.t('Forwarding {0} to {1}', summary.address, `${summary.container}:${summary.containerPort}`), open, copy).then((choice) => {
    if (choice === open) void openInBrowser(active);
    else if (choice === copy) void copyAddress(active);
  });
  return summary;
}

/** The forward a row names, or one picked from every forward of this window. */
async function chooseForward(deps: ForwardCommandDeps, args: unknown[], placeHolder: string): Promise<ActiveForward | undefined> {
  const [first] = args;
  if (isForwardRow(first) && first.active !== undefined) return first.active;
  const all = deps.forwards.all();
  if (all.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No port is forwarded. Forward one with Forward Port… on a running container.'));
    return undefined;
  }
  if (all.length === 1) return all[0];
  const picked = await vscode.window.showQuickPick(
    all.map((active) => ({ label: `${active.forward.address} → ${active.forward.containerPort}`, description: active.containerName, active })),
    { placeHolder },
  );
  return picked?.active;
}

function urlOf(active: ActiveForward): vscode.Uri {
  return vscode.Uri.parse(`http://${active.forward.address}`, true);
}

async function openInBrowser(active: ActiveForward): Promise<ForwardSummary & { opened: boolean }> {
  const external = await vscode.env.asExternalUri(urlOf(active));
  return { ...summaryOf(active), opened: await vscode.env.openExternal(external) };
}

async function copyAddress(active: ActiveForward): Promise<ForwardSummary & { copied: string }> {
  const local = urlOf(active);
  const external = await vscode.env.asExternalUri(local);
  // The same URI back means nothing was forwarded by VS Code: keep the address as written (no added `/`).
  const copied = external.toString() === local.toString() ? `http://${active.forward.address}` : external.toString(true);
  await vscode.env.clipboard.writeText(copied);
  return { ...summaryOf(active), copied };
}

export const forwardCommands: ReadonlyArray<CommandEntry<ForwardCommandDeps>> = [
  command('berth.forwardPort', 'Forwarding the port', (deps) => (...args: unknown[]) => forwardPort(deps, args), {
    rejectsWhen: isAutomationCall,
    // It listens on this machine's loopback: an outside caller's container and port are shown first.
    asksOutsideCallers: (target, options) =>
      target === undefined ? undefined : fieldsQuestion(vscode.l10n.t('Forward a port of this container to this machine?'), vscode.l10n.t('Forward'), { container: target, ...(typeof options === 'object' ? options : {}) }),
  }),
  command('berth.forward.openInBrowser', 'Opening the forward in the browser', (deps) => async (...args: unknown[]) => {
    const active = await chooseForward(deps, args, vscode.l10n.t('Forward to open in the browser'));
    return active ? openInBrowser(active) : undefined;
  }),
  command('berth.forward.copyAddress', 'Copying the forward address', (deps) => async (...args: unknown[]) => {
    const active = await chooseForward(deps, args, vscode.l10n.t('Forward whose address to copy'));
    return active ? copyAddress(active) : undefined;
  }),
  command('berth.forward.stop', 'Stopping the forward', (deps) => async (...args: unknown[]) => {
    const active = await chooseForward(deps, args, vscode.l10n.t('Forward to stop'));
    if (!active) return undefined;
    await deps.forwards.stop(active);
    void vscode.window.showInformationMessage(vscode.l10n.t('Stopped forwarding {0} to {1}', active.forward.address, `${active.containerName}:${active.forward.containerPort}`));
    return summaryOf(active);
  }),
];
