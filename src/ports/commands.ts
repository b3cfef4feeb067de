/**
 * Open in Browser and Copy Address: on a port row, on a container row that has ports (the `:ports` context suffix),
 * and from the palette (a pick of the containers with ports, then of the port when there are several). The address
 * goes through `vscode.env.asExternalUri`, so from a remote window it names a forwarded port the user's browser reaches.
 */
import * as vscode from 'vscode';
import { forEachBounded } from '../common/concurrency';
import { EngineError } from '../engine';
import { openablePorts, portAddress, portLabel, portsOfInspect, type PublishedPort } from '../model/ports';
import { isRunningState } from '../model/records';
import { command, type CommandEntry } from '../workbench/commandTable';
import { isAutomationCall, resolveContainers, splitArgs } from '../workbench/targets';
import type { PortCommandDeps } from './deps';
import type { PortFacts } from './facts';
import { portNote, portPickItems } from './portRows';
import { isPortRow } from './rows';

/** What both commands return (automation reads it): the container's address and the one handed to the browser or clipboard. */
export interface PortAddress {
  readonly container: string;
  readonly port: string;
  /** `http://localhost:8080` (or the host address the port is bound to). */
  readonly address: string;
  /** The same through `asExternalUri`: a forwarded address in a remote window. */
  readonly external: string;
}

type Purpose = 'open' | 'copy';

/** Why a container has nothing to open, in words that say what to do next (bad-input rows ports-none, ports-no-address). */
function nothingToOpen(name: string, ports: readonly PublishedPort[]): Error {
  if (ports.length === 0) {
    return new EngineError('bad-request', `${name} publishes no port`, { hint: 'Run the image again with a published port (Run Container\'s options, or berth run -p 8080:80)' });
  }
  const notes = ports.map((port) => `${portLabel(port)}: ${portNote(port) ?? 'no address'}`).join('; ');
  if (ports.every((port) => port.dropped === true)) {
    // The ports alone: each one's note would say "network none drops published ports" once more.
    return new EngineError('bad-request', `${name} is on network none, which drops published ports (${ports.map(portLabel).join(', ')})`, {
      hint: 'Run the image again on another network (Run Container\'s --network option, or the berth.run.network setting)',
    });
  }
  return new EngineError('bad-request', `${name} has no TCP port with a host address yet (${notes})`, {
    hint: 'Start the container for a random host port; a UDP port has no browser address',
  });
}

async function choosePort(deps: PortCommandDeps, args: unknown[], purpose: Purpose): Promise<{ name: string; port: PublishedPort } | undefined> {
  const [first] = args;
  let name: string;
  let ports: readonly PublishedPort[];
  if (isPortRow(first)) {
    name = deps.sessionFor(first.engine).model.container(first.containerId)?.name ?? first.containerId;
    ports = first.port ? [first.port] : first.ports;
  } else {
    if (args.length === 0) await readBindingsForPick(deps);
    const wanted = (record: Parameters<PortFacts['known']>[0]): boolean =>
      (purpose === 'copy' || isRunningState(record.state)) && openablePorts(deps.facts.known(record) ?? []).length > 0;
    if (args.length === 0) refuseWhenOnlyDropped(deps, wanted);
    const placeHolder = purpose === 'open' ? 'Container whose port to open in the browser' : 'Container whose address to copy';
    const resolved = await resolveContainers(deps, args, { placeHolder, eligible: wanted, many: false });
    const ref = resolved?.refs[0];
    if (!ref) return undefined;
    const record = ref.record ?? ref.session.model.container(ref.id);
    if (record) {
      name = record.name;
      ports = await deps.facts.read(ref.session, record);
    } else {
      // Not in the model yet (automation right after a create): the engine answers by id or name.
      const inspect = await ref.session.client.containers.inspect(ref.id);
      name = inspect.Name.replace(/^\//, '');
      ports = portsOfInspect(inspect);
    }
    // Automation may name the port (host or container side) instead of answering the pick.
    const given = (splitArgs(args).options as { port?: unknown }).port;
    if (typeof given === 'number') ports = ports.filter((port) => port.hostPort === given || port.containerPort === given);
  }
  const openable = openablePorts(ports);
  if (openable.length === 0) throw nothingToOpen(name, ports);
  if (openable.length === 1) return { name, port: openable[0] as PublishedPort };
  const chosen = await vscode.window.showQuickPick(portPickItems(openable), {
    placeHolder: purpose === 'open' ? `Port of ${name} to open in the browser` : `Port of ${name} whose address to copy`,
  });
  return chosen ? { name, port: chosen.port } : undefined;
}

/**
 * With no container to offer, a container whose ports network `none` drops is the likely reason the user asked:
 * say that (bad-input row ports-network-none) instead of "No container fits this command".
 */
function refuseWhenOnlyDropped(deps: PortCommandDeps, wanted: (record: Parameters<PortFacts['known']>[0]) => boolean): void {
  const records = [...deps.sessionFor(undefined).model.containers()];
  if (records.some(wanted)) return;
  const dropped = records.find((record) => (deps.facts.known(record) ?? []).some((port) => port.dropped === true));
  if (dropped) throw nothingToOpen(dropped.name, deps.facts.known(dropped) ?? []);
}

/** The palette's pick offers only containers with ports: the bindings of those not running are read first. */
async function readBindingsForPick(deps: PortCommandDeps): Promise<void> {
  const session = deps.sessionFor(undefined);
  const unknown = [...session.model.containers()].filter((record) => deps.facts.known(record) === undefined);
  await forEachBounded(unknown, 8, async (record) => {
    await deps.facts.read(session, record);
  });
}

async function addressOf(deps: PortCommandDeps, args: unknown[], purpose: Purpose): Promise<{ result: PortAddress; externalUri: vscode.Uri } | undefined> {
  const chosen = await choosePort(deps, args, purpose);
  if (!chosen) return undefined;
  const address = portAddress(chosen.port) as string;
  const local = vscode.Uri.parse(address, true);
  const externalUri = await vscode.env.asExternalUri(local);
  // The same URI back means nothing was forwarded: keep the address as it was written (no added `/`).
  const external = externalUri.toString() === local.toString() ? address : externalUri.toString(true);
  deps.log.info(`${purpose === 'open' ? 'Opening' : 'Copying'} ${address} (${portLabel(chosen.port)} of ${chosen.name})${external === address ? '' : ` as ${external}`}`);
  return { result: { container: chosen.name, port: portLabel(chosen.port), address, external }, externalUri };
}

/** A port command: the address is chosen alike, then ACT hands it to the browser or the clipboard. */
function portCommand(
  id: string,
  activity: string,
  purpose: Purpose,
  act: (chosen: { result: PortAddress; externalUri: vscode.Uri }) => Promise<PortAddress & { opened?: boolean }>,
): CommandEntry<PortCommandDeps> {
  return command(
    id,
    activity,
    (deps) => async (...args: unknown[]) => {
      const chosen = await addressOf(deps, args, purpose);
      return chosen ? act(chosen) : undefined;
    },
    { rejectsWhen: isAutomationCall },
  );
}

export const portCommands: ReadonlyArray<CommandEntry<PortCommandDeps>> = [
  portCommand('berth.ports.openInBrowser', 'Opening in the browser', 'open', async (chosen) => ({
    ...chosen.result,
    opened: await vscode.env.openExternal(chosen.externalUri),
  })),
  portCommand('berth.ports.copyAddress', 'Copying the address', 'copy', async (chosen) => {
    await vscode.env.clipboard.writeText(chosen.result.external);
    return chosen.result;
  }),
];
