/**
 * The last listing of an engine, kept on disk so the next window draws its Containers and Images views before the
 * engine has answered (a 5,000-container listing takes the engine 0.5-3 s). The model shows it only while its first
 * connection is being made, says so in the views, and replaces it with the engine's own listing the moment that
 * arrives. No `vscode` here: the directory is handed in (the extension's global storage).
 *
 * What is kept is what the rows draw, not the whole summary: the command line and labels other than Compose's and
 * Podman's can carry secrets, and never go to disk. The file is named by a hash of the endpoint, so no host or
 * socket path is written either.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { ContainerSummary, ImageSummary } from '../engine';
import type { StatusClock } from './statusClock';

/** Bumped when the shape changes: a file of another version is not read. */
const FORMAT = 1;
/** Labels the rows read (Compose grouping, Podman's pods); every other label stays off the disk. */
const KEPT_LABEL = /^(com\.docker\.compose\.|io\.podman\.|com\.docker\.swarm\.)/;
/** A partial file older than this was left by a window that died while writing it: no save takes nearly as long. */
export const ABANDONED_PARTIAL_MS = 10 * 60_000;

export interface SavedContainer {
  readonly summary: ContainerSummary;
  /** The row's clock as the model had it (exact after an inspect), so a saved row ages from the engine's times. */
  readonly clock: StatusClock | undefined;
}

export interface SavedListing {
  /** Unix ms when the model last matched the engine. */
  readonly savedAt: number;
  readonly containers: readonly SavedContainer[];
  readonly images: readonly ImageSummary[];
}

export interface SavedListingStore {
  /** The saved listing, or undefined: none yet, another format, or a damaged file (then DAMAGED says why). */
  load(damaged?: (reason: string) => void): Promise<SavedListing | undefined>;
  save(listing: SavedListing): Promise<void>;
}

/** What a saved container keeps of its summary. */
export function savedSummary(summary: ContainerSummary): ContainerSummary {
  const labels = Object.fromEntries(Object.entries(summary.Labels ?? {}).filter(([key]) => KEPT_LABEL.test(key)));
  const { Command: _command, Labels: _labels, NetworkSettings: _network, ...rest } = summary as ContainerSummary & Record<string, unknown>;
  return { ...rest, Command: '', Labels: labels };
}

/** One file per engine endpoint under DIR. */
export class SavedListingFile implements SavedListingStore {
  private readonly file: string;

  constructor(
    private readonly dir: string,
    endpointKey: string,
  ) {
    this.file = join(dir, `listing-${createHash('sha256').update(endpointKey).digest('hex').slice(0, 24)}.json`);
  }

  async load(damaged?: (reason: string) => void): Promise<SavedListing | undefined> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return undefined; // none saved yet
    }
    try {
      return parseSavedListing(JSON.parse(text));
    } catch (error) {
      damaged?.(`${this.file}: ${(error as Error).message}`);
      return undefined;
    }
  }

  async save(listing: SavedListing): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const text = JSON.stringify({ format: FORMAT, ...listing, containers: listing.containers.map((saved) => ({ ...saved, summary: savedSummary(saved.summary) })) });
    // Another window may save the same engine: each writes its own file and renames it over, so a reader never
    // sees half of one.
    const partial = `${this.file}.${process.pid}.${Date.now()}`;
    try {
      await writeFile(partial, text, { mode: 0o600 });
      await rename(partial, this.file);
    } catch (error) {
      // A write that failed (a full disk) leaves nothing behind; the error still goes to the caller's log.
      await rm(partial, { force: true });
      throw error;
    }
    await this.removeAbandonedPartials(Date.now());
  }

  /** Partial files of this engine's listing that a window which died mid-write left (named `<file>.<pid>.<ms>`). */
  private async removeAbandonedPartials(nowMs: number): Promise<void> {
    const prefix = `${basename(this.file)}.`;
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.startsWith(prefix)) continue;
      const writtenAt = Number(name.slice(prefix.length).split('.')[1]);
      if (Number.isFinite(writtenAt) && nowMs - writtenAt > ABANDONED_PARTIAL_MS) await rm(join(this.dir, name), { force: true });
    }
  }
}

/** Checks the shape it relies on; throws with what is wrong. A file of another format reads as none. */
export function parseSavedListing(value: unknown): SavedListing | undefined {
  const data = value as { format?: unknown; savedAt?: unknown; containers?: unknown; images?: unknown } | null;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('not a JSON object');
  if (typeof data.format !== 'number') throw new Error('no format number');
  if (data.format !== FORMAT) return undefined;
  if (typeof data.savedAt !== 'number' || !Number.isFinite(data.savedAt)) throw new Error('no savedAt time');
  if (!Array.isArray(data.containers) || !Array.isArray(data.images)) throw new Error('no containers or images list');
  for (const saved of data.containers as Array<{ summary?: { Id?: unknown; State?: unknown } } | null>) {
    if (typeof saved?.summary?.Id !== 'string' || typeof saved.summary.State !== 'string') throw new Error('a container without an Id or State');
  }
  for (const image of data.images as Array<{ Id?: unknown } | null>) {
    if (typeof image?.Id !== 'string') throw new Error('an image without an Id');
  }
  return { savedAt: data.savedAt, containers: data.containers as SavedContainer[], images: data.images as ImageSummary[] };
}
