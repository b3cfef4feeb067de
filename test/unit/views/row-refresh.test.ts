import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RowRefreshScheduler, type TimerClock } from '../../../src/views/rowRefreshScheduler';

/** A fake clock: timers run only when the test advances time, in due order. */
class FakeClock implements TimerClock {
  time = 1_000_000;
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
  advanceTo(time: number): void {
    for (;;) {
      const due = [...this.timers.entries()].filter(([, timer]) => timer.at <= time).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = time;
  }
}

function setup() {
  const clock = new FakeClock();
  const refreshed: Array<{ at: number; rows: string[] }> = [];
  // Like VS Code: a refreshed row is rendered again, and reports its next change again (here: 1 s later).
  const nextChange = new Map<string, number | undefined>();
  const scheduler: RowRefreshScheduler<string> = new RowRefreshScheduler<string>((rows) => {
    refreshed.push({ at: clock.now(), rows: [...rows].sort() });
    for (const row of rows) scheduler.track(row, nextChange.get(row));
  }, clock);
  return { clock, refreshed, scheduler, nextChange };
}

void test('one timer, at the earliest change of a visible row, refreshing only the rows due', () => {
  const { clock, refreshed, scheduler, nextChange } = setup();
  const t0 = clock.now();
  scheduler.setVisible(true);
  scheduler.track('young', t0 + 400);
  scheduler.track('minute', t0 + 30_000);
  scheduler.track('hour', t0 + 1_800_000);
  scheduler.track('created', undefined);
  assert.equal(clock.timers.size, 1, 'a single timer');
  assert.equal(scheduler.nextFireAt, t0 + 400);
  nextChange.set('young', t0 + 1400);
  clock.advanceTo(t0 + 1000);
  assert.deepEqual(refreshed, [{ at: t0 + 400, rows: ['young'] }]);
  nextChange.set('young', undefined); // e.g. it stopped: "Created"-like rows never change
  clock.advanceTo(t0 + 2_000_000);
  assert.deepEqual(refreshed.slice(1), [
    { at: t0 + 1400, rows: ['young'] },
    { at: t0 + 30_000, rows: ['minute'] },
    { at: t0 + 1_800_000, rows: ['hour'] },
  ]);
  assert.equal(clock.timers.size, 0, 'nothing left to change: no timer');
});

void test('rows due at the same moment are refreshed together', () => {
  const { clock, refreshed, scheduler } = setup();
  const t0 = clock.now();
  scheduler.setVisible(true);
  for (const row of ['a', 'b', 'c']) scheduler.track(row, t0 + 5000);
  scheduler.track('d', t0 + 6000);
  clock.advanceTo(t0 + 5000);
  assert.deepEqual(refreshed, [{ at: t0 + 5000, rows: ['a', 'b', 'c'] }]);
});

void test('hiding the view cancels the timer; showing it refreshes what fell due meanwhile', () => {
  const { clock, refreshed, scheduler } = setup();
  const t0 = clock.now();
  scheduler.setVisible(true);
  scheduler.track('a', t0 + 1000);
  scheduler.track('b', t0 + 90_000);
  assert.equal(clock.timers.size, 1);
  scheduler.setVisible(false);
  assert.equal(clock.timers.size, 0, 'no timer while hidden');
  scheduler.track('c', t0 + 500);
  assert.equal(clock.timers.size, 0, 'rows rendered while hidden arm nothing');
  clock.advanceTo(t0 + 60_000);
  assert.deepEqual(refreshed, [], 'nothing ran while hidden');
  scheduler.setVisible(true);
  assert.equal(scheduler.nextFireAt, t0 + 500, 'due rows at once');
  clock.advanceTo(t0 + 60_000);
  assert.deepEqual(refreshed, [{ at: t0 + 60_000, rows: ['a', 'c'] }]);
  assert.equal(scheduler.nextFireAt, t0 + 90_000);
  scheduler.dispose();
  assert.equal(clock.timers.size, 0, 'disposed: no timer');
  scheduler.setVisible(true);
  scheduler.track('d', t0 + 61_000);
  assert.equal(clock.timers.size, 0, 'and none after');
});

void test('a full refresh forgets the rows (they are rendered and tracked again)', () => {
  const { clock, refreshed, scheduler } = setup();
  scheduler.setVisible(true);
  scheduler.track('a', clock.now() + 1000);
  scheduler.forgetAll();
  assert.equal(clock.timers.size, 0);
  clock.advanceTo(clock.now() + 5000);
  assert.deepEqual(refreshed, []);
});

void test('a row due in years arms a timer Node can hold', () => {
  const { clock, scheduler } = setup();
  scheduler.setVisible(true);
  scheduler.track('old', clock.now() + 3 * 365 * 86_400_000);
  const [timer] = clock.timers.values();
  assert.equal(timer!.at - clock.now(), 2 ** 31 - 1);
});

void test('with a minimum gap, rows due close after a refresh wait for it and go together; rows further apart stay on time', () => {
  const clock = new FakeClock();
  const refreshed: Array<{ at: number; rows: string[] }> = [];
  const scheduler = new RowRefreshScheduler<string>((rows) => refreshed.push({ at: clock.now(), rows: [...rows].sort() }), clock, 500);
  const t0 = clock.now();
  scheduler.setVisible(true);
  // Twenty rows aging one after another, spread over a second, as containers exited in turn: two refreshes, not 20.
  const spread = Array.from({ length: 20 }, (_, index) => ({ row: `row-${String(index).padStart(2, '0')}`, at: t0 + 50 * index }));
  for (const { row, at } of spread) scheduler.track(row, at);
  scheduler.track('later', t0 + 5000);
  clock.advanceTo(t0 + 10_000);
  assert.deepEqual(refreshed, [
    { at: t0, rows: ['row-00'] },
    { at: t0 + 500, rows: spread.slice(1, 11).map(({ row }) => row) },
    { at: t0 + 1000, rows: spread.slice(11).map(({ row }) => row) },
    { at: t0 + 5000, rows: ['later'] },
  ]);
  // Never early: no row is refreshed before its own moment.
  for (const { rows, at } of refreshed) for (const row of rows) assert.ok(at >= (spread.find((entry) => entry.row === row)?.at ?? t0 + 5000), row);
});

void test('with a minimum gap, a row due each second is refreshed on each second', () => {
  const { clock } = setup();
  const refreshed: number[] = [];
  const scheduler: RowRefreshScheduler<string> = new RowRefreshScheduler<string>((rows) => {
    refreshed.push(clock.now());
    for (const row of rows) scheduler.track(row, clock.now() + 1000);
  }, clock, 500);
  const t0 = clock.now();
  scheduler.setVisible(true);
  scheduler.track('young', t0 + 1000);
  clock.advanceTo(t0 + 4000);
  assert.deepEqual(refreshed, [t0 + 1000, t0 + 2000, t0 + 3000, t0 + 4000]);
});
