// The network rule of the test engines, in one place so no test can break it: a network is created only on the
// private Podman (whose `network create` only writes a file; dockerd would make a bridge interface at once), always
// `--internal`, and a container attached to it is created and NEVER started (starting it would make the interface).
// The guard records the host's interfaces (`ip -o link`) when the suite begins and, when it ends, asserts that none
// appeared, that no container it attached was ever started, and removes its networks.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before } from 'node:test';
import { EngineClient, isEngineError, type CreateNetworkBody } from '../../src/engine';
import { containerSpec } from './containerSpec';
import type { EngineSuite } from './engineSuite';
import { cleanupLabel, uniqueName } from './engines';

const run = promisify(execFile);

/** The host's interface names, sorted (`ip -o link`: `2: eth0@if5: <…>`). */
export async function hostInterfaces(): Promise<string[]> {
  const { stdout } = await run('ip', ['-o', 'link'], { timeout: 10_000 });
  return stdout
    .split('\n')
    .map((line) => /^\d+:\s+([^:@]+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined)
    .sort();
}

export interface NetworkGuard {
  /** Creates an internal network on the Podman of SUITE (refused on any other engine); removed when the suite ends. */
  createNetwork(extra?: Partial<CreateNetworkBody>): Promise<string>;
  /**
   * Creates a container that is never started, on NETWORK (Podman cannot connect a container whose mode is `none`),
   * with the suite's labels; the guard checks at the end that it never ran.
   */
  createIdleContainer(network: string): Promise<string>;
  /** Records a container some other path (a command, the CLI) attached, so the end check covers it too. */
  watch(containerId: string): void;
}

export function useNetworkGuard(suite: EngineSuite): NetworkGuard {
  const networks: string[] = [];
  const watched = new Set<string>();
  let interfacesBefore: string[] = [];
  // A client of its own, and containers without the suite's marker: the suite's own end removes its containers and
  // closes its client before this end runs, and this end must still see whether its containers ever started.
  const client = EngineClient.fromEnvironment({ host: suite.host });
  before(async () => {
    assert.equal(suite.host, suite.engines.podmanHost, 'networks are created only on the private Podman, never on dockerd');
    interfacesBefore = await hostInterfaces();
  });
  after(async () => {
    try {
      await endChecks();
    } finally {
      await client.close();
    }
  });
  const endChecks = async (): Promise<void> => {
    for (const id of watched) {
      const inspected = await client.inspectContainer(id).catch((error: unknown) => (isEngineError(error, 'not-found') ? undefined : Promise.reject(error)));
      if (inspected) assert.ok(inspected.State.StartedAt.startsWith('0001-'), `container ${id} on a test network was started (${inspected.State.StartedAt})`);
    }
    for (const id of watched) await client.removeContainer(id, { force: true }).catch(() => undefined);
    for (const name of networks) await client.removeNetwork(name).catch((error: unknown) => (isEngineError(error, 'not-found') ? undefined : Promise.reject(error)));
    assert.deepEqual(await hostInterfaces(), interfacesBefore, 'no network interface may appear on the host');
  };
  return {
    async createNetwork(extra = {}) {
      const name = extra.Name ?? uniqueName('berth-net');
      await client.createNetwork({ ...extra, Name: name, Internal: true, Labels: { ...extra.Labels, ...cleanupLabel } });
      networks.push(name);
      return name;
    },
    async createIdleContainer(network) {
      const spec = containerSpec(suite.engines.image, ['true']);
      // The one place a test container gets a mode other than `none`: an internal Podman network, and it never starts.
      const body = { ...spec, HostConfig: { ...spec.HostConfig, NetworkMode: network } };
      const { Id } = await client.createContainer(body, { name: uniqueName('idle') });
      watched.add(Id);
      return Id;
    },
    watch(containerId) {
      watched.add(containerId);
    },
  };
}
