import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FirstScreen, FIRST_SCREEN_ROWS, REST_OF_ROWS_AFTER_MS } from '../../../src/views/firstScreen';
import type { TimerClock } from '../../../src/views/rowRefreshScheduler';

/** A fake clock: timers run only when the test advances time. */
class FakeClock implements TimerClock {
  time = 0;
  private nextHandle = 1;
  readonly timers = new Map<number, { at: number; run: () => void }>();
  now(): number {
    return this.time;
  }
  setTimeout(run: () => void, delayMs: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.time + delayMs, run });
    return handle;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  advance(ms: number): void {
    this.time += ms;
    for (const [handle, timer] of [...this.timers]) {
      if (timer.at > this.time) continue;
      this.timers.delete(handle);
      timer.run();
    }
  }
}

const rows = (count: number): string[] => Array.from({ length: count }, (_, index) => `row-${String(index).padStart(5, '0')}`);

function setup() {
  const clock = new FakeClock();
  const sent: number[] = [];
  const screen = new FirstScreen(() => sent.push(clock.now()), clock);
  return { clock, sent, screen };
}

test('first screen: a long list is answered with its first rows, in order, and the rest is asked for once, later', () => {
  const { clock, sent, screen } = setup();
  const all = rows(5000);
  const first = screen.rowsToAnswer(all);
  assert.deepEqual(first, all.slice(0, FIRST_SCREEN_ROWS), 'the first answer is the top of the whole list, so no row moves when the rest comes');
  assert.equal(screen.restPending, true);
  clock.advance(REST_OF_ROWS_AFTER_MS - 1);
  assert.deepEqual(sent, [], 'the rest waits until the page has had time to draw the first screen');
  clock.advance(1);
  assert.deepEqual(sent, [REST_OF_ROWS_AFTER_MS], 'one whole-view refresh brings the rest');
  assert.equal(screen.restPending, false);
  // VS Code asks again after that refresh: every row, and nothing more is scheduled.
  assert.equal(screen.rowsToAnswer(all).length, 5000);
  clock.advance(10 * REST_OF_ROWS_AFTER_MS);
  assert.deepEqual(sent, [REST_OF_ROWS_AFTER_MS]);
});

test('first screen: a list that fits is answered whole, with no refresh after it', () => {
  const { clock, sent, screen } = setup();
  const all = rows(FIRST_SCREEN_ROWS);
  assert.equal(screen.rowsToAnswer(all), all);
  assert.equal(screen.restPending, false);
  clock.advance(10 * REST_OF_ROWS_AFTER_MS);
  assert.deepEqual(sent, []);
  // Only the first answer is ever cut: the list grew past the first screen since.
  assert.equal(screen.rowsToAnswer(rows(1000)).length, 1000);
  assert.equal(screen.restPending, false);
});

test('first screen: an answer for a reveal is whole (the row to select may be below the first screen)', () => {
  const { clock, sent, screen } = setup();
  assert.equal(screen.rowsToAnswer(rows(1000), true).length, 1000);
  assert.equal(screen.rowsToAnswer(rows(1000)).length, 1000, 'and the next answer is not cut either');
  clock.advance(10 * REST_OF_ROWS_AFTER_MS);
  assert.deepEqual(sent, []);
});

test('first screen: a whole-view refresh sent meanwhile (a container added) brings the rest, so none follows it', () => {
  const { clock, sent, screen } = setup();
  assert.equal(screen.rowsToAnswer(rows(1000)).length, FIRST_SCREEN_ROWS);
  clock.advance(100);
  screen.wholeViewSent();
  assert.equal(screen.restPending, false);
  clock.advance(10 * REST_OF_ROWS_AFTER_MS);
  assert.deepEqual(sent, []);
});

test('first screen: a view disposed before the rest is sent sends nothing and cuts nothing', () => {
  const { clock, sent, screen } = setup();
  assert.equal(screen.rowsToAnswer(rows(1000)).length, FIRST_SCREEN_ROWS);
  screen.dispose();
  assert.equal(clock.timers.size, 0, 'the timer is cleared');
  clock.advance(10 * REST_OF_ROWS_AFTER_MS);
  assert.deepEqual(sent, []);
  const disposedFirst = setup();
  disposedFirst.screen.dispose();
  assert.equal(disposedFirst.screen.rowsToAnswer(rows(1000)).length, 1000);
});
