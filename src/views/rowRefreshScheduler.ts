/**
 * Keeps relative times in a tree view true without polling: each rendered row says when its text next changes
 * (StatusClock), and one timer fires at the earliest of those moments (or a set gap after the last refresh, if
 * that is later), refreshing only the rows due then. While the view is hidden there is no timer at all; rows that
 * fell due meanwhile are refreshed when it shows again.
 * No `vscode` import, so the schedule is unit-tested with a fake clock.
 */
import type { IDisposable } from '../common/lifecycle';

export interface TimerClock {
  now(): number;
  setTimeout(run: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimerClock: TimerClock = {
  now: () => Date.now(),
  setTimeout: (run, delayMs) => setTimeout(run, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The least time between two refreshes of a view's aging rows: each refresh costs the workbench a redraw. */
export const ROW_REFRESH_GAP_MS = 1000;

/** Node clamps longer delays to 1 ms; a row due later than ~24 days is simply re-armed on the way. */
const MAX_DELAY_MS = 2 ** 31 - 1;

export class RowRefreshScheduler<Row> implements IDisposable {
  /** Row → unix ms its shown text stops being true. */
  private readonly due = new Map<Row, number>();
  private armed: { readonly handle: unknown; readonly at: number } | undefined;
  private lastFireAt = Number.NEGATIVE_INFINITY;
  private visible = false;
  private disposed = false;

  /**
   * `minGapMs`: the least time between two refreshes. A row due sooner after the last one waits for the gap to end
   * and goes with every other row due by then, at most that late; rows due further apart are refreshed on time.
   */
  constructor(
    private readonly refresh: (rows: Row[]) => void,
    private readonly clock: TimerClock = systemTimerClock,
    private readonly minGapMs = 0,
  ) {}

  /** For tests and the log: when the timer fires next, if it is armed. */
  get nextFireAt(): number | undefined {
    return this.armed?.at;
  }

  get trackedRows(): number {
    return this.due.size;
  }

  /** A row was rendered now; its text changes at `changesAt` (undefined: never). */
  track(row: Row, changesAt: number | undefined): void {
    if (this.disposed) return;
    if (changesAt === undefined) {
      this.due.delete(row);
      return;
    }
    this.due.set(row, changesAt);
    if (this.visible && (this.armed === undefined || changesAt < this.armed.at)) this.arm(changesAt);
  }

  /** Rows gone from the view (a full refresh renders the visible ones again, which tracks them again). */
  forgetAll(): void {
    this.due.clear();
    this.disarm();
  }

  setVisible(visible: boolean): void {
    if (this.disposed || visible === this.visible) return;
    this.visible = visible;
    if (visible) this.armEarliest();
    else this.disarm();
  }

  dispose(): void {
    this.disposed = true;
    this.forgetAll();
  }

  private fire(): void {
    this.armed = undefined;
    const now = this.clock.now();
    this.lastFireAt = now;
    const rows: Row[] = [];
    for (const [row, at] of this.due) {
      if (at > now) continue;
      rows.push(row);
      this.due.delete(row);
    }
    // Rendering the refreshed rows tracks them again with their next change.
    if (rows.length > 0) this.refresh(rows);
    this.armEarliest();
  }

  private armEarliest(): void {
    if (!this.visible) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const at of this.due.values()) if (at < earliest) earliest = at;
    if (earliest === Number.POSITIVE_INFINITY) this.disarm();
    else this.arm(earliest);
  }

  private arm(due: number): void {
    this.disarm();
    const at = Math.max(due, this.lastFireAt + this.minGapMs);
    const delay = Math.min(Math.max(at - this.clock.now(), 0), MAX_DELAY_MS);
    this.armed = { handle: this.clock.setTimeout(() => this.fire(), delay), at };
  }

  private disarm(): void {
    if (!this.armed) return;
    this.clock.clearTimeout(this.armed.handle);
    this.armed = undefined;
  }
}
