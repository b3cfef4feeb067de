// The private test engines started by `bash scripts/engines.sh start`, as its engines.json describes them,
// plus small helpers every engine test needs. Plain Node: no `vscode`, nothing from src/.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface TestRegistry {
  /** host:port of the loopback registry, e.g. 127.0.0.1:5055 (plain HTTP, htpasswd auth). */
  readonly address: string;
  readonly username: string;
  readonly password: string;
}

export interface TestEngines {
  readonly stateDir: string;
  /** unix:// URL of the private dockerd. */
  readonly dockerHost: string;
  /** unix:// URL of the Podman service; absent when Podman cannot run containers on this machine. */
  readonly podmanHost?: string;
  readonly registry: TestRegistry;
  /** Present in dockerd and Podman; CMD ["/bin/sh"] and every busybox applet in /bin. */
  readonly image: string;
  /** Pushed to the registry, pulling them needs credentials; not present in the engines at start. */
  readonly registryImages: readonly string[];
}

export interface TestEngineTarget {
  readonly name: 'docker' | 'podman';
  readonly host: string;
  /**
   * Why this engine's cases are skipped (Podman cannot run containers on this developer's machine); pass it as each
   * case's `{ skip }` so the cases stay in the counts. Never set under CI=true: there they run, and fail.
   */
  readonly skip?: string;
}

export const startCommand = 'bash scripts/engines.sh start';

/** Label every test container carries, so a suite can find and remove what it left behind. */
export const cleanupLabel: Readonly<Record<string, string>> = Object.freeze({ 'berth.test': '1' });

/** The same label as an Engine API `filters` value for list calls. */
export const cleanupFilters: Readonly<Record<string, string[]>> = Object.freeze({ label: ['berth.test=1'] });

export function testStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.BERTH_STATE_DIR?.trim();
  return fromEnv ? resolve(fromEnv) : '/tmp/berth-state';
}

/** Reads $BERTH_STATE_DIR/engines.json; throws a message naming the command to run when it is missing. */
export function loadTestEngines(env: NodeJS.ProcessEnv = process.env): TestEngines {
  const file = join(testStateDir(env), 'engines.json');
  if (!existsSync(file)) {
    throw new Error(`No test engines: ${file} does not exist. Run: ${startCommand}`);
  }
  const engines = parseTestEngines(readFileSync(file, 'utf8'), file);
  const dockerSocket = unixSocketPath(engines.dockerHost);
  if (!existsSync(dockerSocket)) {
    throw new Error(`Test engines are stopped: ${dockerSocket} is missing. Run: ${startCommand}`);
  }
  return engines;
}

/** Validates the JSON written by scripts/engines.sh; `source` names the file in error messages. */
export function parseTestEngines(text: string, source: string): TestEngines {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not valid JSON (${(error as Error).message}). Run: ${startCommand}`);
  }
  const problem = (what: string): Error => new Error(`${source}: ${what}. Run: ${startCommand}`);
  if (!isRecord(raw)) throw problem('expected a JSON object');
  const registry = raw.registry;
  if (!isRecord(registry)) throw problem('"registry" must be an object');
  const registryImages = raw.registryImages;
  if (!Array.isArray(registryImages) || !registryImages.every((ref) => typeof ref === 'string')) {
    throw problem('"registryImages" must be an array of strings');
  }
  const podmanHost = raw.podmanHost;
  if (podmanHost !== undefined) requireUnixUrl(podmanHost, 'podmanHost', problem);
  return {
    stateDir: requireString(raw.stateDir, 'stateDir', problem),
    dockerHost: requireUnixUrl(raw.dockerHost, 'dockerHost', problem),
    ...(typeof podmanHost === 'string' ? { podmanHost } : {}),
    registry: {
      address: requireString(registry.address, 'registry.address', problem),
      username: requireString(registry.username, 'registry.username', problem),
      password: requireString(registry.password, 'registry.password', problem),
    },
    image: requireString(raw.image, 'image', problem),
    registryImages: [...registryImages],
  };
}

/** Where the Podman cases point when engines.json has no podmanHost: a socket that does not exist. */
export const missingPodmanHost = 'unix:///nonexistent/berth-podman-cannot-run-here.sock';

/**
 * The engines a suite that must pass on both Docker and Podman iterates over: always both, so no file can make its
 * Podman cases disappear. Without a usable Podman the Podman target carries a `skip` reason on a developer's
 * machine; under CI=true it carries none, and its cases fail against a socket that does not exist.
 */
export function engineTargets(engines: TestEngines, env: NodeJS.ProcessEnv = process.env): TestEngineTarget[] {
  const docker: TestEngineTarget = { name: 'docker', host: engines.dockerHost };
  if (engines.podmanHost) return [docker, { name: 'podman', host: engines.podmanHost }];
  if (env.CI === 'true') return [docker, { name: 'podman', host: missingPodmanHost }];
  return [docker, { name: 'podman', host: missingPodmanHost, skip: podmanMissingReason }];
}

export const podmanMissingReason = 'engines.json has no podmanHost: Podman cannot run containers on this machine (CI=true fails here)';

/** The filesystem path of a unix:// engine URL. */
export function unixSocketPath(host: string): string {
  if (!host.startsWith('unix://')) throw new Error(`Not a unix:// engine address: ${host}`);
  return host.slice('unix://'.length);
}

/**
 * A container or image name no other test (or parallel run) uses, valid for the engine's
 * name rule `^/?[a-zA-Z0-9][a-zA-Z0-9_.-]+$`. Characters outside that rule become `-`.
 */
export function uniqueName(prefix: string): string {
  const cleaned = prefix.replace(/[^a-zA-Z0-9_.-]/g, '-').replace(/^[^a-zA-Z0-9]+/, '');
  const stem = cleaned === '' ? 'berth-test' : cleaned;
  return `${stem}-${process.pid.toString(36)}-${randomBytes(4).toString('hex')}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(value: unknown, field: string, problem: (what: string) => Error): string {
  if (typeof value !== 'string' || value === '') throw problem(`"${field}" must be a non-empty string`);
  return value;
}

function requireUnixUrl(value: unknown, field: string, problem: (what: string) => Error): string {
  const url = requireString(value, field, problem);
  if (!url.startsWith('unix:///')) throw problem(`"${field}" must be a unix:// URL, got ${url}`);
  return url;
}
