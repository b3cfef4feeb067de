/**
 * Running the user's compose implementation: which one (detected once, in the order `docker compose` v2,
 * `docker-compose`, `podman compose`, `podman-compose`, unless a setting names one), the argument array for a
 * command (never a shell line), and the environment that points the child process at the engine the explorer shows.
 * Plain Node: the probe that runs a program is injected, so detection and arguments are unit-tested.
 */
import { basename, dirname } from 'node:path';
import { type Endpoint, childProcess } from '../connection';

export type ComposeImplementationId = 'docker compose' | 'docker-compose' | 'podman compose' | 'podman-compose';

export interface ComposeImplementation {
  readonly id: ComposeImplementationId;
  /** The program to run, and the words that come before compose's own arguments (`docker` + `compose`). */
  readonly command: string;
  readonly prefix: readonly string[];
  /** podman-compose 1.0 knows no `--profile`: profiles become the list of services they enable. */
  readonly profiles: boolean;
  /** The child reads CONTAINER_HOST (podman's remote client) rather than DOCKER_HOST. */
  readonly podman: boolean;
}

export const COMPOSE_IMPLEMENTATIONS: readonly ComposeImplementation[] = [
  { id: 'docker compose', command: 'docker', prefix: ['compose'], profiles: true, podman: false },
  { id: 'docker-compose', command: 'docker-compose', prefix: [], profiles: true, podman: false },
  { id: 'podman compose', command: 'podman', prefix: ['compose'], profiles: true, podman: false },
  { id: 'podman-compose', command: 'podman-compose', prefix: [], profiles: false, podman: true },
];

/** Runs `command args` (no shell) and says whether it exited 0. */
export type ProgramProbe = (command: string, args: readonly string[]) => Promise<boolean>;

export const execProbe: ProgramProbe = (command, args) =>
  new Promise((resolve) => {
    childProcess().execFile(command, [...args], { timeout: 15_000, windowsHide: true }, (error) => resolve(error === null));
  });

export class ComposeNotFoundError extends Error {
  override readonly name = 'ComposeNotFoundError';
}

/** What the probe asks each candidate: a `version` that only a working installation answers. */
function versionArgs(implementation: ComposeImplementation): string[] {
  return implementation.id === 'podman-compose' ? ['--version'] : [...implementation.prefix, 'version'];
}

/**
 * The first implementation that answers, or the one `setting` names ('auto' or empty: detect). A named one that
 * does not answer is an error too: silently using another would act with the wrong tool.
 */
export async function detectComposeImplementation(setting: string | undefined, probe: ProgramProbe = execProbe): Promise<ComposeImplementation> {
  const wanted = (setting ?? '').trim();
  if (wanted !== '' && wanted !== 'auto') {
    const named = COMPOSE_IMPLEMENTATIONS.find((candidate) => candidate.id === wanted);
    if (!named) throw new ComposeNotFoundError(`The setting berth.compose.implementation is "${wanted}"; use one of: auto, ${COMPOSE_IMPLEMENTATIONS.map((c) => c.id).join(', ')}`);
    if (await probe(named.command, versionArgs(named))) return named;
    throw new ComposeNotFoundError(`"${named.id} ${versionArgs(named).slice(named.prefix.length).join(' ')}" did not run. Install it, or set berth.compose.implementation to auto`);
  }
  for (const candidate of COMPOSE_IMPLEMENTATIONS) if (await probe(candidate.command, versionArgs(candidate))) return candidate;
  throw new ComposeNotFoundError(
    `No Compose implementation found: tried ${COMPOSE_IMPLEMENTATIONS.map((c) => `"${c.id}"`).join(', ')} on the PATH. ` +
      'Install one (the Docker Compose plugin, or e.g. `apt-get install docker-compose` or `apt-get install podman-compose`), ' +
      'or point berth.compose.implementation at the one you have. The group actions (start, stop, restart, remove) need none',
  );
}

export type ComposeCommand = 'up' | 'down' | 'restart' | 'pull' | 'build';
export const COMPOSE_COMMANDS: readonly ComposeCommand[] = ['up', 'down', 'restart', 'pull', 'build'];

export interface ComposeRun {
  readonly files: readonly string[];
  readonly command: ComposeCommand;
  readonly projectName?: string | undefined;
  readonly services?: readonly string[] | undefined;
  readonly profiles?: readonly string[] | undefined;
  /** Down: also the named volumes the project declares (`down -v`). */
  readonly volumes?: boolean | undefined;
  /**
   * For implementations without `--profile`: the services the chosen profiles enable (with those that have no
   * profile), which are then named one by one. Computed by the caller from the files.
   */
  readonly servicesOfProfiles?: readonly string[] | undefined;
}

