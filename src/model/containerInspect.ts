/**
 * A container's listing row (`ContainerSummary`) built from its inspect. The model fetches one touched
 * container by inspect because the engine answers it by id, while a list filtered by id scans every
 * container (its cost grows with the container count). The fields match what `GET /containers/json`
 * gives for the same container on Docker 20.10 and Podman 4.3.
 */
import type { ContainerInspect, ContainerSummary } from '../engine';
import { clockFromState, parseEngineTime, rememberExactClock, renderClock } from './statusClock';

export { humanDuration } from '../common/format';

type Port = ContainerSummary['Ports'][number];
type PortBindings = Record<string, Array<{ HostIp?: string; HostPort?: string }> | null>;

/**
 * `previous` is the container's current record, if any: what cannot change over a container's life and the
 * engines render differently (the command's quoting, the image's name when its tag moved) is kept from the
 * listing rather than re-derived.
 */
export function containerSummaryFromInspect(inspect: ContainerInspect, nowMs: number, previous?: ContainerSummary): ContainerSummary {
  const created = parseEngineTime(inspect.Created);
  const sameImage = previous !== undefined && previous.ImageID === inspect.Image;
  const summary: ContainerSummary = {
    Id: inspect.Id,
    Names: inspect.Name ? [inspect.Name.startsWith('/') ? inspect.Name : `/${inspect.Name}`] : [],
    Image: sameImage ? previous.Image : inspect.Config.Image,
    ImageID: inspect.Image,
    Command: previous?.Command ?? dockerCommand(stringOf(inspect['Path']), stringsOf(inspect['Args'])),
    Created: created === undefined ? 0 : Math.floor(created / 1000),
    Ports: portsOf(inspect['NetworkSettings']),
    Labels: inspect.Config.Labels ?? {},
    State: inspect.State.Status,
    Status: statusText(inspect.State, nowMs),
  };
  // The networks' names only, as the listing has them (the Ports feature tells network `none` by them).
  const networks = (inspect['NetworkSettings'] as { Networks?: Record<string, unknown> | null } | undefined)?.Networks;
  if (networks) summary.NetworkSettings = { Networks: Object.fromEntries(Object.keys(networks).map((name) => [name, {}])) };
  const mounts = inspect['Mounts'];
  if (Array.isArray(mounts)) summary.Mounts = mounts as unknown[];
  rememberExactClock(summary, clockFromState(inspect.State));
  return summary;
}

/** Docker's rendering: the path, then the arguments, each holding a space in single quotes. */
export function dockerCommand(path: string, args: readonly string[]): string {
  if (args.length === 0) return path;
  return `${path} ${args.map((arg) => (arg.includes(' ') ? `'${arg}'` : arg)).join(' ')}`;
}

/** The listing's `Status` column at `nowMs`: `Up 5 minutes`, `Exited (0) 2 hours ago`, `Created`, … */
export function statusText(state: ContainerInspect['State'], nowMs: number): string {
  const clock = clockFromState(state);
  if (clock) return renderClock(clock, nowMs);
  if (state.Running) return 'Up Less than a second';
  if (state.Status === 'removing') return 'Removal In Progress';
  if (state.Status === 'dead') return 'Dead';
  if (parseEngineTime(state.StartedAt) === undefined) return 'Created';
  return '';
}

/** Published ports give one entry per binding; exposed ones an entry without a public side. */
function portsOf(networkSettings: unknown): Port[] {
  const bindings = (networkSettings as { Ports?: PortBindings | null } | null | undefined)?.Ports ?? {};
  const ports: Port[] = [];
  for (const [key, hosts] of Object.entries(bindings)) {
    const [portText = '', type = 'tcp'] = key.split('/');
    const privatePort = Number(portText);
    if (!Number.isInteger(privatePort)) continue;
    if (!hosts || hosts.length === 0) {
      ports.push({ PrivatePort: privatePort, Type: type });
      continue;
    }
    for (const host of hosts) {
      const publicPort = Number(host.HostPort);
      const port: Port = { PrivatePort: privatePort, Type: type };
      if (host.HostIp !== undefined) port.IP = host.HostIp;
      if (Number.isInteger(publicPort) && publicPort > 0) port.PublicPort = publicPort;
      ports.push(port);
    }
  }
  return ports;
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
