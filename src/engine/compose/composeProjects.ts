/**
 * Compose projects as the engine knows them: from the labels Compose puts on every container it makes
 * (`com.docker.compose.*`, the same with docker compose, docker-compose and podman-compose), and the group actions
 * (start, stop, restart, remove every container of a project) done through the Engine API, several at a time.
 * No compose CLI is needed for any of this. Plain Node: the CLI, the extension and the benches share it.
 */
import { DEFAULT_CONCURRENCY, forEachBounded } from '../../common/concurrency';
import { errorMessage } from '../../common/errors';
import type { EngineClient } from '../api';
import { EngineError, type CallOptions, type ContainerState, type ContainerSummary } from '../connection';

export const COMPOSE_LABELS = {
  project: 'com.docker.compose.project',
  service: 'com.docker.compose.service',
  number: 'com.docker.compose.container-number',
  workingDir: 'com.docker.compose.project.working_dir',
  configFiles: 'com.docker.compose.project.config_files',
  oneoff: 'com.docker.compose.oneoff',
} as const;

/** How many engine calls a group action makes at once: the same bound as stopping all containers. */
export const GROUP_CONCURRENCY = DEFAULT_CONCURRENCY;

export interface ComposeMember {
  readonly id: string;
  /** The container's name without its leading `/`. */
  readonly name: string;
  readonly service: string;
  /** The replica number Compose gave it (`web-2`), when it says. */
  readonly number: number | undefined;
  readonly state: ContainerState;
}

export interface ComposeProject {
  readonly name: string;
  /** Where `up` ran: the directory relative paths in the config files start from. */
  readonly workingDir: string | undefined;
  /** The compose files `up` read, as absolute paths (Compose writes them comma-separated). */
  readonly configFiles: readonly string[];
  readonly members: readonly ComposeMember[];
  readonly running: number;
}

/** A summary's or an inspect's labels. */
export type Labels = Readonly<Record<string, string>> | null | undefined;

/** `a.yml,b.yml` as Compose writes it (docker-compose 1.x relative to the working dir, v2 absolute). */
export function configFilesOf(labels: Labels): string[] {
  const text = labels?.[COMPOSE_LABELS.configFiles];
  if (!text) return [];
  const workingDir = labels[COMPOSE_LABELS.workingDir];
  return text
    .split(',')
    .map((file) => file.trim())
    .filter((file) => file.length > 0)
    .map((file) => (file.startsWith('/') || !workingDir ? file : `${workingDir.replace(/\/$/, '')}/${file}`));
}