/** The argument array after the program: `[compose] -f A -f B [-p P] [--profile X] up -d [services]`. */
export function composeArguments(implementation: ComposeImplementation, run: ComposeRun): string[] {
  const args = [...implementation.prefix];
  for (const file of run.files) args.push('-f', file);
  if (run.projectName) args.push('-p', run.projectName);
  const profiles = run.profiles ?? [];
  if (implementation.profiles) for (const profile of profiles) args.push('--profile', profile);
  let services = [...(run.services ?? [])];
  if (!implementation.profiles && profiles.length > 0 && services.length === 0 && run.command !== 'down') services = [...(run.servicesOfProfiles ?? [])];
  switch (run.command) {
    case 'up':
      args.push('up', '-d');
      break;
    case 'down':
      args.push('down');
      if (run.volumes) args.push('-v');
      // `down` takes no services: it removes the whole project.
      return args;
    default:
      args.push(run.command);
  }
  // `--` ends the options, so a service name can never be read as one.
  if (services.length > 0) args.push('--', ...services);
  return args;
}

/**
 * The variables that make the child act on `endpoint`, and those to remove from the inherited environment (a
 * DOCKER_CONTEXT or DOCKER_HOST the user's shell has would point it elsewhere). A context endpoint is passed as
 * DOCKER_CONTEXT, so its own TLS files and ssh settings apply; others as DOCKER_HOST with their TLS variables.
 */
export function composeEnvironment(implementation: ComposeImplementation, endpoint: Endpoint): { set: Record<string, string>; unset: string[] } {
  if (implementation.podman) {
    // podman's remote client: unix and ssh URLs as Docker writes them; CONTAINER_HOST switches it to remote.
    return { set: { CONTAINER_HOST: endpoint.host }, unset: ['CONTAINER_CONNECTION', 'DOCKER_HOST'] };
  }
  const unset = ['DOCKER_HOST', 'DOCKER_CONTEXT', 'DOCKER_TLS_VERIFY', 'DOCKER_TLS', 'DOCKER_CERT_PATH'];
  if (endpoint.context && endpoint.context !== 'default' && (endpoint.source === 'DOCKER_CONTEXT' || endpoint.source === 'config-context')) {
    return { set: { DOCKER_CONTEXT: endpoint.context }, unset: unset.filter((name) => name !== 'DOCKER_CONTEXT') };
  }
  const set: Record<string, string> = { DOCKER_HOST: endpoint.host };
  const tls = endpoint.tls;
  if (tls) {
    if (tls.verify) set['DOCKER_TLS_VERIFY'] = '1';
    else set['DOCKER_TLS'] = '1';
    const files = [tls.caFile, tls.certFile, tls.keyFile].filter((file): file is string => file !== undefined);
    // DOCKER_CERT_PATH is a directory of ca.pem, cert.pem and key.pem, the only names the docker tools read there.
    if (files[0] !== undefined) set['DOCKER_CERT_PATH'] = dirname(files[0]);
  }
  return { set, unset: unset.filter((name) => !(name in set)) };
}

/** The inherited environment with `change` applied, for a child process. */
export function applyEnvironment(base: NodeJS.ProcessEnv, change: { set: Record<string, string>; unset: readonly string[] }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined && !change.unset.includes(key)) env[key] = value;
  return { ...env, ...change.set };
}

/** Whether DOCKER_CERT_PATH can carry these files (the docker tools read only ca.pem, cert.pem and key.pem). */
export function certFilesHaveStandardNames(endpoint: Endpoint): boolean {
  const tls = endpoint.tls;
  if (!tls) return true;
  const pairs: Array<[string | undefined, string]> = [[tls.caFile, 'ca.pem'], [tls.certFile, 'cert.pem'], [tls.keyFile, 'key.pem']];
  return pairs.every(([file, name]) => file === undefined || basename(file) === name);
}

/** The label of a run in the task list and terminal: `docker-compose up (web, db)`. */
export function describeRun(implementation: ComposeImplementation, run: ComposeRun): string {
  const what = [...(run.services ?? []), ...(run.profiles ?? []).map((profile) => `profile ${profile}`)];
  return `${implementation.id} ${run.command}${run.volumes ? ' -v' : ''}${what.length > 0 ? ` (${what.join(', ')})` : ''}`;
}
