// One harness for the tests that talk to a real engine. `useEngineSuite()` is called at the top of a test file or
// inside a `describe`; it registers that scope's `before` (the engine must answer, or the suite fails once with the
// command that starts the engines) and `after` (every container the suite made is force-removed, its clients closed),
// and hands out the client and a container factory. Containers carry a marker label of their own suite, so cleanup
// also finds those made some other way (runContainer, the CLI) when they were given `suite.labels`.
import { after, before } from 'node:test';
import { EngineClient, isEngineError, type ContainerCreateBody, type FromEnvironmentOptions } from '../../src/engine';
import { containerSpec, type ContainerSpecExtra } from './containerSpec';
import { pingEngine } from './cleanup';
import { networkGuard, type NetworkGuard } from './networkGuard';
import { cleanupLabel, loadTestEngines, startCommand, uniqueName, type TestEngines } from './engines';

export interface EngineSuiteOptions {
  /** unix:// URL of the engine; the private dockerd when absent. */
  readonly host?: string | undefined;
  /** Names the suite's marker label, to find its containers by hand. */
  readonly name?: string | undefined;
  /** The target's skip reason (engineTargets): its cases are skipped, so the hooks leave the engine alone too. */
  readonly skip?: string | undefined;
}

export interface EngineSuite {
  readonly engines: TestEngines;
  readonly host: string;
  /** A client of `host`, closed when the suite ends. */
  readonly client: EngineClient;
  /** Unique to this suite: the value of its `berth.test.marker` label, usable in image names once lower-cased. */
  readonly marker: string;
  /** `berth.test=1` plus this suite's marker: give them to containers made without the factory. */
  readonly labels: Readonly<Record<string, string>>;
  /** A `filters` value that lists exactly this suite's containers. */
  readonly filters: Readonly<Record<string, string[]>>;
  /** A create body (the test image unless `extra.Image`) with the suite's labels and `NetworkMode: 'none'` (see containerSpec). */
  readonly spec: (cmd?: readonly string[], extra?: ContainerSpecExtra) => ContainerCreateBody;
  /** Creates a container from spec(cmd, extra); it is removed when the suite ends. Resolves its id. */
  readonly createContainer: (cmd?: readonly string[], extra?: ContainerSpecExtra, name?: string) => Promise<string>;
  /** Another client (other environment, other endpoint), closed when the suite ends. */
  readonly otherClient: (options: FromEnvironmentOptions) => EngineClient;
  /** A step for the suite's end (images, files): runs after its containers are removed, before its clients close. */
  readonly cleanup: (step: () => unknown) => void;
}

export function useEngineSuite(options: EngineSuiteOptions = {}): EngineSuite {
  const engines = loadTestEngines();
  const host = options.host ?? engines.dockerHost;
  const client = EngineClient.fromEnvironment({ host });
  const clients: EngineClient[] = [client];
  /** Ids from the factory: found even when a test replaced the marker label with one of its own. */
  const created = new Set<string>();
  const steps: Array<() => unknown> = [];
  const marker = uniqueName(options.name ?? 'suite');
  const labels = Object.freeze({ ...cleanupLabel, 'berth.test.marker': marker });
  const filters = Object.freeze({ label: [`berth.test.marker=${marker}`] });
  const spec = (cmd?: readonly string[], extra: ContainerSpecExtra = {}): ContainerCreateBody =>
    containerSpec(extra.Image ?? engines.image, cmd, { ...extra, Labels: { ...labels, ...extra.Labels } });

  before(async () => {
    if (options.skip !== undefined) return;
    // A raw ping, not the client's: the client under test stays untouched (no negotiation, no pingInfo) until a test uses it.
    if (!(await pingEngine(host))) throw new Error(`The test engine at ${host} does not answer. Run: ${startCommand}`);
  });

  after(async () => {
    try {
      if (options.skip !== undefined) return;
      for (const container of await client.containers.list({ all: true, filters })) created.add(container.Id);
      for (const id of created) {
        try {
          await client.containers.remove(id, { force: true });
        } catch (error) {
          // Gone meanwhile (AutoRemove, or a test removed it): nothing left to clean.
          if (!isEngineError(error, 'not-found')) throw error;
        }
      }
      for (const step of steps) await step();
    } finally {
      await Promise.all(clients.map((each) => each.close()));
    }
  });

  return {
    engines,
    host,
    client,
    marker,
    labels,
    filters,
    spec,
    createContainer: async (cmd, extra, name) => {
      const { Id } = await client.containers.create(spec(cmd, extra), { name });
      created.add(Id);
      return Id;
    },
    otherClient: (clientOptions) => {
      const other = EngineClient.fromEnvironment(clientOptions);
      clients.push(other);
      return other;
    },
    cleanup: (step) => {
      steps.push(step);
    },
  };
}

/** networkGuard (test/support/networkGuard.ts) for an engine suite on the private Podman: begins in its `before`, ends in its `after`. */
export function useNetworkGuard(suite: EngineSuite): NetworkGuard {
  const guard = networkGuard(suite.host, suite.engines);
  before(() => guard.begin());
  after(() => guard.end());
  return guard;
}
