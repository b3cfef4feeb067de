/**
 * The network commands: Create Network… (name, driver, internal, optional subnet), Remove (the multi-selection; the
 * engine's own words when it refuses a predefined network, the attached containers named when it has endpoints),
 * Inspect (the engine's JSON in an editor), Connect/Disconnect a container picked from a quick pick, and a click on
 * an attached container reveals it. Automation passes names (strings) and option objects (`{ confirmed }`,
 * `{ network, container }`).
 */
import * as vscode from 'vscode';
import { plural, shortId } from '../common/format';
import { isObject } from '../common/objects';
import { removeNetworkNamingEndpoints, type CreateNetworkBody } from '../engine';
import { shownValue } from '../workbench/callOrigin';
import { createCommand, isAutomation, removeCommand, showInspected } from '../workbench/resourceCommands';
import { command, type CommandEntry } from '../workbench/commandTable';
import { pickMany } from '../workbench/multiPick';
import { clickedWithSelection } from '../workbench/targets';
import type { NetworksDeps } from './deps';
import { attachmentsOf } from './presentation';


/** A network row's or an attached container row's network, a name string, or `{ network }`. */
function networkOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!isObject(value)) return undefined;
  if (value['kind'] === 'network' && typeof value['name'] === 'string') return value['name'];
  return typeof value['network'] === 'string' ? value['network'] : undefined;
}

async function pickNetwork(deps: NetworksDeps, many: boolean): Promise<string[]> {
  const networks = await deps.session.client.networks.list({});
  const items = networks.map((network) => ({ label: network.Name, description: `${network.Driver} · ${network.Scope}` }));
  const picked = many ? await pickMany(items, { placeHolder: vscode.l10n.t('Networks') }) : await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Network') });
  if (picked === undefined) return [];
  return (Array.isArray(picked) ? picked : [picked]).map((item) => item.label);
}

/** `10.89.7.0/24`, or empty; anything else gets a reason before the engine is asked. */
export function subnetProblem(text: string): string | undefined {
  const subnet = text.trim();
  if (subnet === '') return undefined;
  if (!/^([0-9.]+|[0-9a-fA-F:]+)\/\d{1,3}$/.test(subnet)) return `"${subnet}" is not a subnet in CIDR form, e.g. 10.89.7.0/24`;
  return undefined;
}

async function askCreateBody(): Promise<CreateNetworkBody | undefined> {
  const name = await vscode.window.showInputBox({ title: vscode.l10n.t('Create Network (1/4)'), prompt: vscode.l10n.t('Name'), placeHolder: 'my-net', validateInput: (text) => (text.trim() === '' ? vscode.l10n.t('A network needs a name') : undefined) });
  if (name === undefined) return undefined;
  const driver = await vscode.window.showInputBox({ title: vscode.l10n.t('Create Network (2/4)'), prompt: vscode.l10n.t('Driver'), value: 'bridge' });
  if (driver === undefined) return undefined;
  const internal = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t('Internal'), description: vscode.l10n.t('no route to the outside'), internal: true },
      { label: vscode.l10n.t('Not internal'), description: vscode.l10n.t('containers can reach the outside'), internal: false },
    ],
    { title: vscode.l10n.t('Create Network (3/4)') },
  );
  if (internal === undefined) return undefined;
  const subnet = await vscode.window.showInputBox({ title: vscode.l10n.t('Create Network (4/4)'), prompt: vscode.l10n.t('Subnet (optional), e.g. 10.89.7.0/24'), validateInput: subnetProblem });
  if (subnet === undefined) return undefined;
  return {
    Name: name.trim(),
    Driver: driver.trim() || 'bridge',
    Internal: internal.internal,
    ...(subnet.trim() !== '' ? { IPAM: { Config: [{ Subnet: subnet.trim() }] } } : {}),
  };
}

