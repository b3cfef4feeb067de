// An in-process engine with containers that really publish ports, for the Ports cases: the test engines run without a
// bridge and every test container is on network none, so no real engine here can publish a port. It speaks dockerd's
// wire format as the private dockerd answers on a bridge: the listing row's `Ports` (one entry per address family of
// a published port, a port only exposed without a host side), inspect's `HostConfig.PortBindings` and
// `NetworkSettings.Ports`, and an `/events` stream that stays open. Plain Node: nothing from src/.
import type { ServerResponse } from 'node:http';
import { quietEngineRoute, sendError, sendJson, stallAfterHeaders, startFakeEngine, type FakeEngine, type FakeRoute } from './fakeEngine';

type Bindings = Record<string, Array<{ HostIp: string; HostPort: string }>>;

export interface FakePortContainer {
  readonly id: string;
  readonly name: string;
  readonly state: 'running' | 'created';
  /** HostConfig.PortBindings as given at create. */
  readonly bindings: Bindings;
  /** NetworkSettings.Ports while it runs: what the engine published (an empty HostIp/HostPort picked on start). */
  readonly published: Bindings;
}

/** A running web container: 80/tcp on every address (IPv4 and IPv6, as dockerd lists it), 8443/tcp on 127.0.0.1, 53/udp. */
export const PUBLISHING: FakePortContainer = {
  id: 'a1'.repeat(32),
  name: 'berth-fake-publishing',
  state: 'running',
  bindings: {
    '80/tcp': [{ HostIp: '', HostPort: '18181' }],
    '8443/tcp': [{ HostIp: '127.0.0.1', HostPort: '18182' }],
    '53/udp': [{ HostIp: '', HostPort: '18153' }],
  },
  published: {
    '80/tcp': [{ HostIp: '0.0.0.0', HostPort: '18181' }, { HostIp: '::', HostPort: '18181' }],
    '8443/tcp': [{ HostIp: '127.0.0.1', HostPort: '18182' }],
    '53/udp': [{ HostIp: '0.0.0.0', HostPort: '18153' }, { HostIp: '::', HostPort: '18153' }],
  },
};

/** A created container on a bridge: a UDP port and a TCP port whose random host port is picked only on start. */
export const PENDING: FakePortContainer = {
  id: 'b2'.repeat(32),
  name: 'berth-fake-pending',
  state: 'created',
  bindings: { '53/udp': [{ HostIp: '', HostPort: '18353' }], '3000/tcp': [{ HostIp: '', HostPort: '' }] },
  published: {},
};

const IMAGE_ID = `sha256:${'c'.repeat(64)}`;

/** Made three hours ago, started two hours ago (as `Up 2 hours` says), whenever the test runs. */
const CREATED_MS = Date.now() - 3 * 3_600_000;
const STARTED_MS = Date.now() - 2 * 3_600_000;

function bridgeNetwork(container: FakePortContainer): Record<string, unknown> {
  const running = container.state === 'running';
  return {
    IPAMConfig: null, Links: null, Aliases: null, NetworkID: 'd'.repeat(64), EndpointID: running ? 'e'.repeat(64) : '',
    Gateway: running ? '172.17.0.1' : '', IPAddress: running ? '172.17.0.2' : '', IPPrefixLen: running ? 16 : 0,
    IPv6Gateway: '', GlobalIPv6Address: '', GlobalIPv6PrefixLen: 0, MacAddress: running ? '02:42:ac:11:00:02' : '', DriverOpts: null,
  };
}

/** The listing's `Ports`: a running container's published ports (each address family apart), else its exposed ports. */
function listingPorts(container: FakePortContainer): Array<Record<string, unknown>> {
  if (container.state !== 'running') return Object.keys(container.bindings).map((key) => ({ PrivatePort: Number(key.split('/')[0]), Type: key.split('/')[1] }));
  return Object.entries(container.published).flatMap(([key, hosts]) =>
    hosts.map((host) => ({ IP: host.HostIp, PrivatePort: Number(key.split('/')[0]), PublicPort: Number(host.HostPort), Type: key.split('/')[1] })));
}

function summaryOf(container: FakePortContainer): Record<string, unknown> {
  return {
    Id: container.id, Names: [`/${container.name}`], Image: 'busybox:latest', ImageID: IMAGE_ID, Command: 'httpd -f', Created: Math.floor(CREATED_MS / 1000),
    Ports: listingPorts(container), Labels: {}, State: container.state,
    Status: container.state === 'running' ? 'Up 2 hours' : 'Created',
    HostConfig: { NetworkMode: 'bridge' }, NetworkSettings: { Networks: { bridge: bridgeNetwork(container) } }, Mounts: [],
  };
}

function inspectOf(container: FakePortContainer): Record<string, unknown> {
  const running = container.state === 'running';
  return {
    Id: container.id, Created: new Date(CREATED_MS).toISOString(), Path: 'httpd', Args: ['-f'], Image: IMAGE_ID, Name: `/${container.name}`, RestartCount: 0,
    State: {
      Status: container.state, Running: running, Paused: false, Restarting: false, OOMKilled: false, Dead: false, Pid: running ? 4242 : 0, ExitCode: 0, Error: '',
      StartedAt: running ? new Date(STARTED_MS).toISOString() : '0001-01-01T00:00:00Z', FinishedAt: '0001-01-01T00:00:00Z',
    },
    Config: { Hostname: container.id.slice(0, 12), Tty: false, OpenStdin: false, Cmd: ['httpd', '-f'], Env: null, Labels: {}, Image: 'busybox:latest', WorkingDir: '', ExposedPorts: Object.fromEntries(Object.keys(container.bindings).map((key) => [key, {}])) },
    HostConfig: { NetworkMode: 'bridge', PortBindings: container.bindings, RestartPolicy: { Name: 'no', MaximumRetryCount: 0 }, AutoRemove: false },
    NetworkSettings: { Bridge: '', SandboxID: '', Ports: running ? container.published : {}, Networks: { bridge: bridgeNetwork(container) } },
    Mounts: [],
  };
}

/**
 * Inspect of each container, its changes (none), and a stats stream that stays open without a sample (the view asks
 * for live figures).
 */
function containerRoute(containers: readonly FakePortContainer[]): FakeRoute {
  return (request, response: ServerResponse) => {
    const match = /^\/containers\/([^/]+)\/(json|stats|changes)$/.exec(request.path);
    if (!match) return false;
    const key = decodeURIComponent(match[1] as string);
    const container = containers.find((each) => each.id === key || each.id.startsWith(key) || each.name === key);
    if (!container) sendError(response, 404, `No such container: ${key}`);
    else if (match[2] === 'json') sendJson(response, 200, inspectOf(container));
    else if (match[2] === 'changes') sendJson(response, 200, []);
    else stallAfterHeaders(response, 200, 'application/json');
    return true;
  };
}

/** Starts a fake engine holding CONTAINERS (PUBLISHING and PENDING unless told otherwise). */
export function startPublishingEngine(containers: readonly FakePortContainer[] = [PUBLISHING, PENDING]): Promise<FakeEngine> {
  return startFakeEngine([quietEngineRoute((response) => sendJson(response, 200, containers.map(summaryOf))), containerRoute(containers)]);
}
