/**
 * Prune, planned then done: `planPrune` lists exactly what a prune removes (names and sizes) and what it keeps
 * because it is in use, read from the engine now with the filters dockerd's prunes accept; `runPrune`
 * (`pruneRun.ts`) removes the planned objects one by one, so nothing outside the plan can go. What the containers
 * removed by the same prune used is planned as kept (in use when the plan is made): a later prune takes it.
 * Berth's own helper containers are not the user's containers: never listed; a volume helper is never a reason to
 * keep a volume.
 * An empty plan never reaches the engine: "nothing to remove". Shared by the extension and the CLI.
 */
import { type EngineClient, type DiskUsage, isBerthHelper, isVolumeHelper, VOLUME_HELPER_LABEL } from '../api';
import type { ContainerSummary, ListFilters } from '../connection';
import { shortId } from '../../common/format';
import { containerName, volumesUsedBy, networksUsedBy, PREDEFINED_NETWORKS } from './usage';
import { matchesPruneLabels, olderThanUntil, validatePruneFilters, type PruneKind } from './pruneFilters';
import type { PruneItem, PrunePlan, PrunePlanPart } from './pruneTypes';

export * from './pruneFilters';
export { runPrune, describeOutcome, type PruneOutcome } from './pruneRun';
export type { PruneItem, PrunePlan, PrunePlanPart } from './pruneTypes';

export const PRUNE_TITLES: Readonly<Record<PruneKind, string>> = {
  containers: 'stopped containers',
  'dangling-images': 'dangling images',
  'unused-images': 'unused images',
  volumes: 'unused volumes',
  networks: 'unused networks',
  'build-cache': 'build cache',
};

const STOPPED_STATES = new Set(['exited', 'created', 'dead', 'stopped', 'configured']);

/** What a prune of these kinds would do, read from the engine now. Refuses a filter the prune does not accept first. */
export async function planPrune(client: EngineClient, kinds: readonly PruneKind[], filters: ListFilters = {}, signal?: AbortSignal): Promise<PrunePlan> {
  validatePruneFilters(kinds, filters);
  const needsContainers = kinds.some((kind) => kind !== 'build-cache');
  const listed = needsContainers ? await client.containers.list({ all: true, signal }) : [];
  const helpers = listed.filter(isVolumeHelper);
  const containers = listed.filter((container) => !isBerthHelper(container));
  const usage = await client.system.df({ signal });
  const parts: PrunePlanPart[] = [];
  for (const kind of kinds) {
    if (kind === 'containers') parts.push(planContainers(containers, filters, usage));
    else if (kind === 'volumes') parts.push(await planVolumes(client, filters, containers, helpers, usage, signal));
    else if (kind === 'networks') parts.push(await planNetworks(client, filters, listed, signal));
    else if (kind === 'build-cache') parts.push(planBuildCache(usage, filters));
    else parts.push(await planImages(client, kind, filters, listed, usage, signal));
  }
  return { parts: parts.map(eachObjectOnce), filters };
}

/**
 * Each object in exactly one list, once: a listing read while objects change can name one object twice (a container
 * once exited, once running). Whatever keeps an object wins, so the confirmation never lists it under both and the
 * removal never takes what one reading saw in use.
 */
export function eachObjectOnce(part: PrunePlanPart): PrunePlanPart {
  const keptIds = new Set<string>();
  const kept = part.kept.filter((item) => !keptIds.has(item.id) && Boolean(keptIds.add(item.id)));
  const removedIds = new Set<string>();
  const remove = part.remove.filter((item) => !keptIds.has(item.id) && !removedIds.has(item.id) && Boolean(removedIds.add(item.id)));
  // An image waits only for planned images: one dropped here is no longer removed, so it is not waited for.
  const planned = remove.map((item) => (item.removeAfter === undefined ? item : { ...item, removeAfter: item.removeAfter.filter((id) => removedIds.has(id)) }));
  return { ...part, remove: planned, kept };
}

