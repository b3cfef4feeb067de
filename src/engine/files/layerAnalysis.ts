/**
 * What each layer of an image adds, changes and removes, and the space lost to files that a later layer overwrites
 * or removes. Pure: it works on the layer entries `savedImage.ts` read and the image's history.
 *
 * Wasted bytes are the sizes of file versions that are no longer visible in the image: overwritten by a later layer,
 * removed by a whiteout (`.wh.<name>`), or hidden by an opaque directory (`.wh..wh..opq`). Efficiency is the share of
 * all file bytes in all layers that is still visible: 1 when nothing is wasted. (dive's score divides each path's
 * smallest version by the sum of its versions; this one answers "how much of what was shipped is used".)
 */
import type { LayerEntryKind, LayerTarEntry, SavedImageContents } from './savedImage';
import type { ImageHistoryEntry } from '../connection';

export type LayerFileChange = 'added' | 'changed' | 'removed';

export interface LayerFile {
  readonly path: string;
  readonly kind: LayerEntryKind;
  readonly change: LayerFileChange;
  /** The file's size; for a removal, the bytes of what it removed. */
  readonly size: number;
  readonly linkTarget: string;
}

export interface AnalyzedLayer {
  /** Position in the image's layers, 0 = the base. */
  readonly index: number;
  /** The layer tar's path in the saved image (to read one of its files later). */
  readonly tarPath: string;
  /** Its entry in the history (newest first, as the engine lists it), when it could be matched. */
  readonly historyIndex: number | undefined;
  /** Bytes of the files the layer holds. */
  readonly bytes: number;
  /** Bytes of this layer's files that later layers overwrote or removed. */
  readonly wastedBytes: number;
  readonly files: readonly LayerFile[];
}

export interface WastedPath {
  readonly path: string;
  /** Bytes of the versions of this path that are not visible in the image. */
  readonly bytes: number;
  /** How many layers held a version of it. */
  readonly versions: number;
}

export interface ImageLayerAnalysis {
  readonly imageId: string;
  readonly history: readonly ImageHistoryEntry[];
  readonly layers: readonly AnalyzedLayer[];
  /** history index → layer index; undefined for an empty layer (ENV, CMD, LABEL…) or one that could not be matched. */
  readonly layerOfHistory: readonly (number | undefined)[];
  readonly totalBytes: number;
  readonly wastedBytes: number;
  /** 0…1; 1 when nothing is wasted. */
  readonly efficiency: number;
  /** The paths that waste the most, largest first (at most WASTED_PATHS_KEPT). */
  readonly wastedPaths: readonly WastedPath[];
}

export const WASTED_PATHS_KEPT = 20;

interface ManifestEntry {
  readonly Config?: unknown;
  readonly Layers?: unknown;
}

interface ConfigHistory {
  readonly empty_layer?: unknown;
}

