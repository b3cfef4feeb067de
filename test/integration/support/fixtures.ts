// Helpers for the suite running inside the extension host: the test engines, an engine client for changing the
// engine from OUTSIDE the extension, and polling of the extension's model snapshot (docs/extension.md).
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { EngineClient, isEngineError, type ContainerInspect } from '../../../src/engine';
import { loadTestEngines, parseTestEngines, uniqueName, type TestEngines } from '../../support/engines';
import {
  ENGINE_KIND_ENV, canonicalImageId, engineHostFor, parseEngineKind, sameReference, type EngineKind,
} from './engineKind';
import { containerSpec } from '../../support/containerSpec';
import { eventually as waitFor } from '../../support/wait';

export { sleep } from '../../support/wait';

export const EXTENSION_ID = 'berth.berth';

export interface ModelSnapshot {
  state: 'connecting' | 'connected' | 'unreachable';
  endpoint: string;
  reason?: string;
  containers: Array<{ id: string; name: string; state: string; image: string }>;
  images: Array<{ id: string; tags: string[]; containers: number }>;
}

/** The engines the runner handed over (BERTH_TEST_ENGINES), else engines.json. */
export function testEngines(): TestEngines {
  const handed = process.env.BERTH_TEST_ENGINES;
  return handed ? parseTestEngines(handed, 'BERTH_TEST_ENGINES') : loadTestEngines();
}

/** The engine this pass of the matrix targets: the one berth.engine.host names, which the suite changes from outside. */
export interface SuiteEngine {
  readonly kind: EngineKind;
  readonly host: string;
  /** Compares image references the way this engine spells them (Podman adds `localhost/` or `docker.io/`). */
  sameReference(actual: string, expected: string): boolean;
  /** Image ids comparable across inspect (bare hex on Podman) and list/commit answers (`sha256:` prefixed). */
  canonicalImageId(id: string): string;
}

export function suiteEngine(engines: TestEngines = testEngines()): SuiteEngine {
  const kind = parseEngineKind(process.env[ENGINE_KIND_ENV]);
  return {
    kind,
    host: engineHostFor(engines, kind),
    sameReference: (actual, expected) => sameReference(kind, actual, expected),
    canonicalImageId: (id) => canonicalImageId(kind, id),
  };
}

/**
 * Skips a test (or a whole `describe`, from its `before`) that needs something only the private dockerd offers,
 * printing why, so the Podman pass's report shows each skip and its reason.
 */
export function skipUnlessDocker(context: Mocha.Context, reason: string): void {
  if (suiteEngine().kind === 'docker') return;
  console.log(`      skipped on ${suiteEngine().kind}: ${reason}`);
  context.skip();
}

export function engineClient(host: string): EngineClient {
  return EngineClient.fromEnvironment({ host, env: {} });
}

export async function activateBerth(): Promise<void> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  await extension.activate();
}

export async function snapshot(): Promise<ModelSnapshot> {
  const value = await vscode.commands.executeCommand<ModelSnapshot | undefined>('berth.internal.modelSnapshot');
  if (!value) throw new Error('berth.internal.modelSnapshot returned nothing');
  return value;
}

/** Polls until `check` returns a value (not undefined), every 100 ms; a check that throws is tried again. */
export function eventually<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  return waitFor(what, check, { timeoutMs, intervalMs: 100, retryErrors: true });
}