/** The containers part from one listing; exported for its tests. */
export function planContainers(containers: ContainerSummary[], filters: ListFilters, usage: DiskUsage): PrunePlanPart {
  const sizes = new Map((usage.Containers ?? []).map((container) => [container.Id, container.SizeRw]));
  const remove: PruneItem[] = [];
  const kept: PruneItem[] = [];
  for (const container of containers) {
    if (!matchesPruneLabels(filters, container.Labels)) continue;
    const item = { name: containerName(container), id: container.Id, size: sizes.get(container.Id) };
    if (!STOPPED_STATES.has(container.State)) kept.push(item);
    else if (olderThanUntil(filters, container.Created)) remove.push(item);
  }
  return { kind: 'containers', remove, kept };
}

async function planVolumes(
  client: EngineClient,
  filters: ListFilters,
  containers: ContainerSummary[],
  helpers: ContainerSummary[],
  usage: DiskUsage,
  signal?: AbortSignal,
): Promise<PrunePlanPart> {
  const volumes = await client.volumes.list({ signal });
  const used = volumesUsedBy(containers);
  const usageOf = new Map((usage.Volumes ?? []).map((volume) => [volume.Name, volume.UsageData]));
  const helpersOf = new Map<string, string[]>();
  for (const helper of helpers) {
    const volume = helper.Labels?.[VOLUME_HELPER_LABEL] ?? '';
    helpersOf.set(volume, [...(helpersOf.get(volume) ?? []), helper.Id]);
  }
  const remove: PruneItem[] = [];
  const kept: PruneItem[] = [];
  for (const volume of volumes) {
    if (!matchesPruneLabels(filters, volume.Labels)) continue;
    const data = usageOf.get(volume.Name);
    const volumeHelpers = helpersOf.get(volume.Name) ?? [];
    const item = { name: volume.Name, id: volume.Name, size: data !== undefined && data !== null && data.Size >= 0 ? data.Size : undefined, helpers: volumeHelpers };
    // A created, never started container has no Mounts in its summary on Podman; /system/df's RefCount counts it
    // (and counts Berth's helpers, which do not keep a volume).
    const references = (data?.RefCount ?? 0) - volumeHelpers.length;
    (used.has(volume.Name) || references > 0 ? kept : remove).push(item);
  }
  return { kind: 'volumes', remove, kept };
}

async function planNetworks(client: EngineClient, filters: ListFilters, containers: ContainerSummary[], signal?: AbortSignal): Promise<PrunePlanPart> {
  const networks = await client.networks.list({ signal });
  const used = networksUsedBy(containers);
  const remove: PruneItem[] = [];
  const kept: PruneItem[] = [];
  for (const network of networks) {
    if (PREDEFINED_NETWORKS.has(network.Name) || !matchesPruneLabels(filters, network.Labels)) continue;
    const item = { name: network.Name, id: network.Id };
    if (used.has(network.Name)) kept.push(item);
    else if (olderThanUntil(filters, Date.parse(network.Created) / 1000)) remove.push(item);
  }
  return { kind: 'networks', remove, kept };
}

