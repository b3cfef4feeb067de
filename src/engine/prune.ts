/**
 * Prune, planned then done: `planPrune` lists exactly what a prune would remove (names and the total size) and what
 * it keeps because it is in use, from the same filters the engine applies; `runPrune` makes the one engine call per
 * kind and reports the space the engine says it reclaimed. An empty plan never reaches the engine: "nothing to remove".
 * Shared by the extension and the CLI.
 */
import { formatBytes } from '../common/format';
import type { EngineClient, PruneTarget } from './client';
import type { ContainerSummary, ListFilters } from './types';
import type { PruneReport, Volume, VolumeUsage } from './storage-types';
import { isEngineError } from './errors';
import { compareVersions } from './api/connection';
import { containerName, volumesUsedBy, networksUsedBy, PREDEFINED_NETWORKS } from './usage';

export type PruneKind = 'containers' | 'dangling-images' | 'unused-images' | 'volumes' | 'networks' | 'build-cache';

export interface PruneItem {
  readonly name: string;
  /** Bytes, when known. */
  readonly size?: number | undefined;
}

export interface PrunePlanPart {
  readonly kind: PruneKind;
  readonly remove: PruneItem[];
  /** Objects the filters match that stay because something uses them. */
  readonly kept: PruneItem[];
}

export interface PrunePlan {
  readonly parts: PrunePlanPart[];
  /** The filters as the user gave them (`label=a=b`, `until=24h`), already in the engine's form. */
  readonly filters: ListFilters;
}

export interface PruneOutcome {
  readonly kind: PruneKind;
  readonly removed: string[];
  readonly spaceReclaimed: number;
}

export const PRUNE_TITLES: Readonly<Record<PruneKind, string>> = {
  containers: 'stopped containers',
  'dangling-images': 'dangling images',
  'unused-images': 'unused images',
  volumes: 'unused volumes',
  networks: 'unused networks',
  'build-cache': 'build cache',
};

const STOPPED_STATES = new Set(['exited', 'created', 'dead']);

/** `until=24h` / `until=2026-01-01T00:00:00Z` / unix seconds, as the engine reads it, to seconds since the epoch. */
export function untilSeconds(value: string, now = Date.now()): number | undefined {
  const duration = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value);
  if (duration) {
    const scale = { ms: 0.001, s: 1, m: 60, h: 3600 }[duration[2] as 'ms' | 's' | 'm' | 'h'];
    return now / 1000 - Number(duration[1]) * scale;
  }
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed / 1000;
}

/** What a prune of these kinds would do, read from the engine now. */
export async function planPrune(client: EngineClient, kinds: readonly PruneKind[], filters: ListFilters = {}, signal?: AbortSignal): Promise<PrunePlan> {
  const labelOnly = pick(filters, ['label', 'label!']);
  const needsContainers = kinds.some((kind) => kind !== 'build-cache' && kind !== 'dangling-images');
  const containers = needsContainers ? await client.listContainers({ all: true, filters: labelFiltersFor(kinds, labelOnly), signal }) : [];
  const allContainers = needsContainers ? await client.listContainers({ all: true, signal }) : [];
  const until = filters['until']?.[0];
  const before = until !== undefined ? untilSeconds(until) : undefined;
  const oldEnough = (created: number): boolean => before === undefined || created < before;
  const parts: PrunePlanPart[] = [];
  for (const kind of kinds) {
    if (kind === 'containers') parts.push(planContainers(containers, oldEnough));
    else if (kind === 'volumes') parts.push(await planVolumes(client, labelOnly, allContainers, signal));
    else if (kind === 'networks') parts.push(await planNetworks(client, labelOnly, allContainers, signal));
    else if (kind === 'build-cache') parts.push(await planBuildCache(client, signal));
    else parts.push(await planImages(client, kind, labelOnly, allContainers, oldEnough, signal));
  }
  return { parts, filters };
}

function labelFiltersFor(kinds: readonly PruneKind[], labels: ListFilters): ListFilters {
  return kinds.includes('containers') ? labels : {};
}

function planContainers(containers: ContainerSummary[], oldEnough: (created: number) => boolean): PrunePlanPart {
  const remove: PruneItem[] = [];
  const kept: PruneItem[] = [];
  for (const container of containers) {
    const item = { name: containerName(container) };
    if (STOPPED_STATES.has(container.State) && oldEnough(container.Created)) remove.push(item);
    else if (!STOPPED_STATES.has(container.State)) kept.push(item);
  }
  return { kind: 'containers', remove, kept };
}

async function planVolumes(client: EngineClient, labels: ListFilters, containers: ContainerSummary[], signal?: AbortSignal): Promise<PrunePlanPart> {
  const volumes = await client.listVolumes({ filters: labels, signal });
  // A created, never started container has no Mounts in its summary yet; /system/df's RefCount counts it.
  const used = volumesUsedBy(containers);
  const usage = await volumeUsage(client, signal);
  const remove: PruneItem[] = [];
  const kept: PruneItem[] = [];
  for (const volume of volumes) {
    const data = usage.get(volume.Name);
    const item = { name: volume.Name, size: data !== undefined && data.Size >= 0 ? data.Size : undefined };
    (used.has(volume.Name) || (data?.RefCount ?? 0) > 0 ? kept : remove).push(item);
  }
  return { kind: 'volumes', remove, kept };
}

async function volumeUsage(client: EngineClient, signal?: AbortSignal): Promise<Map<string, VolumeUsage>> {
  const usage = new Map<string, VolumeUsage>();
  for (const volume of (await client.diskUsage({ signal })).Volumes ?? ([] as Volume[])) {
    if (volume.UsageData) usage.set(volume.Name, volume.UsageData);
  }
  return usage;
}

