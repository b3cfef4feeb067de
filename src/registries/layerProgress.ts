/**
 * Sums the per-layer progress lines of a pull or push (`{status, id, progressDetail:{current,total}}`) into one
 * figure for a progress notification. Pure, so the CLI can use it too.
 */
import type { PullProgress } from '../engine/types';

const DONE_STATUSES = /^(pushed|layer already exists|already exists|pull complete|download complete|mounted from)/i;

export interface LayerTotals {
  readonly current: number;
  readonly total: number;
  readonly layers: number;
  readonly doneLayers: number;
}

export class LayerProgress {
  readonly #layers = new Map<string, { current: number; total: number; done: boolean }>();
  #digest: string | undefined;

  /** Feeds one progress line; returns true when the totals changed. */
  update(line: PullProgress & { aux?: { Digest?: unknown } }): boolean {
    const digest = typeof line.aux?.Digest === 'string' ? line.aux.Digest : /digest: (sha256:[0-9a-f]{64})/.exec(line.status ?? '')?.[1];
    if (digest) this.#digest = digest;
    const id = line.id;
    if (!id || !line.status || /^(the push refers|using default tag)/i.test(line.status)) return false;
    // A tag line ("latest: digest: …") carries the tag as id: not a layer.
    if (/digest: /.test(line.status)) return false;
    const layer = this.#layers.get(id) ?? { current: 0, total: 0, done: false };
    const detail = line.progressDetail;
    if (typeof detail?.total === 'number' && detail.total > 0) layer.total = detail.total;
    if (typeof detail?.current === 'number') layer.current = Math.min(detail.current, layer.total || detail.current);
    if (DONE_STATUSES.test(line.status)) {
      layer.done = true;
      layer.current = layer.total;
    }
    this.#layers.set(id, layer);
    return true;
  }

  get totals(): LayerTotals {
    let current = 0;
    let total = 0;
    let doneLayers = 0;
    for (const layer of this.#layers.values()) {
      current += layer.current;
      total += layer.total;
      if (layer.done) doneLayers++;
    }
    return { current, total, layers: this.#layers.size, doneLayers };
  }

  /** The manifest digest the registry reported at the end of a push. */
  get digest(): string | undefined {
    return this.#digest;
  }
}

/** `12.3 MB` style, decimal units like the docker CLI. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