async function planImages(
  client: EngineClient,
  kind: 'dangling-images' | 'unused-images',
  filters: ListFilters,
  containers: ContainerSummary[],
  usage: DiskUsage,
  signal?: AbortSignal,
): Promise<PrunePlanPart> {
  const images = await client.images.list({ filters: kind === 'dangling-images' ? { dangling: ['true'] } : {}, signal });
  const topLevel = kind === 'unused-images' ? images : await client.images.list({ signal });
  // With intermediate images: an image's parent can be one of them, between it and the image it was built FROM.
  // Podman gives ParentId without the "sha256:" of Id: ids are compared bare.
  const parentOf = new Map((await client.images.list({ all: true, signal })).map((image) => [bareId(image.Id), bareId(image.ParentId ?? '')]));
  // Every container counts here, helpers too: the engine refuses to remove an image a container was made from.
  const usedIds = new Set(containers.map((container) => container.ImageID));
  const shared = new Map((usage.Images ?? []).map((image) => [image.Id, image.SharedSize > 0 ? image.SharedSize : 0]));
  const candidates: PruneItem[] = [];
  const kept: PruneItem[] = [];
  for (const image of images) {
    if (!matchesPruneLabels(filters, image.Labels)) continue;
    const tags = (image.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>');
    const item = { name: tags[0] ?? shortId(image.Id), id: image.Id, size: Math.max(0, image.Size - (shared.get(image.Id) ?? 0)), tags };
    if (usedIds.has(image.Id)) kept.push(item);
    else if (olderThanUntil(filters, image.Created)) candidates.push(item);
  }
  const planned = new Set(candidates.map((item) => bareId(item.id)));
  const heldByImages = ancestorsOf(topLevel.map((image) => bareId(image.Id)).filter((id) => !planned.has(id)), parentOf);
  const remove = candidates.filter((item) => !heldByImages.has(bareId(item.id)));
  kept.push(...candidates.filter((item) => heldByImages.has(bareId(item.id))));
  // Each planned image waits for the planned images built directly on it (through intermediates), so the removal goes
  // from the newest image down, as the engine requires.
  const builtOn = new Map<string, string[]>();
  for (const item of remove) {
    const base = nearestAncestor(bareId(item.id), parentOf, planned);
    if (base !== undefined) builtOn.set(base, [...(builtOn.get(base) ?? []), item.id]);
  }
  return { kind, remove: remove.map((item) => ({ ...item, removeAfter: builtOn.get(bareId(item.id)) ?? [] })), kept };
}

function bareId(id: string): string {
  return id.replace(/^sha256:/, '');
}

/**
 * Every image the given ones were built from, through intermediate images: the engine refuses to remove an image
 * another image is built from, so an image stays while anything built from it stays. Each image is walked once.
 */
/** The first of `among` that `id` was built from, through images not among them; at most every image once. */
function nearestAncestor(id: string, parentOf: ReadonlyMap<string, string>, among: ReadonlySet<string>): string | undefined {
  let parent = parentOf.get(id);
  for (let steps = 0; parent !== undefined && parent !== '' && steps < parentOf.size; steps++) {
    if (among.has(parent)) return parent;
    parent = parentOf.get(parent);
  }
  return undefined;
}

function ancestorsOf(ids: readonly string[], parentOf: ReadonlyMap<string, string>): Set<string> {
  const ancestors = new Set<string>();
  for (const id of ids) {
    let parent = parentOf.get(id);
    while (parent !== undefined && parent !== '' && !ancestors.has(parent)) {
      ancestors.add(parent);
      parent = parentOf.get(parent);
    }
  }
  return ancestors;
}

function planBuildCache(usage: DiskUsage, filters: ListFilters): PrunePlanPart {
  const remove: PruneItem[] = [];
  const kept: PruneItem[] = [];
  for (const record of usage.BuildCache ?? []) {
    const item = { name: record.Description ?? record.ID, id: record.ID, size: record.Size };
    // The builder reads until as "unused for": from the record's last use.
    if (record.InUse) kept.push(item);
    else if (olderThanUntil(filters, Date.parse(record.LastUsedAt ?? record.CreatedAt) / 1000)) remove.push(item);
  }
  return { kind: 'build-cache', remove, kept };
}

/**
 * When a prune removes containers and also volumes or images: the sentence saying that what those containers use is
 * kept this time (in use when the plan was made), so the list is exactly what goes.
 */
export function keepsWhatRemovedContainersUse(plan: PrunePlan): string | undefined {
  const kinds = new Set(plan.parts.map((part) => part.kind));
  const removesContainers = plan.parts.some((part) => part.kind === 'containers' && part.remove.length > 0);
  const others = ['volumes', 'images'].filter((what) => (what === 'volumes' ? kinds.has('volumes') : kinds.has('unused-images') || kinds.has('dangling-images')));
  if (!removesContainers || others.length === 0) return undefined;
  return `${others.join(' and ').replace(/^./, (first) => first.toUpperCase())} that the removed containers use are kept this time; the next prune removes them.`;
}

export function planIsEmpty(plan: PrunePlan): boolean {
  return plan.parts.every((part) => part.remove.length === 0);
}

export function planTotal(plan: PrunePlan): number {
  return plan.parts.reduce((sum, part) => sum + part.remove.reduce((total, item) => total + (item.size ?? 0), 0), 0);
}