export function memberOf(summary: ContainerSummary): ComposeMember {
  const labels = summary.Labels ?? {};
  const number = Number.parseInt(labels[COMPOSE_LABELS.number] ?? '', 10);
  const name = (summary.Names[0] ?? summary.Id.slice(0, 12)).replace(/^\//, '');
  return { id: summary.Id, name, service: labels[COMPOSE_LABELS.service] ?? name, number: Number.isFinite(number) ? number : undefined, state: summary.State };
}

const runningStates: ReadonlySet<string> = new Set(['running', 'restarting']);

/** Groups containers by their project label, projects and members sorted by name; the rest is left out. */
export function groupProjects(summaries: readonly ContainerSummary[]): ComposeProject[] {
  const byName = new Map<string, { summaries: ContainerSummary[] }>();
  for (const summary of summaries) {
    const project = summary.Labels?.[COMPOSE_LABELS.project];
    if (!project) continue;
    const entry = byName.get(project) ?? { summaries: [] };
    entry.summaries.push(summary);
    byName.set(project, entry);
  }
  const collator = new Intl.Collator('en', { numeric: true });
  return [...byName.entries()]
    .sort(([a], [b]) => collator.compare(a, b))
    .map(([name, { summaries: list }]) => {
      const members = list.map(memberOf).sort((a, b) => collator.compare(a.name, b.name));
      // The newest container's labels say where the project is now (an `up` from another directory moves it).
      const newest = [...list].sort((a, b) => b.Created - a.Created)[0];
      return {
        name,
        workingDir: newest?.Labels?.[COMPOSE_LABELS.workingDir] || undefined,
        configFiles: configFilesOf(newest?.Labels),
        members,
        running: members.filter((member) => runningStates.has(member.state)).length,
      };
    });
}

export async function listComposeProjects(client: EngineClient, options: CallOptions = {}): Promise<ComposeProject[]> {
  const all = await client.containers.list({ all: true, filters: { label: [COMPOSE_LABELS.project] }, signal: options.signal });
  return groupProjects(all);
}

/** One project, or an error naming the projects there are. */
export async function findComposeProject(client: EngineClient, name: string, options: CallOptions = {}): Promise<ComposeProject> {
  const projects = await listComposeProjects(client, options);
  const project = projects.find((candidate) => candidate.name === name);
  if (project) return project;
  const known = projects.map((candidate) => candidate.name);
  throw new EngineError('not-found', `No Compose project named "${name}" on this engine`, {
    hint: known.length > 0 ? `Projects with containers here: ${known.join(', ')}` : 'No container on this engine carries a Compose project label: run `compose up` first',
  });
}

export type GroupAction = 'start' | 'stop' | 'restart' | 'remove';

export interface GroupActionOptions extends CallOptions {
  readonly timeoutSeconds?: number | undefined;
  /** Remove: also the anonymous volumes (`docker rm -v`). */
  readonly volumes?: boolean | undefined;
  readonly concurrency?: number | undefined;
  /** Called as each container is done, failed or not, in the order they finish. */
  readonly onSettled?: ((member: ComposeMember, error: EngineError | undefined) => void) | undefined;
}

export interface GroupActionResult {
  readonly done: ComposeMember[];
  readonly failed: Array<{ member: ComposeMember; error: EngineError }>;
}

/** Which members an action has something to do for: start the stopped ones, stop the running ones. */
export function membersFor(action: GroupAction, members: readonly ComposeMember[]): ComposeMember[] {
  if (action === 'start') return members.filter((member) => !runningStates.has(member.state) && member.state !== 'paused');
  if (action === 'stop') return members.filter((member) => runningStates.has(member.state) || member.state === 'paused');
  return [...members];
}

/**
 * Runs one action on each member, at most `concurrency` at once. A failure is recorded for its container and the
 * others go on; a cancellation stops taking new ones and throws `cancelled` saying how far it got.
 */
export async function actOnMembers(client: EngineClient, action: GroupAction, members: readonly ComposeMember[], options: GroupActionOptions = {}): Promise<GroupActionResult> {
  const result: { done: ComposeMember[]; failed: Array<{ member: ComposeMember; error: EngineError }> } = { done: [], failed: [] };
  const { signal, timeoutSeconds } = options;
  await forEachBounded(members, options.concurrency ?? GROUP_CONCURRENCY, async (member) => {
    if (signal?.aborted) return;
    let failure: EngineError | undefined;
    try {
      if (action === 'start') await client.containers.start(member.id, { signal });
      else if (action === 'stop') await client.containers.stop(member.id, { timeoutSeconds, signal });
      else if (action === 'restart') await client.containers.restart(member.id, { timeoutSeconds, signal });
      else await client.containers.remove(member.id, { force: true, volumes: options.volumes, signal });
    } catch (error) {
      failure = error instanceof EngineError ? error : new EngineError('server', errorMessage(error), { cause: error });
    }
    if (failure) result.failed.push({ member, error: failure });
    else result.done.push(member);
    options.onSettled?.(member, failure);
  }, signal);
  if (signal?.aborted) throw new EngineError('cancelled', `Cancelled after ${result.done.length + result.failed.length} of ${members.length} containers`);
  return result;
}

/** The CLI's and the bench's entry: the project's current members, then the action on those it concerns. */
export async function actOnProject(client: EngineClient, project: string, action: GroupAction, options: GroupActionOptions = {}): Promise<GroupActionResult> {
  const found = await findComposeProject(client, project, options);
  return actOnMembers(client, action, membersFor(action, found.members), options);
}