/** The container for Connect: given, or picked among the engine's containers not attached yet. */
async function containerToConnect(deps: NetworksDeps, network: string, given: unknown): Promise<string | undefined> {
  if (typeof given === 'string') return given;
  const attached = new Set(attachmentsOf(await deps.session.client.networks.inspect(network)).map((attachment) => attachment.id));
  const items = [...deps.session.model.containers()]
    .filter((record) => !attached.has(record.id))
    .map((record) => ({ label: record.summary.Names[0]?.replace(/^\//, '') ?? shortId(record.id), description: record.summary.State, id: record.id }));
  if (items.length === 0) throw new Error(`Every container on this engine is already attached to ${network}`);
  return (await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Container to connect to {0}', network) }))?.id;
}

/** The container for Disconnect: an attached container's row, given, or picked among the attached ones. */
async function containerToDisconnect(deps: NetworksDeps, network: string, target: unknown, given: unknown): Promise<string | undefined> {
  if (typeof given === 'string') return given;
  if (isObject(target) && target['kind'] === 'networkContainer' && typeof target['id'] === 'string') return target['id'];
  const items = attachmentsOf(await deps.session.client.networks.inspect(network)).map((attachment) => ({ label: attachment.name, description: attachment.address, id: attachment.id }));
  if (items.length === 0) throw new Error(`No container is attached to ${network}`);
  return (await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Container to disconnect from {0}', network) }))?.id;
}

/** `(row or { network, container })`: the network and the container, asking for what is missing. */
async function networkAndContainer(
  deps: NetworksDeps,
  target: unknown,
  pickContainer: (network: string, given: unknown) => Promise<string | undefined>,
): Promise<{ network: string; container: string } | undefined> {
  const network = networkOf(target) ?? (await pickNetwork(deps, false))[0];
  if (network === undefined) return undefined;
  const container = await pickContainer(network, isObject(target) ? target['container'] : undefined);
  return container === undefined ? undefined : { network, container };
}

export const networkCommands: ReadonlyArray<CommandEntry<NetworksDeps>> = [
  createCommand<NetworksDeps, CreateNetworkBody>('berth.networks.create', 'Creating the network', {
    ask: askCreateBody,
    create: async (deps, body) => {
      const created = await deps.session.client.networks.create(body);
      deps.log.info(`Created network ${body.Name} (${shortId(created.Id)})${created.Warning ? `: ${created.Warning}` : ''}`);
      await deps.refreshNetworks();
      return body.Name;
    },
    question: (body) => vscode.l10n.t('Create the network {0}?', shownValue(body['Name'] ?? '')),
  }),
  removeCommand<NetworksDeps>('berth.networks.remove', 'Removing the network', {
    given: (args) => {
      const { keys, options } = clickedWithSelection(args, networkOf);
      return { names: keys, confirmed: options.confirmed };
    },
    pick: (deps) => pickNetwork(deps, true),
    what: (names) => (names.length === 1 ? `network ${names[0] ?? ''}` : plural(names.length, 'network')),
    question: (what) => vscode.l10n.t('Remove {0}?', what),
    remove: (deps, name, signal) => removeNetworkNamingEndpoints(deps.session.client, name, signal),
    after: (deps) => deps.refreshNetworks(),
  }),
  command('berth.networks.inspect', 'Inspecting the network', (deps) => async (target?: unknown) => {
    const name = networkOf(target) ?? (await pickNetwork(deps, false))[0];
    if (name === undefined) return;
    await showInspected(await deps.session.client.networks.inspect(name));
  }),
  command(
    'berth.networks.connect',
    'Connecting the container',
    (deps) => async (target?: unknown) => {
      const pair = await networkAndContainer(deps, target, (network, given) => containerToConnect(deps, network, given));
      if (!pair) return undefined;
      await deps.session.client.networks.connect(pair.network, pair.container);
      await deps.refreshNetworks();
      return pair;
    },
    { rejectsWhen: isAutomation },
  ),
  command(
    'berth.networks.disconnect',
    'Disconnecting the container',
    (deps) => async (target?: unknown) => {
      const pair = await networkAndContainer(deps, target, (network, given) => containerToDisconnect(deps, network, target, given));
      if (!pair) return undefined;
      await deps.session.client.networks.disconnect(pair.network, pair.container);
      await deps.refreshNetworks();
      return pair;
    },
    { rejectsWhen: isAutomation },
  ),
  command('berth.networks.revealContainer', 'Showing the container', (deps) => async (node?: unknown) => {
    if (!isObject(node) || typeof node['id'] !== 'string') return;
    await vscode.commands.executeCommand('berth.containers.focus');
    await deps.revealContainer(node['id'], deps.session.id);
  }),
];
