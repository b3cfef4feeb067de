/** What a network row and a row of a container attached to it show. No `vscode` here. */
import { shortId } from '../common/format';
import * as l10n from '@vscode/l10n';
import type { Network } from '../engine';
import { escapeMarkdown, type ItemPresentation } from '../views/presentation';

/**
 * The networks every engine makes itself: dockerd's `bridge`, `host` and `none`, Podman's `podman` (which its
 * compat API may also call `bridge`). The engine refuses to remove them; the row says so before anyone tries.
 */
const PREDEFINED = new Set(['bridge', 'host', 'none', 'podman']);

export function isPredefinedNetwork(name: string): boolean {
  return PREDEFINED.has(name);
}

export interface NetworkAttachment {
  readonly id: string;
  readonly name: string;
  readonly address: string;
}

/** The containers attached to a network, from its inspect (`Containers`), by name. */
export function attachmentsOf(network: Network): NetworkAttachment[] {
  return Object.entries(network.Containers ?? {})
    .map(([id, endpoint]) => ({ id, name: endpoint.Name || shortId(id), address: endpoint.IPv4Address || endpoint.IPv6Address || '' }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function subnetsOf(network: Network): string[] {
  return (network.IPAM?.Config ?? []).map((config) => config.Subnet ?? '').filter((subnet) => subnet !== '');
}

export function presentNetwork(network: Network): ItemPresentation {
  const attached = attachmentsOf(network);
  const subnets = subnetsOf(network);
  const predefined = isPredefinedNetwork(network.Name);
  const parts = [network.Driver, network.Scope];
  if (network.Internal) parts.push('internal');
  if (subnets.length > 0) parts.push(subnets.join(', '));
  parts.push(attached.length === 0 ? l10n.t('no containers') : attached.length === 1 ? l10n.t('1 container') : l10n.t('{0} containers', attached.length));
  const lines = [
    `**${escapeMarkdown(network.Name)}**${predefined ? ' (predefined: the engine will not remove it)' : ''}`,
    '',
    `ID: ${shortId(network.Id)}`,
    '',
    `Driver: ${escapeMarkdown(network.Driver)} · Scope: ${escapeMarkdown(network.Scope)} · Internal: ${network.Internal ? 'yes' : 'no'}`,
    '',
    `Subnets: ${subnets.length > 0 ? escapeMarkdown(subnets.join(', ')) : 'none'}`,
    '',
    `Containers: ${attached.length > 0 ? escapeMarkdown(attached.map((container) => container.name).join(', ')) : 'none'}`,
  ];
  return {
    label: network.Name,
    description: parts.join(' · '),
    tooltip: lines.join('\n'),
    icon: attached.length > 0 ? { id: 'type-hierarchy' } : { id: 'type-hierarchy', color: 'disabledForeground' },
    contextValue: predefined ? 'berth:network:predefined' : 'berth:network',
  };
}

export function presentAttachment(network: string, attachment: NetworkAttachment): ItemPresentation {
  return {
    label: attachment.name,
    description: attachment.address || shortId(attachment.id),
    tooltip: l10n.t('Container **{0}** ({1}) is attached to {2}.', escapeMarkdown(attachment.name), shortId(attachment.id), escapeMarkdown(network)),
    icon: { id: 'vm' },
    contextValue: 'berth:network:container',
  };
}
