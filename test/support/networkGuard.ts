// The network rule of the test engines, in one place so no test can break it: a network is created only on the
// private Podman (whose `network create` only writes a file; dockerd would make a bridge interface at once), always
// `--internal`, and a container attached to it is created and NEVER started (starting it would make the interface).
// The guard records the host's interfaces (`ip -o link`) when the suite begins and, when it ends, asserts that none
// appeared, that no container it attached was ever started, and removes its networks.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { EngineClient, isEngineError, type CreateNetworkBody } from '../../src/engine';
import { containerSpec } from './containerSpec';
import { cleanupLabel, uniqueName, type TestEngines } from './engines';

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
  /** Creates an internal network (Podman only, see above); removed when the guard ends. */
  createNetwork(extra?: Partial<CreateNetworkBody>): Promise<string>;
  /**
   * Creates a container that is never started, on NETWORK (Podman cannot connect a container whose mode is `none`),
   * with the cleanup label; the guard checks at the end that it never ran, and removes it.
   */
  createIdleContainer(network: string): Promise<string>;
  /** Records a network or a container some other path (a command, the CLI) made, so the end covers it too. */
  watch(what: { network?: string; container?: string }): void;
  /** Records the host's interfaces; refuses any engine but the private Podman. */
  begin(): Promise<void>;
  /** Asserts that no container it knows ever started and that no interface appeared; removes what it made. */
  end(): Promise<void>;
}

/**
 * The guard for HOST (which must be engines.json's podmanHost), with a client of its own: a suite's own end may
 * remove its containers and close its client first, and this end must still see whether its containers started.
 */
export function networkGuard(host: string, engines: TestEngines): NetworkGuard {
  const networks = new Set<string>();
  const watched = new Set<string>();
  let interfacesBefore: string[] = [];
  const client = EngineClient.fromEnvironment({ host });
  /** For `.catch`: a thing already gone is fine, anything else is thrown again. */
  const ignoreGone = (error: unknown): undefined => {
    if (isEngineError(error, 'not-found')) return undefined;
    throw error;
  };
  const endChecks = async (): Promise<void> => {
    for (const id of watched) {
      const inspected = await client.containers.inspect(id).catch(ignoreGone);
      if (inspected) assert.ok(inspected.State.StartedAt.startsWith('0001-'), `container ${id} on a test network was started (${inspected.State.StartedAt})`);
    }
    for (const id of watched) await client.containers.remove(id, { force: true }).catch(ignoreGone);
    for (const name of networks) await client.networks.remove(name).catch(ignoreGone);
    assert.deepEqual(await hostInterfaces(), interfacesBefore, 'no network interface may appear on the host');
  };
  return {
    async begin() {
      assert.equal(host, engines.podmanHost, 'networks are created only on the private Podman, never on dockerd');
      interfacesBefore = await hostInterfaces();
    },
    async end() {
      try {
        await endChecks();
      } finally {
        await client.close();
      }
    },
    async createNetwork(extra = {}) {
      const name = extra.Name ?? uniqueName('berth-net');
      networks.add(name);
      await client.networks.create({ ...extra, Name: name, Internal: true, Labels: { ...extra.Labels, ...cleanupLabel } });
      return name;
    },
    async createIdleContainer(network) {
      const spec = containerSpec(engines.image, ['true']);
      // The one place a test container gets a mode other than `none`: an internal Podman network, and it never starts.
      const body = { ...spec, HostConfig: { ...spec.HostConfig, NetworkMode: network } };
      const { Id } = await client.containers.create(body, { name: uniqueName('idle') });
      watched.add(Id);
      return Id;
    },
    watch(what) {
      if (what.network !== undefined) networks.add(what.network);
      if (what.container !== undefined) watched.add(what.container);
    },
  };
}
