/**
 * The volume commands: Create Volume… (name, driver, labels), Remove (the multi-selection; a volume in use is
 * refused with the names of its containers), Inspect (the engine's JSON in an editor), Copy Name, a click on a
 * container row reveals it, and Refresh Disk Usage. Automation passes names (strings) and `{ confirmed }`.
 */
import * as vscode from 'vscode';
import { validatedBy } from '../common/errors';
import { plural } from '../common/format';
import { isObject } from '../common/objects';
import { removeVolumeNamingUsers, validateVolumeName, type CreateVolumeBody } from '../engine';
import { shownValue } from '../workbench/callOrigin';
import { command, type CommandEntry } from '../workbench/commandTable';
import { createCommand, removeCommand, showInspected } from '../workbench/resourceCommands';
import { withCancellableProgress } from '../workbench/feedback';
import { pickMany } from '../workbench/multiPick';
import { clickedWithSelection } from '../workbench/targets';
import type { VolumesDeps } from './deps';
import { volumeLabel } from './presentation';


function volumeNameOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value['name'] === 'string' && (value['kind'] === 'volume' || value['kind'] === undefined)) return value['name'];
  return undefined;
}

/** Volume names from a row, the multi-selection, a string, or `{ name }`. */
function volumeNames(args: unknown[]): { names: string[]; confirmed: boolean | undefined } {
  const { keys, options } = clickedWithSelection(args, volumeNameOf);
  return { names: keys, confirmed: options.confirmed };
}

async function pickVolumes(deps: VolumesDeps, canPickMany: boolean): Promise<string[]> {
  const volumes = await deps.session.client.volumes.list({});
  if (volumes.length === 0) throw new Error('There are no volumes on this engine');
  const items = volumes.map((volume) => ({ label: volumeLabel(volume.Name), description: volume.Driver, name: volume.Name }));
  const picked = canPickMany ? await pickMany(items, { placeHolder: vscode.l10n.t('Volumes') }) : await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Volume') });
  if (picked === undefined) return [];
  return (Array.isArray(picked) ? picked : [picked]).map((item) => item.name);
}

/** `a=b, c=d` into labels; throws with the offending entry. */
export function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const entry of text.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const equals = entry.indexOf('=');
    if (equals <= 0) throw new Error(`The label "${entry}" is not KEY=VALUE`);
    labels[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return labels;
}

async function askCreateBody(): Promise<CreateVolumeBody | undefined> {
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Create Volume (1/3)'),
    prompt: vscode.l10n.t('Name (empty: the engine picks one)'),
    placeHolder: 'my-data',
    validateInput: (text) => validateVolumeName(text.trim()),
  });
  if (name === undefined) return undefined;
  const driver = await vscode.window.showInputBox({ title: vscode.l10n.t('Create Volume (2/3)'), prompt: vscode.l10n.t('Driver'), value: 'local' });
  if (driver === undefined) return undefined;
  const labelText = await vscode.window.showInputBox({
    title: vscode.l10n.t('Create Volume (3/3)'),
    prompt: vscode.l10n.t('Labels (optional), e.g. team=a, env=dev'),
    validateInput: validatedBy(parseLabels),
  });
  if (labelText === undefined) return undefined;
  return { ...(name.trim() !== '' ? { Name: name.trim() } : {}), Driver: driver.trim() || 'local', Labels: parseLabels(labelText) };
}

export const volumeCommands: ReadonlyArray<CommandEntry<VolumesDeps>> = [
  createCommand<VolumesDeps, CreateVolumeBody>('berth.volumes.create', 'Creating the volume', {
    ask: askCreateBody,
    create: async (deps, body) => {
      const volume = await deps.session.client.volumes.create(body);
      deps.log.info(`Created volume ${volume.Name}`);
      return volume.Name;
    },
    // Driver options can bind a host path into the volume.
    question: (body) => vscode.l10n.t('Create the volume {0}?', shownValue(body['Name'] ?? '(named by the engine)')),
  }),
  removeCommand<VolumesDeps>('berth.volumes.remove', 'Removing the volume', {
    given: volumeNames,
    pick: (deps) => pickVolumes(deps, true),
    what: (names) => (names.length === 1 ? `volume ${volumeLabel(names[0] ?? '')}` : plural(names.length, 'volume')),
    question: (what) => vscode.l10n.t('Remove {0}? Its data is deleted.', what),
    remove: (deps, name, signal) => removeVolumeNamingUsers(deps.session.client, name, { signal }),
  }),
  command('berth.volumes.inspect', 'Inspecting the volume', (deps) => async (...args: unknown[]) => {
    let { names } = volumeNames(args);
    if (names.length === 0) names = await pickVolumes(deps, false);
    const name = names[0];
    if (name === undefined) return;
    await showInspected(await deps.session.client.volumes.inspect(name));
  }),
  command('berth.volumes.copyName', 'Copying the volume name', (deps) => async (...args: unknown[]) => {
    let { names } = volumeNames(args);
    if (names.length === 0) names = await pickVolumes(deps, false);
    if (names.length > 0) await vscode.env.clipboard.writeText(names.join('\n'));
  }),
  command('berth.volumes.revealContainer', 'Showing the container', (deps) => async (node?: unknown) => {
    if (!isObject(node) || typeof node['id'] !== 'string') return;
    await vscode.commands.executeCommand('berth.containers.focus');
    await deps.revealContainer(node['id'], deps.session.id);
  }),
  command('berth.diskUsage.refresh', 'Computing disk usage', (deps) => async () => {
    await withCancellableProgress(vscode.l10n.t('Computing disk usage'), (signal) => deps.refreshDiskUsage(signal));
  }),
];
