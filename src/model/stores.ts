/** Keyed stores of containers and images, with the per-image usage count kept up to date incrementally. */
import { splitRepoTag } from '../common/imageName';
import type { ContainerSummary, ImageSummary } from '../engine';
import {
  imageKey,
  sameContainer,
  sameImage,
  toContainerRecord,
  toImageRecord,
  type ContainerRecord,
  type ImageRecord,
} from './records';
import { clockOfSummary, refinesClock } from './statusClock';

export interface Updated<T> {
  readonly previous: T;
  readonly current: T;
}

export type UpsertResult<T> =
  | { readonly kind: 'added'; readonly current: T }
  | { readonly kind: 'updated'; readonly previous: T; readonly current: T }
  | { readonly kind: 'unchanged'; readonly current: T };

/** What both stores offer: their records by key (container id, image key), read-only from outside. */
abstract class RecordStore<R> {
  protected readonly byKey = new Map<string, R>();

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): R | undefined {
    return this.byKey.get(key);
  }

  values(): IterableIterator<R> {
    return this.byKey.values();
  }
}

export class ContainerStore extends RecordStore<ContainerRecord> {
  /**
   * Image key → the references its containers were created from (`busybox:local`, an id, …) → how many. Their sum
   * is the image's container count (what `Containers: -1` in the API leaves out).
   */
  private readonly references = new Map<string, Map<string, number>>();

  usageOf(key: string): number {
    let count = 0;
    for (const containers of this.references.get(key)?.values() ?? []) count += containers;
    return count;
  }

  /**
   * The containers of image `key` created from `tag` (as given, `busybox` for `busybox:latest`, or Podman's
   * qualified form): what one tag row of an image counts, where `usageOf` counts every container of the image.
   */
  usageOfTag(key: string, tag: string): number {
    let count = 0;
    for (const [reference, containers] of this.references.get(key) ?? []) {
      if (tagCandidates(reference).includes(tag)) count += containers;
    }
    return count;
  }

  /** Finds a container by full id, unique id prefix (≥ 4 chars) or name. */
  find(idOrName: string): ContainerRecord | undefined {
    const exact = this.byKey.get(idOrName);
    if (exact) return exact;
    const name = idOrName.replace(/^\//, '');
    let prefixMatch: ContainerRecord | undefined;
    let prefixMatches = 0;
    for (const record of this.byKey.values()) {
      if (record.name === name) return record;
      if (idOrName.length >= 4 && record.id.startsWith(idOrName)) {
        prefixMatch = record;
        prefixMatches++;
      }
    }
    return prefixMatches === 1 ? prefixMatch : undefined;
  }

  /** Returns the result and adds the keys of images whose usage count changed to `usageChanged`. */
  upsert(summary: ContainerSummary, usageChanged: Set<string>): UpsertResult<ContainerRecord> {
    const previous = this.byKey.get(summary.Id);
    const clock = clockOfSummary(summary, Date.now());
    if (previous && sameContainer(previous.summary, summary) && !refinesClock(previous.clock, clock)) return { kind: 'unchanged', current: previous };
    const current = toContainerRecord(summary, clock);
    this.byKey.set(current.id, current);
    if (!previous || previous.imageKey !== current.imageKey || previous.summary.Image !== current.summary.Image) {
      if (previous) this.adjustUsage(previous, -1, usageChanged);
      this.adjustUsage(current, +1, usageChanged);
    }
    return previous ? { kind: 'updated', previous, current } : { kind: 'added', current };
  }

  remove(id: string, usageChanged: Set<string>): ContainerRecord | undefined {
    const previous = this.byKey.get(id);
    if (!previous) return undefined;
    this.byKey.delete(id);
    this.adjustUsage(previous, -1, usageChanged);
    return previous;
  }

  replaceAll(summaries: readonly ContainerSummary[]): void {
    this.byKey.clear();
    this.references.clear();
    const ignored = new Set<string>();
    for (const summary of summaries) this.upsert(summary, ignored);
  }

  clear(): void {
    this.byKey.clear();
    this.references.clear();
  }

  private adjustUsage(record: ContainerRecord, delta: number, changed: Set<string>): void {
    const key = record.imageKey;
    if (!key) return;
    const references = this.references.get(key) ?? new Map<string, number>();
    const reference = record.summary.Image;
    const nextOfReference = (references.get(reference) ?? 0) + delta;
    if (nextOfReference > 0) references.set(reference, nextOfReference);
    else references.delete(reference);
    if (references.size > 0) this.references.set(key, references);
    else this.references.delete(key);
    changed.add(key);
  }
}

/** The names an engine may list a reference under: as given, with `:latest`, and Podman's qualified forms. */
export function tagCandidates(reference: string): string[] {
  const lastSlash = reference.lastIndexOf('/');
  const hasTag = splitRepoTag(reference).tag !== undefined || reference.includes('@');
  const tagged = hasTag ? reference : `${reference}:latest`;
  const candidates = [reference, tagged];
  const firstPart = reference.slice(0, Math.max(reference.indexOf('/'), 0));
  // A first part with a dot, a colon or `localhost` is a registry already; anything else is qualified by the engine.
  const hasRegistry = firstPart !== '' && (firstPart.includes('.') || firstPart.includes(':') || firstPart === 'localhost');
  if (!hasRegistry) {
    candidates.push(`localhost/${tagged}`);
    candidates.push(lastSlash === -1 ? `docker.io/library/${tagged}` : `docker.io/${tagged}`);
  }
  return candidates;
}

export class ImageStore extends RecordStore<ImageRecord> {
  /** Tag → image key; a tag names one image at a time. */
  private readonly byTag = new Map<string, string>();

