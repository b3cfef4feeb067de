/**
 * What the Ports rows and the port picks show, without `vscode` (unit-tested): the "Ports" row under a container,
 * one row per published port, the container row's addition (tooltip lines, the `:ports` context suffix the menus
 * ask for) and the quick pick's items.
 */
import * as l10n from '@vscode/l10n';
import { portAddress, portLabel, type PublishedPort } from '../model/ports';
import { escapeMarkdown } from '../views/presentation';

export interface PortRowPresentation {
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  readonly contextValue: string;
  readonly icon: string;
}

/** Context values: `berth:ports` (the group), `berth:port:open` (published, with an address), `berth:port:unpublished`, `berth:port:other`. */
export function portContextValue(port: PublishedPort): string {
  if (portAddress(port) === undefined) return 'berth:port:other';
  return port.published ? 'berth:port:open' : 'berth:port:unpublished';
}

/** Why a port has no address, or that it is not open yet; undefined for a published port with an address. */
export function portNote(port: PublishedPort): string | undefined {
  if (port.dropped === true) return l10n.t('never published: network none drops published ports; run the container on another network to reach it');
  if (port.protocol !== 'tcp') return l10n.t('{0}: no address to open in a browser', port.protocol.toUpperCase());
  if (port.hostPort === undefined) return l10n.t('the engine picks a random host port when the container starts');
  return port.published ? undefined : l10n.t('not yet published: the port opens when the container starts');
}

export function presentPortGroup(ports: readonly PublishedPort[]): PortRowPresentation {
  if (ports.length > 0 && ports.every((port) => port.dropped === true)) {
    return {
      label: l10n.t('Ports'),
      description: l10n.t('{0} · dropped by network none', ports.length),
      tooltip: l10n.t('This container is on network none, which drops published ports: the engine never opens them on the host. Run it on another network to publish them.'),
      contextValue: 'berth:ports',
      icon: 'plug',
    };
  }
  const published = ports.some((port) => port.published);
  return {
    label: l10n.t('Ports'),
    description: published ? String(ports.length) : l10n.t('{0} · not yet published', ports.length),
    tooltip: published
      ? l10n.t('The ports this container publishes on the host. Open in Browser and Copy Address are on each row.')
      : l10n.t('The port bindings of this container: the engine publishes them when the container starts.'),
    contextValue: 'berth:ports',
    icon: 'plug',
  };
}

export function presentPort(port: PublishedPort): PortRowPresentation {
  const address = portAddress(port);
  const note = portNote(port);
  const lines = [`**${escapeMarkdown(portLabel(port))}**`];
  if (address !== undefined) lines.push('', `Address: ${escapeMarkdown(address)}`);
  if (note !== undefined) lines.push('', escapeMarkdown(`${note[0]?.toUpperCase() ?? ''}${note.slice(1)}.`));
  return {
    label: portLabel(port),
    description: address === undefined ? (note ?? '') : port.published ? address : `${address} · not yet published`,
    tooltip: lines.join('\n'),
    contextValue: portContextValue(port),
    icon: port.published ? 'radio-tower' : 'circle-outline',
  };
}

/** What a container row gets: the bindings of a container that is not running in its tooltip, `:ports` when one has an address. */
export function containerPortDecoration(ports: readonly PublishedPort[], running: boolean): { tooltip?: string; contextSuffix?: string } {
  const decoration: { tooltip?: string; contextSuffix?: string } = {};
  // A running container's ports are in the row's own tooltip (from the listing).
  if (ports.some((port) => port.dropped === true)) decoration.tooltip = l10n.t('Ports (never published: network none drops them): {0}', escapeMarkdown(ports.map(portLabel).join(', ')));
  else if (!running && ports.length > 0) decoration.tooltip = l10n.t('Ports (published when it starts): {0}', escapeMarkdown(ports.map(portLabel).join(', ')));
  if (ports.some((port) => portAddress(port) !== undefined)) decoration.contextSuffix = ':ports';
  return decoration;
}

/** A quick pick's items over the ports that have an address. */
export function portPickItems(ports: readonly PublishedPort[]): Array<{ label: string; description: string; port: PublishedPort }> {
  return ports.flatMap((port) => {
    const address = portAddress(port);
    if (address === undefined) return [];
    return [{ label: address, description: port.published ? portLabel(port) : `${portLabel(port)} · not yet published`, port }];
  });
}