async function planNetworks(client: EngineClient, labels: ListFilters, containers: ContainerSummary[], signal?: AbortSignal): Promise<PrunePlanPart> {
  const networks = await client.listNetworks({ filters: labels, signal });
  const used = networksUsedBy(containers);
  const remove: PruneItem[] = [];
  const kept: PruneItem[] = [];
  for (const network of networks) {
    if (PREDEFINED_NETWORKS.has(network.Name)) continue;
    (used.has(network.Name) ? kept : remove).push({ name: network.Name });
  }
  return { kind: 'networks', remove, kept };
}

async function planImages(
  client: EngineClient,
  kind: 'dangling-images' | 'unused-images',
  labels: ListFilters,
  containers: ContainerSummary[],
  oldEnough: (created: number) => boolean,
  signal?: AbortSignal,
): Promise<PrunePlanPart> {
  const images = await client.listImages({ filters: kind === 'dangling-images' ? { ...labels, dangling: ['true'] } : labels, signal });
  const usedIds = new Set(containers.map((container) => container.ImageID));
  const remove: PruneItem[] = [];
  const kept: PruneItem[] = [];
  for (const image of images) {
    const item = { name: image.RepoTags?.find((tag) => tag !== '<none>:<none>') ?? image.Id.replace(/^sha256:/, '').slice(0, 12), size: image.Size };
    if (usedIds.has(image.Id)) kept.push(item);
    else if (oldEnough(image.Created)) remove.push(item);
  }
  return { kind, remove, kept };
}

async function planBuildCache(client: EngineClient, signal?: AbortSignal): Promise<PrunePlanPart> {
  const usage = await client.diskUsage({ signal });
  const remove: PruneItem[] = [];
  const kept: PruneItem[] = [];
  for (const record of usage.BuildCache ?? []) {
    (record.InUse ? kept : remove).push({ name: record.Description ?? record.ID, size: record.Size });
  }
  return { kind: 'build-cache', remove, kept };
}

export function planIsEmpty(plan: PrunePlan): boolean {
  return plan.parts.every((part) => part.remove.length === 0);
}

export function planTotal(plan: PrunePlan): number {
  return plan.parts.reduce((sum, part) => sum + part.remove.reduce((total, item) => total + (item.size ?? 0), 0), 0);
}

/** Runs the planned prunes, one engine call per kind, in docker system prune's order. */
export async function runPrune(client: EngineClient, plan: PrunePlan, signal?: AbortSignal): Promise<PruneOutcome[]> {
  const outcomes: PruneOutcome[] = [];
  for (const part of plan.parts) {
    const { target, filters } = await engineCall(client, part.kind, plan.filters, signal);
    const report = await pruneRacing(client, target, filters, signal);
    outcomes.push({ kind: part.kind, removed: report.removed, spaceReclaimed: report.spaceReclaimed });
  }
  return outcomes;
}

/** dockerd refuses a second prune while one runs (409); Podman fails on an object another client removed meanwhile. */
const RACE = /prune operation is already running|no such (volume|container|image|network)|not found in database/i;
const RACE_ATTEMPTS = 5;

/**
 * One prune that another client's prune or removal does not fail: the engine's refusal or its "no such …" for an
 * object that went meanwhile is answered by pruning again (what is gone is no longer a candidate).
 */
async function pruneRacing(client: EngineClient, target: PruneTarget, filters: ListFilters, signal?: AbortSignal): Promise<PruneReport> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.prune(target, { filters, signal });
    } catch (error) {
      if (attempt >= RACE_ATTEMPTS || !isEngineError(error) || !RACE.test(error.engineMessage ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

async function engineCall(client: EngineClient, kind: PruneKind, filters: ListFilters, signal?: AbortSignal): Promise<{ target: PruneTarget; filters: ListFilters }> {
  switch (kind) {
    case 'containers':
      return { target: 'containers', filters };
    case 'dangling-images':
      return { target: 'images', filters: { ...filters, dangling: ['true'] } };
    case 'unused-images':
      return { target: 'images', filters: { ...filters, dangling: ['false'] } };
    case 'networks':
      return { target: 'networks', filters };
    case 'build-cache':
      return { target: 'build', filters: pick(filters, ['until']) };
    case 'volumes': {
      // Since API 1.42 a volume prune removes only anonymous volumes unless asked for all; Berth prunes every unused one.
      const version = await client.negotiatedVersion({ signal });
      const volumeFilters = pick(filters, ['label', 'label!']);
      return { target: 'volumes', filters: compareVersions(version, '1.42') >= 0 ? { ...volumeFilters, all: ['true'] } : volumeFilters };
    }
  }
}

function pick(filters: ListFilters, keys: readonly string[]): ListFilters {
  const picked: ListFilters = {};
  for (const key of keys) if (filters[key] !== undefined) picked[key] = filters[key];
  return picked;
}

/** The one-line summary after a prune, from the engine's own figures. */
export function describeOutcome(outcomes: readonly PruneOutcome[]): string {
  const removed = outcomes.reduce((sum, outcome) => sum + outcome.removed.length, 0);
  const reclaimed = outcomes.reduce((sum, outcome) => sum + outcome.spaceReclaimed, 0);
  if (removed === 0 && reclaimed === 0) return 'Nothing to remove (another client may have removed it first)';
  return `Removed ${removed} object${removed === 1 ? '' : 's'}; reclaimed ${formatBytes(reclaimed)}`;
}