  /**
   * By id (with or without `sha256:`, or a unique prefix of ≥ 4 chars) or by tag. A tag also matches the
   * fully qualified names Podman lists (`localhost/app:1`, `docker.io/library/busybox:latest`).
   */
  find(idOrTag: string): ImageRecord | undefined {
    for (const tag of tagCandidates(idOrTag)) {
      const byTag = this.byTag.get(tag);
      if (byTag) return this.byKey.get(byTag);
    }
    const key = imageKey(idOrTag);
    const exact = this.byKey.get(key);
    if (exact) return exact;
    if (key.length < 4) return undefined;
    const matches = [...this.byKey.values()].filter((record) => record.key.startsWith(key));
    return matches.length === 1 ? matches[0] : undefined;
  }

  /**
   * Inserts or replaces an image. A tag that moved here from another image is taken off that one
   * (its record is replaced too and reported in `displaced`).
   */
  upsert(summary: ImageSummary, displaced: Array<Updated<ImageRecord>>): UpsertResult<ImageRecord> {
    const current = toImageRecord(summary);
    const previous = this.byKey.get(current.key);
    if (previous && sameImage(previous.summary, summary)) return { kind: 'unchanged', current: previous };
    if (previous) for (const tag of previous.tags) this.byTag.delete(tag);
    for (const tag of current.tags) {
      const holder = this.byTag.get(tag);
      if (holder && holder !== current.key) {
        const other = this.byKey.get(holder);
        if (other) {
          const remaining = other.tags.filter((t) => t !== tag);
          const replaced: ImageRecord = {
            ...other,
            tags: remaining,
            summary: { ...other.summary, RepoTags: remaining },
          };
          this.byKey.set(holder, replaced);
          displaced.push({ previous: other, current: replaced });
        }
      }
      this.byTag.set(tag, current.key);
    }
    this.byKey.set(current.key, current);
    return previous ? { kind: 'updated', previous, current } : { kind: 'added', current };
  }

  remove(key: string): ImageRecord | undefined {
    const previous = this.byKey.get(key);
    if (!previous) return undefined;
    this.byKey.delete(key);
    for (const tag of previous.tags) if (this.byTag.get(tag) === key) this.byTag.delete(tag);
    return previous;
  }

  replaceAll(summaries: readonly ImageSummary[]): void {
    this.clear();
    for (const summary of summaries) this.upsert(summary, []);
  }

  clear(): void {
    this.byKey.clear();
    this.byTag.clear();
  }
}