/** The layer tars of the first image in manifest.json, oldest first, and its config's history (oldest first). */
export function manifestOf(contents: SavedImageContents): { layerPaths: string[]; configHistory: ConfigHistory[] | undefined } {
  const manifest = contents.documents.get('manifest.json');
  const first = Array.isArray(manifest) ? (manifest[0] as ManifestEntry | undefined) : undefined;
  if (first === undefined || !Array.isArray(first.Layers) || !first.Layers.every((layer) => typeof layer === 'string')) {
    throw new Error('it has no manifest.json naming its layers');
  }
  const config = typeof first.Config === 'string' ? (contents.documents.get(first.Config) as { history?: unknown } | undefined) : undefined;
  const configHistory = Array.isArray(config?.history) ? (config.history as ConfigHistory[]) : undefined;
  return { layerPaths: first.Layers.map((path) => path.replace(/^\.?\//, '')), configHistory };
}

/**
 * Which history entry made which layer. The config's history, oldest first, marks the steps that made no layer
 * (`empty_layer`); the engine's history is the same list newest first. When the two disagree in length, the entries
 * with a size are taken as the layers, if they are as many.
 */
export function matchHistory(history: readonly ImageHistoryEntry[], configHistory: readonly ConfigHistory[] | undefined, layerCount: number): (number | undefined)[] {
  const count = history.length;
  let makesLayer: boolean[];
  if (configHistory !== undefined && configHistory.length === count) {
    makesLayer = history.map((_entry, index) => configHistory[count - 1 - index]?.empty_layer !== true);
  } else {
    makesLayer = history.map((entry) => entry.Size > 0);
  }
  if (makesLayer.filter(Boolean).length !== layerCount) return history.map(() => undefined);
  const result: (number | undefined)[] = new Array<number | undefined>(count).fill(undefined);
  let layer = 0;
  for (let index = count - 1; index >= 0; index--) if (makesLayer[index] === true) result[index] = layer++;
  return result;
}

interface Visible {
  kind: LayerEntryKind;
  size: number;
  layer: number;
}

/** The image's file system as the layers so far make it: path → what is visible there, and each directory's children. */
class VisibleTree {
  private readonly entries = new Map<string, Visible>();
  private readonly children = new Map<string, Set<string>>();

  get(path: string): Visible | undefined {
    return this.entries.get(path);
  }

  set(path: string, value: Visible): void {
    this.entries.set(path, value);
    let child = path;
    for (let parent = parentOf(child); ; parent = parentOf(child)) {
      let set = this.children.get(parent);
      if (set === undefined) this.children.set(parent, (set = new Set()));
      if (set.has(child)) return;
      set.add(child);
      if (parent === '') return;
      child = parent;
    }
  }

  /** Removes `path` and everything under it; calls `onRemoved` for each visible entry removed. */
  remove(path: string, onRemoved: (path: string, value: Visible) => void): void {
    this.removeChildren(path, onRemoved);
    const value = this.entries.get(path);
    if (value !== undefined) {
      this.entries.delete(path);
      onRemoved(path, value);
    }
    this.children.get(parentOf(path))?.delete(path);
  }

  /** Children of `path` (not itself), as an opaque directory hides them. Returns the removed direct children. */
  removeChildren(path: string, onRemoved: (path: string, value: Visible) => void): string[] {
    const direct = [...(this.children.get(path) ?? [])];
    // Depth-first with an explicit stack: a deep tree from a hostile engine must not overflow the call stack.
    const stack = [...direct];
    while (stack.length > 0) {
      const current = stack.pop() as string;
      const below = this.children.get(current);
      if (below !== undefined) {
        stack.push(...below);
        this.children.delete(current);
      }
      const value = this.entries.get(current);
      if (value !== undefined) {
        this.entries.delete(current);
        onRemoved(current, value);
      }
    }
    this.children.delete(path);
    return direct;
  }
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

const WHITEOUT = '.wh.';
const OPAQUE = '.wh..wh..opq';

export function analyzeLayers(imageId: string, history: readonly ImageHistoryEntry[], contents: SavedImageContents): ImageLayerAnalysis {
  const { layerPaths, configHistory } = manifestOf(contents);
  const layerOfHistory = matchHistory(history, configHistory, layerPaths.length);
  const historyOfLayer = new Map<number, number>();
  layerOfHistory.forEach((layer, index) => {
    if (layer !== undefined) historyOfLayer.set(layer, index);
  });
  const tree = new VisibleTree();
  const wastedByLayer = layerPaths.map(() => 0);
  const wastedByPath = new Map<string, { bytes: number; versions: number }>();
  let totalBytes = 0;
  let wastedBytes = 0;
  const waste = (path: string, value: Visible): number => {
    if (value.kind !== 'file' || value.size === 0) return 0;
    wastedBytes += value.size;
    wastedByLayer[value.layer] = (wastedByLayer[value.layer] ?? 0) + value.size;
    const entry = wastedByPath.get(path) ?? { bytes: 0, versions: 1 };
    entry.bytes += value.size;
    wastedByPath.set(path, entry);
    return value.size;
  };

  const layers = layerPaths.map((tarPath, index) => {
    const entries = contents.layerTars.get(tarPath) ?? [];
    const files: LayerFile[] = [];
    let bytes = 0;
    // A layer's whiteouts and opaque directories hide what the layers below hold, never what the layer itself adds.
    for (const entry of entries) {
      const name = entry.path.slice(entry.path.lastIndexOf('/') + 1);
      if (!name.startsWith(WHITEOUT)) continue;
      const directory = parentOf(entry.path);
      if (name === OPAQUE) {
        let removedBytes = 0;
        const removed = tree.removeChildren(directory, (path, value) => (removedBytes += waste(path, value)));
        for (const path of removed) files.push({ path, kind: 'other', change: 'removed', size: 0, linkTarget: '' });
        if (removed.length > 0) files.push({ path: directory, kind: 'directory', change: 'changed', size: removedBytes, linkTarget: '' });
      } else if (!name.startsWith(`${WHITEOUT}${WHITEOUT}`)) {
        const target = directory === '' ? name.slice(WHITEOUT.length) : `${directory}/${name.slice(WHITEOUT.length)}`;
        const before = tree.get(target);
        let removedBytes = 0;
        tree.remove(target, (path, value) => (removedBytes += waste(path, value)));
        files.push({ path: target, kind: before?.kind ?? 'other', change: 'removed', size: removedBytes, linkTarget: '' });
      }
    }
    for (const entry of entries) {
      const name = entry.path.slice(entry.path.lastIndexOf('/') + 1);
      if (name.startsWith(WHITEOUT)) continue;
      bytes += entry.size;
      const before = tree.get(entry.path);
      if (before?.kind === 'directory' && entry.kind === 'directory') {
        // Layer tars repeat the directories above each changed path; a directory already there is not news.
        before.layer = index;
        continue;
      }
      if (before !== undefined) {
        if (before.kind === 'directory') tree.removeChildren(entry.path, waste);
        waste(entry.path, before);
        const counted = wastedByPath.get(entry.path);
        if (counted !== undefined) counted.versions++;
      }
      tree.set(entry.path, { kind: entry.kind, size: entry.size, layer: index });
      files.push(layerFile(entry, before === undefined ? 'added' : 'changed'));
    }
    totalBytes += bytes;
    return { index, tarPath, historyIndex: historyOfLayer.get(index), bytes, wastedBytes: 0, files };
  });

  const analyzed: AnalyzedLayer[] = layers.map((layer) => ({ ...layer, wastedBytes: wastedByLayer[layer.index] ?? 0 }));
  const wastedPaths = [...wastedByPath]
    .map(([path, { bytes, versions }]) => ({ path, bytes, versions }))
    .sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : 1))
    .slice(0, WASTED_PATHS_KEPT);
  return {
    imageId,
    history,
    layers: analyzed,
    layerOfHistory,
    totalBytes,
    wastedBytes,
    efficiency: totalBytes === 0 ? 1 : (totalBytes - wastedBytes) / totalBytes,
    wastedPaths,
  };
}

function layerFile(entry: LayerTarEntry, change: LayerFileChange): LayerFile {
  return { path: entry.path, kind: entry.kind, change, size: entry.size, linkTarget: entry.linkTarget };
}
