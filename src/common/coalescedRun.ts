/**
 * A change reported at most every so often: the first `schedule()` starts the wait, later ones join it, and the
 * work runs once at its end. After `dispose()` (or once SIGNAL aborts) nothing runs again.
 */
export class CoalescedRun {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly run: () => void,
    private readonly intervalMs: number,
    private readonly signal: AbortSignal,
  ) {}

  schedule(): void {
    if (this.timer || this.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, this.intervalMs);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
