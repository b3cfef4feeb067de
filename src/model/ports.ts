/**
 * A container's published ports as the views and the port commands show them, from what the engines give: the
 * listing's `Ports` (a running container), inspect's `NetworkSettings.Ports` (the same, read by id) or, for a
 * container that is not running, `HostConfig.PortBindings` (what will be published when it starts). No `vscode`.
 */
import * as l10n from '@vscode/l10n';
import type { ContainerInspect, ContainerSummary } from '../engine';

export interface PublishedPort {
  /** The port inside the container. */
  readonly containerPort: number;
  /** `tcp`, `udp` or `sctp`. */
  readonly protocol: string;
  /** The host address as the engine gives it; `0.0.0.0` for every IPv4 address (an empty binding IP means the same). */
  readonly hostIp: string;
  /** Undefined while a binding asks for a random host port that the engine picks only when the container starts. */
  readonly hostPort: number | undefined;
  /** False for bindings of a container that is not running: the host port is not open yet. */
  readonly published: boolean;
  /** A binding of a container on network `none` (created, running or stopped): the engine never publishes it. */
  readonly dropped?: boolean;
}

/** Whether a container is on network `none`, by inspect's HostConfig or a listing row's networks. */
export function onNetworkNone(container: { readonly HostConfig?: unknown; readonly NetworkSettings?: ContainerSummary['NetworkSettings'] }): boolean {
  const mode = (container.HostConfig as { NetworkMode?: unknown } | undefined)?.NetworkMode;
  if (typeof mode === 'string') return mode === 'none';
  const networks = Object.keys(container.NetworkSettings?.Networks ?? {});
  return networks.length === 1 && networks[0] === 'none';
}

type Bindings = Record<string, Array<{ HostIp?: string; HostPort?: string }> | null> | null | undefined;

/** Addresses that mean "this machine": the browser reaches them as localhost. */
const LOCAL_HOSTS = new Set(['', '0.0.0.0', '::', '127.0.0.1']);
/** Addresses that mean "every address": `0.0.0.0` and `::` together are one port to a user. */
const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::']);

/** The published ports of a listing row (a port only exposed, with no host side, is not published). */
export function portsOfSummary(ports: ContainerSummary['Ports'] | null | undefined): PublishedPort[] {
  return uniquePorts(
    (ports ?? [])
      .filter((port) => port.PublicPort !== undefined && port.PublicPort > 0)
      .map((port) => ({ containerPort: port.PrivatePort, protocol: port.Type, hostIp: port.IP ?? '0.0.0.0', hostPort: port.PublicPort, published: true })),
  );
}

/**
 * The ports of an inspected container: what the engine published while it runs, else its port bindings marked as not
 * yet published (Docker keeps them on a created or stopped container), or, on network `none`, its bindings marked as
 * dropped whatever its state (Docker keeps them and never opens them; Podman drops them, so there is nothing to show).
 */
export function portsOfInspect(inspect: Pick<ContainerInspect, 'State' | 'HostConfig'> & { readonly NetworkSettings?: unknown }): PublishedPort[] {
  // Docker keeps the bindings of a container on network `none` but never opens them, created, running or stopped.
  if (onNetworkNone({ HostConfig: inspect.HostConfig })) return portsOfBindings((inspect.HostConfig as { PortBindings?: Bindings }).PortBindings, false).map((port) => ({ ...port, dropped: true }));
  if (inspect.State.Running) return portsOfBindings((inspect.NetworkSettings as { Ports?: Bindings } | undefined)?.Ports, true);
  return portsOfBindings((inspect.HostConfig as { PortBindings?: Bindings }).PortBindings, false);
}

function portsOfBindings(bindings: Bindings, published: boolean): PublishedPort[] {
  const ports: PublishedPort[] = [];
  for (const [key, hosts] of Object.entries(bindings ?? {})) {
    const [portText = '', protocol = 'tcp'] = key.split('/');
    const containerPort = Number(portText);
    if (!Number.isInteger(containerPort) || !hosts) continue;
    for (const host of hosts) {
      const hostPort = Number(host.HostPort);
      const known = Number.isInteger(hostPort) && hostPort > 0;
      // A running container's binding without a host port is only exposed: nothing to open.
      if (published && !known) continue;
      ports.push({ containerPort, protocol, hostIp: host.HostIp || '0.0.0.0', hostPort: known ? hostPort : undefined, published });
    }
  }
  return uniquePorts(ports);
}

/**
 * One entry per host port: Docker publishes a port on `0.0.0.0` and on `::` as two entries, which a user sees as one.
 * Sorted by container port, then protocol, then host port.
 */
export function uniquePorts(ports: readonly PublishedPort[]): PublishedPort[] {
  const seen = new Set<string>();
  const unique: PublishedPort[] = [];
  // IPv4 wildcards first, so the one kept reads `0.0.0.0:8080` as docker ps shows it.
  const ordered = [...ports].sort((a, b) => Number(b.hostIp === '0.0.0.0') - Number(a.hostIp === '0.0.0.0'));
  for (const port of ordered) {
    const host = WILDCARD_HOSTS.has(port.hostIp) ? '*' : port.hostIp;
    // Random host ports of separate bindings are separate ports even before the engine numbers them.
    const key = `${host}|${port.hostPort ?? `random${unique.length}`}|${port.containerPort}/${port.protocol}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(port);
  }
  return unique.sort((a, b) => a.containerPort - b.containerPort || a.protocol.localeCompare(b.protocol) || (a.hostPort ?? 0) - (b.hostPort ?? 0));
}

function hostPart(ip: string): string {
  return ip.includes(':') ? `[${ip}]` : ip;
}

/** `0.0.0.0:8080 → 80/tcp`, `[::1]:9000 → 9000/udp`, `0.0.0.0:(random) → 80/tcp`. */
export function portLabel(port: PublishedPort): string {
  return `${hostPart(port.hostIp)}:${port.hostPort ?? '(random)'} → ${port.containerPort}/${port.protocol}`;
}

/**
 * The address a browser opens: `http://localhost:PORT` for a port on every address or on 127.0.0.1, the host address
 * as is otherwise. Undefined for a port that is not TCP or whose host port the engine has not picked yet.
 */
export function portAddress(port: PublishedPort): string | undefined {
  if (port.protocol !== 'tcp' || port.hostPort === undefined || port.dropped === true) return undefined;
  const host = LOCAL_HOSTS.has(port.hostIp) ? 'localhost' : hostPart(port.hostIp);
  return `http://${host}:${port.hostPort}`;
}

/** The ports that have an address to open or copy. */
export function openablePorts(ports: readonly PublishedPort[]): PublishedPort[] {
  return ports.filter((port) => portAddress(port) !== undefined);
}

/** What a run with network `none` says about the ports it was asked to publish; undefined when there is nothing to say. */
export function droppedPortsWarning(network: string | undefined, ports: readonly string[] | undefined): string | undefined {
  if (network !== 'none' || !ports || ports.length === 0) return undefined;
  return l10n.t('Network none drops published ports: {0} will not be reachable from the host. Run on another network (the --network option, or the berth.run.network setting) to publish them.', ports.join(', '));
}
