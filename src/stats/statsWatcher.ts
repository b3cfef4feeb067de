/**
 * One engine's live stats for the containers the user can see: a stats stream per watched container (followStats:
 * stall timeout, quiet reconnect), the latest figures of each, and one flush of the changed ids at most once a
 * second, so a hundred rows cost one tree refresh a second. Watching nothing closes every stream at once and leaves
 * no timer behind. No `vscode` import: unit-tested with a fake clock.
 */
import type { IDisposable } from '../common/lifecycle';
import { followStats, statsFigures, type EngineClient, type StatsFigures } from '../engine';
import { systemTimerClock, type TimerClock } from '../views/rowRefreshScheduler';
import { statsDescription } from './rows';

export type StatsClient = { readonly containers: Pick<EngineClient['containers'], 'stats'> };

export const FLUSH_INTERVAL_MS = 1_000;

export class StatsWatcher implements IDisposable {
  private readonly follows = new Map<string, AbortController>();
  private readonly latest = new Map<string, StatsFigures>();
  private readonly dirty = new Set<string>();
  private timer: unknown;
  private lastFlush = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly client: () => StatsClient,
    private readonly onFlush: (ids: readonly string[]) => void,
    private readonly log: (line: string) => void = () => undefined,
    private readonly clock: TimerClock = systemTimerClock,
  ) {}

  /** Streams open right now (tests and benchmarks count them). */
  get openStreams(): number {
    return this.follows.size;
  }

  figures(id: string): StatsFigures | undefined {
    return this.latest.get(id);
  }

  /** Follows exactly these containers: new ones are opened, the others closed and forgotten at once. */
  watch(ids: Iterable<string>): void {
    const wanted = new Set(ids);
    for (const [id, follow] of this.follows) {
      if (wanted.has(id)) continue;
      follow.abort();
      this.follows.delete(id);
      this.latest.delete(id);
      this.dirty.delete(id);
    }
    for (const id of wanted) if (!this.follows.has(id)) this.open(id);
    if (this.follows.size === 0) this.cancelFlush();
  }

  dispose(): void {
    this.watch([]);
  }

  private open(id: string): void {
    const controller = new AbortController();
    this.follows.set(id, controller);
    const ended = followStats(this.client(), id, {
      signal: controller.signal,
      onSample: (sample) => {
        const figures = statsFigures(sample);
        const shown = statsDescription(this.latest.get(id));
        this.latest.set(id, figures);
        // Only a row whose text changes is drawn again: a redraw closes the row's hover and moves it under the
        // pointer, and an idle container's figures read the same second after second. Tooltips read `latest` when shown.
        if (statsDescription(figures) !== shown) this.markDirty(id);
      },
      onReconnect: (reason) => this.log(`stats of ${id.slice(0, 12)}: ${reason}; opening again`),
    });
    ended.then(
      (end) => {
        if (end !== 'gone' || this.follows.get(id) !== controller) return;
        // Removed: the model drops its row; nothing to show meanwhile.
        this.follows.delete(id);
        this.latest.delete(id);
      },
      (error: unknown) => this.log(`stats of ${id.slice(0, 12)} ended: ${String(error)}`),
    );
  }

  private markDirty(id: string): void {
    this.dirty.add(id);
    if (this.timer !== undefined) return;
    const delay = Math.max(0, this.lastFlush + FLUSH_INTERVAL_MS - this.clock.now());
    this.timer = this.clock.setTimeout(() => this.flush(), delay);
  }

  private flush(): void {
    this.timer = undefined;
    this.lastFlush = this.clock.now();
    if (this.dirty.size === 0) return;
    const ids = [...this.dirty];
    this.dirty.clear();
    this.onFlush(ids);
  }

  private cancelFlush(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.dirty.clear();
  }
}
