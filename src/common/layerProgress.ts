/**
 * The one aggregator of a pull's or push's per-layer progress lines (`{status, id, progressDetail}`): summed bytes,
 * finished layers, a percentage that never goes back, the latest status and the pushed manifest digest.
 * A layer is done once a line says so (pulled, pushed, already there, or its download verified); a done layer
 * counts all of its bytes and ignores later lines (`Extracting` after `Download complete` restarts its counter).
 */

/** The fields of an engine progress line this reads (`PullProgress` from the engine fits it). */
export interface LayerProgressLine {
  readonly status?: string | undefined;
  readonly id?: string | undefined;
  readonly progressDetail?: { readonly current?: number | undefined; readonly total?: number | undefined } | undefined;
  readonly aux?: { readonly Digest?: unknown } | undefined;
}

export interface LayerTotals {
  readonly current: number;
  readonly total: number;
  readonly layers: number;
  readonly doneLayers: number;
}

interface Layer {
  current: number;
  total: number;
  done: boolean;
  /** The engine had it before this pull ("Already exists"): nothing to transfer. */
  present: boolean;
}

const DONE_STATUSES = /^(pushed|layer already exists|already exists|pull complete|download complete|verifying checksum|mounted from)/i;
/** Lines that carry an id that is not a layer: the repository or tag being pulled or pushed. */
const NOT_A_LAYER = /^(the push refers|using default tag|pulling from)/i;
const PRESENT_STATUSES = /^(already exists|layer already exists)/i;

export class LayerProgress {
  readonly #layers = new Map<string, Layer>();
  #digest: string | undefined;
  #status = '';
  #percent = 0;
  #finished = false;

  /** Feeds one progress line; returns true when it was about a layer (the totals may have changed). */
  update(line: LayerProgressLine): boolean {
    const status = line.status;
    if (status) this.#status = line.id ? `${line.id}: ${status}` : status;
    const digest = typeof line.aux?.Digest === 'string' ? line.aux.Digest : /digest: (sha256:[0-9a-f]{64})/.exec(status ?? '')?.[1];
    if (digest) this.#digest = digest;
    // Docker's last line of a pull: "Status: Downloaded newer image for …" or "Status: Image is up to date for …".
    if (!line.id && status && /^status: /i.test(status)) this.#finished = true;
    // A tag line ("latest: digest: …") carries the tag as id: not a layer either.
    if (!line.id || !status || NOT_A_LAYER.test(status) || /digest: /.test(status)) return false;
    const layer = this.#layers.get(line.id) ?? { current: 0, total: 0, done: false, present: false };
    this.#layers.set(line.id, layer);
    if (layer.done) return true;
    const detail = line.progressDetail;
    if (typeof detail?.total === 'number' && detail.total > 0) layer.total = detail.total;
    if (typeof detail?.current === 'number') layer.current = Math.min(detail.current, layer.total || detail.current);
    if (DONE_STATUSES.test(status)) {
      layer.done = true;
      layer.present = PRESENT_STATUSES.test(status);
      layer.current = layer.total;
    }
    this.#percent = Math.max(this.#percent, this.#computePercent());
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

  /** 0–100 over all layers so far; it never goes back, even when a new layer appears. */
  get percent(): number {
    return this.#percent;
  }

  /** The latest status line, prefixed with its layer or tag id (`aaaaaaaaaaaa: Downloading`). */
  get status(): string {
    return this.#status;
  }

  /**
   * Every layer was on the engine before the pull (or the engine said it finished without naming one): a pull that
   * only adds a tag. A percentage would read "0%" or jump to 100 while nothing is transferred.
   */
  get allPresent(): boolean {
    if (this.#layers.size === 0) return this.#finished;
    for (const layer of this.#layers.values()) if (!layer.present) return false;
    return true;
  }

  /** The manifest digest the registry reported at the end of a push. */
  get digest(): string | undefined {
    return this.#digest;
  }

  #computePercent(): number {
    let total = 0;
    let current = 0;
    let unknown = 0;
    let unknownDone = 0;
    for (const layer of this.#layers.values()) {
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
    const known = this.#layers.size - unknown;
    const average = total / Math.max(known, 1);
    return Math.floor(((current + unknownDone * average) / (total + unknown * average)) * 100);
  }
}

/**
 * What a pull's progress line says: "checking layers" before the engine names one, "layers already present" when it
 * transfers nothing, else the percentage.
 */
export function pullProgressText(progress: LayerProgress): string {
  if (progress.allPresent) return 'layers already present';
  if (progress.totals.layers === 0) return 'checking layers';
  return `${progress.percent}%`;
}
