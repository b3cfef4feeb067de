/**
 * The first answer a view gives VS Code for its top-level rows, when there are thousands of them: the first screen
 * (the first FIRST_SCREEN_ROWS in the view's own order), and the rest in a whole-view refresh a moment later.
 *
 * Why: VS Code draws nothing until the page has taken every row of an answer. With 5,000 containers that is about
 * 1.2 s in the page after Berth has answered (measured in code-server, 2 cores), against 0.3 s for 200 rows. The
 * rows of the first screen are the first rows of the whole list, so none of them moves when the rest comes: the
 * list grows below them. VS Code gives no signal that it has drawn an answer, so the rest follows after a delay;
 * a refresh that came before the page had drawn would only make it ask again (for everything), as without this.
 * No `vscode` import, so the schedule is unit-tested with a fake clock.
 */
import type { IDisposable } from '../common/lifecycle';
import { systemTimerClock, type TimerClock } from './rowRefreshScheduler';

/** More than a tall window shows, and a scroll or two: what the user can reach before the rest has come. */
export const FIRST_SCREEN_ROWS = 200;
/** The page takes a 200-row answer in about 0.3 s on a busy 2-core machine; the rest follows after that. */
export const REST_OF_ROWS_AFTER_MS = 500;

export class FirstScreen implements IDisposable {
  private answered = false;
  private timer: unknown;
  private disposed = false;

  constructor(
    /** Sends a whole-view refresh: VS Code then asks for the top-level rows again and gets all of them. */
    private readonly sendRest: () => void,
    private readonly clock: TimerClock = systemTimerClock,
  ) {}

  /** Whether the rest of the rows is still to come (a whole-view refresh is scheduled). */
  get restPending(): boolean {
    return this.timer !== undefined;
  }

  /**
   * The rows to answer VS Code's ask for the top level with. Only the first answer is cut, and only when WHOLE is
   * true: a view asked to reveal a row answers with every row, since the row may be below the first screen.
   */
  rowsToAnswer<R>(rows: readonly R[], whole = false): readonly R[] {
    if (this.answered || this.disposed) return rows;
    this.answered = true;
    if (whole || rows.length <= FIRST_SCREEN_ROWS) return rows;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      if (!this.disposed) this.sendRest();
    }, REST_OF_ROWS_AFTER_MS);
    return rows.slice(0, FIRST_SCREEN_ROWS);
  }

  /** A whole-view refresh went for another reason (a container added, say): it brings the rest already. */
  wholeViewSent(): void {
    this.cancel();
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
  }

  private cancel(): void {
    if (this.timer === undefined) return;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