/** Waits until the model shows the container in `state` (or shows it absent, for `state === 'absent'`). */
/** `state` is a container state, or 'absent'. */
export async function modelShowsContainer(id: string, state: string, timeoutMs?: number): Promise<ModelSnapshot> {
  let seen = '';
  try {
    return await eventually(
      `the model to show container ${id.slice(0, 12)} as ${state}`,
      async () => {
        const current = await snapshot();
        const entry = current.containers.find((container) => container.id === id);
        seen = entry ? entry.state : 'absent';
        return seen === state ? current : undefined;
      },
      timeoutMs,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; last seen: ${seen}`);
  }
}

export async function modelState(state: ModelSnapshot['state'], timeoutMs = 30_000): Promise<ModelSnapshot> {
  let last: ModelSnapshot | undefined;
  try {
    return await eventually(`the model state ${state}`, async () => {
      last = await snapshot();
      return last.state === state ? last : undefined;
    }, timeoutMs);
  } catch (error) {
    // Which engine the extension follows, and where its host setting comes from, says why it never got there.
    const host = vscode.workspace.getConfiguration('berth').inspect<string>('engine.host');
    throw new Error(`${String(error)}; last state ${last?.state ?? 'unknown'}; berth.engine.host ${JSON.stringify(host)}`);
  }
}

export interface TestContainerSpec {
  cmd: string[];
  name?: string;
  tty?: boolean;
  labels?: Record<string, string>;
  start?: boolean;
  /** Another image than the shared test image (one a test made; it is the test's to remove). */
  image?: string;
  /** HostConfig.PortBindings (the container keeps NetworkMode none: Docker keeps them and never publishes them, Podman drops them). */
  portBindings?: Record<string, Array<{ HostIp: string; HostPort: string }>>;
}

/**
 * Containers one test file made (from outside the extension, or through its commands), removed by id at the end.
 * Never a sweep over the shared label: other suites run against the same dockerd at the same time.
 */
export class TestContainers {
  private readonly ids = new Set<string>();
  private readonly images = new Set<string>();

  constructor(
    readonly client: EngineClient,
    readonly image: string,
  ) {}

  /** Creates (and by default starts) a labelled, network-less container from the test image. */
  async create(spec: TestContainerSpec): Promise<{ id: string; name: string }> {
    const name = spec.name ?? uniqueName('berth-it');
    const ports = spec.portBindings
      ? { ExposedPorts: Object.fromEntries(Object.keys(spec.portBindings).map((key) => [key, {}])), HostConfig: { PortBindings: spec.portBindings } }
      : {};
    const { Id } = await this.client.containers.create(containerSpec(spec.image ?? this.image, spec.cmd, { Tty: spec.tty ?? false, Labels: spec.labels, ...ports }), { name });
    this.ids.add(Id);
    if (spec.start ?? true) await this.client.containers.start(Id);
    return { id: Id, name };
  }

  /** Adopts a container the extension created, so cleanup removes it too. */
  track(id: string): string {
    this.ids.add(id);
    return id;
  }

  trackImage(reference: string): string {
    this.images.add(reference);
    return reference;
  }

  async cleanup(): Promise<void> {
    for (const id of this.ids) {
      try {
        await this.client.containers.remove(id, { force: true });
      } catch (error) {
        if (!isEngineError(error, 'not-found')) throw error;
      }
    }
    this.ids.clear();
    for (const reference of this.images) await removeImageQuietly(this.client, reference);
    this.images.clear();
  }
}

/** Inspect, or undefined when the container no longer exists. */
export async function inspectOrUndefined(client: EngineClient, id: string): Promise<ContainerInspect | undefined> {
  try {
    return await client.containers.inspect(id);
  } catch (error) {
    if (isEngineError(error, 'not-found')) return undefined;
    throw error;
  }
}

/** Runs a command in a running container and returns its combined output (used to read back what a shell did). */
export async function execOutput(client: EngineClient, id: string, cmd: string[]): Promise<string> {
  const { Id } = await client.exec.create(id, { cmd, tty: true });
  const stream = await client.exec.startAttached(Id, { tty: true });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Writes a setting in the workspace (its folder's .vscode/settings.json), which wins over the user and remote
 * settings the runner wrote; `undefined` removes it again.
 */
/** Resolves once an exec of `program` runs in the container (how a test knows an attached shell is ready). */
export async function execRunning(client: EngineClient, id: string, program: string, timeoutMs = 30_000): Promise<void> {
  await eventually(`a running ${program} exec in ${id.slice(0, 12)}`, async () => {
    const execIds = ((await client.containers.inspect(id))['ExecIDs'] as string[] | null) ?? [];
    for (const execId of execIds) {
      const exec = await client.exec.inspect(execId);
      if (exec.Running && exec.ProcessConfig?.entrypoint === program) return true;
    }
    return undefined;
  }, timeoutMs);
}

/** Settings a workspace may not choose without the user's consent (workbench/workspaceConsent.ts): the user's own. */
const ENGINE_SETTINGS = new Set(['engine.host', 'engines']);

/** Writes a `berth.*` setting as a user would: engine hosts in the user's settings, the rest in the workspace's. */
export async function setBerthSetting(key: string, value: unknown): Promise<void> {
  const target = ENGINE_SETTINGS.has(key) ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
  // Clearing berth.engine.host puts back the value the workbench was launched with, not none: code-server drops its
  // machine-level copy of the setting from the configuration it re-sends after a later workspace write, and the
  // extension would then fall back to the default socket for every suite after.
  const written = key === 'engine.host' && value === undefined ? suiteEngine().host : value;
  await vscode.workspace.getConfiguration('berth').update(key, written, target);
}

/** Removes an image, ignoring "not found" (cleanup). */
export async function removeImageQuietly(client: EngineClient, reference: string): Promise<void> {
  try {
    await client.images.remove(reference, { force: true });
  } catch (error) {
    if (!isEngineError(error, 'not-found')) throw error;
  }
}

export { uniqueName };

/** The text of the "Berth" LogOutputChannel, read from its file under the code-server user-data dir. */
export async function berthLogText(): Promise<string> {
  const root = process.env.BERTH_VSCODE_USER_DATA_DIR;
  if (!root) throw new Error('BERTH_VSCODE_USER_DATA_DIR is not set (run the suite through test/integration/run.ts)');
  const files = (await readdir(join(root, 'logs'), { recursive: true }))
    .filter((relative) => basename(relative) === 'Berth.log')
    .map((relative) => join(root, 'logs', relative));
  if (files.length === 0) throw new Error(`no Berth.log under ${root}/logs`);
  const texts = await Promise.all(files.map((file) => readFile(file, 'utf8')));
  return texts.join('\n');
}

/** One tree row as rendered (`berth.internal.viewChildren`, docs/extension.md). */
export interface TreeRow {
  id: string | undefined;
  label: string;
  description: string | undefined;
  contextValue: string | undefined;
  tooltip: string | undefined;
  collapsible: boolean;
}

export type BerthView = 'containers' | 'images' | 'volumes' | 'networks' | 'events';

/** The rows under `path` (labels from the root; `[]` = the roots) of the Containers or Images view. */
export async function viewRows(view: BerthView, path: readonly string[] = []): Promise<TreeRow[]> {
  const rows = await vscode.commands.executeCommand<TreeRow[] | undefined>('berth.internal.viewChildren', view, path);
  if (!Array.isArray(rows)) throw new Error('berth.internal.viewChildren returned no rows');
  return rows;
}

/**
 * Polls the rows under `path` until `pick` finds what it looks for; the timeout names `what` and the labels last seen,
 * so a failure shows what the tree held instead.
 */
export async function viewShows<T>(
  view: BerthView,
  path: readonly string[],
  what: string,
  pick: (rows: TreeRow[]) => T | undefined,
  timeoutMs?: number,
): Promise<T> {
  let seen: TreeRow[] = [];
  try {
    return await eventually(what, async () => {
      seen = await viewRows(view, path);
      return pick(seen);
    }, timeoutMs);
  } catch (error) {
    const rows = seen.map((row) => `${row.label} [${row.description ?? ''}] ${row.contextValue ?? ''}`).join('\n  ');
    throw new Error(`${(error as Error).message}; the ${view} view under [${path.join(' › ')}] held:\n  ${rows}`);
  }
}

/** The engines Berth shows (`berth.internal.engines`). */
export interface EngineSummary {
  id: string;
  name: string;
  origin: 'local' | 'context' | 'podman' | 'settings';
  endpoint: string;
  state: 'connecting' | 'connected' | 'unreachable';
  status: string;
  current: boolean;
  product?: 'Docker' | 'Podman';
  version?: string;
  apiVersion?: string;
}

export async function engineSummaries(): Promise<EngineSummary[]> {
  return (await vscode.commands.executeCommand<EngineSummary[] | undefined>('berth.internal.engines')) ?? [];
}

/** Activates Berth, waits for its model to connect, and gives the suite a client and a container fixture. */
export interface ConnectedSuite {
  readonly engines: TestEngines;
  readonly engine: SuiteEngine;
  /** A client of the engine under test, for setting up and checking what the commands did. */
  readonly client: EngineClient;
  /** The suite's containers: removed when it ends. */
  readonly containers: TestContainers;
}

/**
 * The integration counterpart of useEngineSuite(): called inside a `describe`, it registers that suite's `before`
 * (Berth activated and connected) and `after` (its containers removed, then `cleanup`, then its client closed), and
 * hands out the engines, the engine under test, a client and the container factory.
 */
export function useConnectedSuite(cleanup?: () => Promise<void>): ConnectedSuite {
  const engines = testEngines();
  const engine = suiteEngine(engines);
  // A client does no I/O until its first call, so it can exist before the engine is known to answer.
  const client = engineClient(engine.host);
  const containers = new TestContainers(client, engines.image);
  before(async () => {
    await activateBerth();
    await modelState('connected');
  });
  after(async () => {
    try {
      await containers.cleanup();
      await cleanup?.();
    } finally {
      await client.close();
    }
  });
  return { engines, engine, client, containers };
}
