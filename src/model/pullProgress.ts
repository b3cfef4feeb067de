/**
 * Sums a pull's per-layer progress lines into one percentage. Layers report `Downloading` with
 * current/total bytes; a layer that is `Already exists`, `Download complete` or `Pull complete` counts
 * as fully done. No `vscode` here.
 */
import type { PullProgress } from '../engine';

interface Layer {
  current: number;
  total: number;
  done: boolean;
}

const DONE_STATUSES = /^(Already exists|Download complete|Pull complete|Verifying Checksum)/;

export class PullProgressTracker {
  private readonly layers = new Map<string, Layer>();
  private lastPercent = 0;
  private _status = '';

  get status(): string {
    return this._status;
  }

  /** Feeds one line; returns the overall percentage (0–100, never going back). */
  update(line: PullProgress): number {
    if (line.status) this._status = line.id ? `${line.id}: ${line.status}` : line.status;
    if (line.id && line.status && /^[0-9a-f]{12,}$/.test(line.id)) {
      const layer = this.layers.get(line.id) ?? { current: 0, total: 0, done: false };
      const detail = line.progressDetail;
      if (line.status.startsWith('Downloading') && detail?.total) {
        layer.total = detail.total;
        layer.current = Math.min(detail.current ?? 0, detail.total);
      }
      if (DONE_STATUSES.test(line.status)) {
        layer.done = true;
        if (layer.total > 0) layer.current = layer.total;
      }
      this.layers.set(line.id, layer);
    }
    this.lastPercent = Math.max(this.lastPercent, this.percent());
    return this.lastPercent;
  }

  private percent(): number {
    let total = 0;
    let current = 0;
    let unknown = 0;
    let unknownDone = 0;
    for (const layer of this.layers.values()) {
      if (layer.total > 0) {
        total += layer.total;
        current += layer.done ? layer.total : layer.current;
      } else {
        unknown++;
        if (layer.done) unknownDone++;
      }
    }
    if (total === 0) return unknown === 0 ? 0 : Math.floor((unknownDone / unknown) * 100);
    // Layers of unknown size count once they finish, weighted like an average known layer.
    const known = this.layers.size - unknown;
    const average = total / Math.max(known, 1);
    return Math.floor(((current + unknownDone * average) / (total + unknown * average)) * 100);
  }
}
