/** The model's own records: wire summaries plus the derived fields every view needs. No `vscode` here. */
import { shortId } from '../common/format';
import { sameFields } from '../common/objects';
import type { ContainerSummary, ImageInspect, ImageSummary } from '../engine';
import { clockOfSummary, type StatusClock } from './statusClock';

export const COMPOSE_PROJECT_LABEL = 'com.docker.compose.project';
export const SWARM_LABEL_PREFIX = 'com.docker.swarm.';

export interface ContainerRecord {
  /** Full 64-hex id. */
  readonly id: string;
  /** Name without the leading `/`. */
  readonly name: string;
  readonly state: string;
  /** Image id without `sha256:`, to join with image records. */
  readonly imageKey: string;
  readonly composeProject: string | undefined;
  readonly summary: ContainerSummary;
  /** Renders `summary.Status` for any moment; undefined where the text never changes (`Created`). */
  readonly clock: StatusClock | undefined;
}

export interface ImageRecord {
  /** Image id without `sha256:`: Docker and Podman disagree on the prefix. */
  readonly key: string;
  /**
   * The id with its `sha256:` prefix, as listings give it. Podman's inspect leaves the prefix out, so an image
   * refetched after an event would otherwise change id form.
   */
  readonly id: string;
  /** Real tags only (`<none>:<none>` of old engines dropped). */
  readonly tags: readonly string[];
  readonly summary: ImageSummary;
}

const RUNNING_STATES = new Set(['running', 'paused', 'restarting']);

/** A container in one of these states has a process: it can be stopped, attached to, waited for. */
export function isRunningState(state: string): boolean {
  return RUNNING_STATES.has(state);
}

export type ContainerHealth = 'healthy' | 'unhealthy' | 'starting';

/** From the status the engines word after each health_status event: `Up 5 minutes (unhealthy)`, `(health: starting)`. */
export function containerHealth(record: ContainerRecord): ContainerHealth | undefined {
  const match = /\((healthy|unhealthy|health: starting)\)/.exec(record.summary.Status ?? '');
  if (!match || !isRunningState(record.state)) return undefined;
  return match[1] === 'health: starting' ? 'starting' : (match[1] as ContainerHealth);
}

export function imageKey(id: string): string {
  return id.startsWith('sha256:') ? id.slice('sha256:'.length) : id;
}

export function containerName(summary: Pick<ContainerSummary, 'Names' | 'Id'>): string {
  const first = summary.Names?.[0];
  return first ? first.replace(/^\//, '') : shortId(summary.Id);
}

/** `clock` defaults to the summary's own (exact after an inspect, else read from its words as of now). */
export function toContainerRecord(summary: ContainerSummary, clock = clockOfSummary(summary, Date.now())): ContainerRecord {
  return {
    id: summary.Id,
    name: containerName(summary),
    state: summary.State,
    imageKey: imageKey(summary.ImageID ?? ''),
    composeProject: summary.Labels?.[COMPOSE_PROJECT_LABEL] || undefined,
    summary,
    clock,
  };
}

export function realTags(repoTags: readonly string[] | null | undefined): string[] {
  return (repoTags ?? []).filter((tag) => tag !== '<none>:<none>' && !tag.endsWith(':<none>'));
}

export function toImageRecord(summary: ImageSummary): ImageRecord {
  const key = imageKey(summary.Id);
  const id = /^[0-9a-f]{64}$/.test(summary.Id) ? `sha256:${summary.Id}` : summary.Id;
  return { key, id, tags: realTags(summary.RepoTags), summary };
}

/** An image inspect is what a single-image fetch returns; the model keeps listing-shaped records. */
export function imageSummaryFromInspect(inspect: ImageInspect): ImageSummary {
  const created = Date.parse(inspect.Created);
  const parent = inspect['Parent'];
  const digests = inspect['RepoDigests'];
  return {
    Id: inspect.Id,
    ParentId: typeof parent === 'string' ? parent : '',
    RepoTags: inspect.RepoTags ?? [],
    RepoDigests: Array.isArray(digests) ? digests.filter((d): d is string => typeof d === 'string') : [],
    Created: Number.isFinite(created) ? Math.floor(created / 1000) : 0,
    Size: inspect.Size,
    Labels: inspect.Config?.Labels ?? null,
    Containers: -1,
  };
}

export function isSwarmManaged(summary: Pick<ContainerSummary, 'Labels'>): boolean {
  return Object.keys(summary.Labels ?? {}).some((label) => label.startsWith(SWARM_LABEL_PREFIX));
}

const CONTAINER_FIELDS_SHOWN = ['State', 'Status', 'Image', 'ImageID', 'Command', 'Created'] as const;

/** Cheap equality of what the views show, so a refetch that changed nothing refreshes nothing. */
export function sameContainer(a: ContainerSummary, b: ContainerSummary): boolean {
  return (
    sameFields(a, b, CONTAINER_FIELDS_SHOWN) &&
    (a.Names ?? []).join() === (b.Names ?? []).join() &&
    JSON.stringify(a.Ports ?? []) === JSON.stringify(b.Ports ?? []) &&
    JSON.stringify(a.Labels ?? {}) === JSON.stringify(b.Labels ?? {})
  );
}

export function sameImage(a: ImageSummary, b: ImageSummary): boolean {
  return (
    a.Id === b.Id &&
    a.Size === b.Size &&
    a.Created === b.Created &&
    realTags(a.RepoTags).join() === realTags(b.RepoTags).join()
  );
}
