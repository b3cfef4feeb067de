import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { clockChangesAt, clockFromState, clockFromStatus, humanDuration, humanDurationChangesAt, renderClock } from '../../../src/model/statusClock';
import { toContainerRecord } from '../../../src/model/records';
import { containerStatus, presentContainer, presentImage } from '../../../src/views/presentation';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

// docker/go-units' own table (duration_test.go), which `docker ps` and `docker images` word their times with.
const GO_UNITS_TABLE: ReadonlyArray<readonly [number, string]> = [
  ...([[450, 'Less than a second'], [-5 * SECOND, 'Less than a second'], [1 * SECOND, '1 second'], [45 * SECOND, '45 seconds'], [59 * SECOND, '59 seconds']] as const),
  ...([[60 * SECOND, 'About a minute'], [3 * MINUTE, '3 minutes'], [35 * MINUTE + 40 * SECOND, '35 minutes'], [59 * MINUTE, '59 minutes']] as const),
  ...([[1 * HOUR, 'About an hour'], [1 * HOUR + 29 * MINUTE, 'About an hour'], [1 * HOUR + 31 * MINUTE, '2 hours'], [3 * HOUR + 29 * MINUTE, '3 hours']] as const),
  ...([[3 * HOUR + 31 * MINUTE, '4 hours'], [24 * HOUR, '24 hours'], [1 * DAY + 12 * HOUR, '36 hours'], [2 * DAY, '2 days'], [13 * DAY + 5 * HOUR, '13 days']] as const),
  ...([[2 * WEEK, '2 weeks'], [2 * WEEK + 4 * DAY, '2 weeks'], [4 * WEEK + 3 * DAY, '4 weeks'], [1 * MONTH, '4 weeks'], [1 * MONTH + 2 * WEEK, '6 weeks']] as const),
  ...([[2 * MONTH, '2 months'], [5 * MONTH + 2 * WEEK, '5 months'], [24 * MONTH, '24 months'], [24 * MONTH + 2 * WEEK, '2 years'], [3 * YEAR + 2 * MONTH, '3 years']] as const),
];

void test('durations are worded as docker words them (go-units HumanDuration)', () => {
  for (const [ms, expected] of GO_UNITS_TABLE) assert.equal(humanDuration(ms), expected, `${ms} ms`);
});

void test('the next change: seconds under a minute, minutes under an hour, then the half hours of Go rounding', () => {
  assert.equal(humanDurationChangesAt(-3000), SECOND);
  assert.equal(humanDurationChangesAt(3 * SECOND + 400), 4 * SECOND);
  assert.equal(humanDurationChangesAt(59 * SECOND), MINUTE, '59 seconds → About a minute');
  assert.equal(humanDurationChangesAt(MINUTE + 5 * SECOND), 2 * MINUTE, 'About a minute → 2 minutes');
  assert.equal(humanDurationChangesAt(59 * MINUTE), HOUR);
  assert.equal(humanDurationChangesAt(HOUR), HOUR + 30 * MINUTE, 'About an hour → 2 hours at 1:30');
  assert.equal(humanDurationChangesAt(47 * HOUR), 47 * HOUR + 30 * MINUTE, '47 hours → 2 days');
  assert.equal(humanDurationChangesAt(2 * DAY), 3 * DAY - 30 * MINUTE);
  assert.equal(humanDurationChangesAt(8 * WEEK), 60 * DAY - 30 * MINUTE, '8 weeks → 2 months, not 9 weeks');
  assert.equal(humanDurationChangesAt(24 * MONTH), 2 * YEAR - 30 * MINUTE, '24 months → 1 years (sic, Go truncates there)');
  assert.equal(humanDuration(2 * YEAR - 30 * MINUTE), '1 years');
  assert.equal(humanDurationChangesAt(2 * YEAR - 30 * MINUTE), 2 * YEAR);
});

void test('the text holds until the next change and differs from it on', () => {
  fc.assert(
    fc.property(fc.integer({ min: -10_000, max: 4 * YEAR }), (ms) => {
      const next = humanDurationChangesAt(ms);
      assert.ok(next > ms);
      assert.equal(humanDuration(next - 1), humanDuration(ms), `unchanged just before ${next}`);
      assert.notEqual(humanDuration(next), humanDuration(ms), `changed at ${next}`);
    }),
    { numRuns: 20_000 },
  );
});

const STARTED = '2026-11-23T10:00:00.250Z';
const started = Date.parse(STARTED);
const state = (overrides: Record<string, unknown>) =>
  ({ Status: 'running', Running: true, Paused: false, Restarting: false, ExitCode: 0, StartedAt: STARTED, FinishedAt: '0001-01-01T00:00:00Z', ...overrides }) as never;

void test('an inspect gives an exact clock that words the status at any moment', () => {
  const clock = clockFromState(state({}));
  assert.ok(clock?.exact);
  assert.equal(renderClock(clock, started + 3 * SECOND), 'Up 3 seconds');
  assert.equal(renderClock(clock, started + 75 * SECOND), 'Up About a minute');
  assert.equal(clockChangesAt(clock, started + 75 * SECOND), started + 2 * MINUTE);
  const exited = clockFromState(state({ Status: 'exited', Running: false, ExitCode: 137, FinishedAt: STARTED }));
  assert.equal(renderClock(exited!, started + 5 * MINUTE + 1), 'Exited (137) 5 minutes ago');
  assert.equal(clockFromState(state({ Status: 'created', Running: false, StartedAt: '0001-01-01T00:00:00Z' })), undefined, 'Created never changes');
  assert.equal(renderClock(clockFromState(state({ Health: { Status: 'healthy' } }))!, started + 2 * HOUR), 'Up 2 hours (healthy)');
});

void test("a listing's words read back: exact under a minute, an estimate (to be inspected) above", () => {
  const listedAt = 1_800_000_000_000;
  const young = clockFromStatus('Up 3 seconds', listedAt);
  assert.deepEqual(young && { ...young, since: listedAt - young.since }, { before: 'Up ', after: '', since: 3500, exact: true });
  const old = clockFromStatus('Exited (2) About an hour ago', listedAt);
  assert.ok(old && !old.exact);
  assert.equal(renderClock(old, listedAt), 'Exited (2) About an hour ago');
  assert.equal(renderClock(clockFromStatus('Up 2 hours (unhealthy)', listedAt)!, listedAt), 'Up 2 hours (unhealthy)');
  for (const fixed of ['Created', 'Dead', 'Removal In Progress', '']) assert.equal(clockFromStatus(fixed, listedAt), undefined, fixed);
});

void test('rows age: a record listed as "Up 3 seconds" reads "Up About a minute" 75 s later', () => {
  const listedAt = Date.now();
  const record = toContainerRecord({ Id: 'a'.repeat(64), Names: ['/web'], Image: 'busybox', ImageID: 'sha256:1', Command: 'sleep', Created: Math.floor(listedAt / 1000) - 3, Ports: [], Labels: {}, State: 'running', Status: 'Up 3 seconds' });
  assert.equal(containerStatus(record, listedAt), 'Up 3 seconds');
  const later = presentContainer(record, listedAt + 75 * SECOND);
  assert.equal(later.description, 'busybox · Up About a minute');
  assert.ok(later.changesAt !== undefined && later.changesAt > listedAt + 75 * SECOND && later.changesAt <= listedAt + 2 * MINUTE);
  assert.match(later.tooltip, /running, Up About a minute/);
  const created = toContainerRecord({ ...record.summary, State: 'created', Status: 'Created' });
  assert.equal(presentContainer(created, listedAt + YEAR).changesAt, undefined, 'nothing to refresh');
});

void test("images' created age is docker's CREATED column and says when it changes", () => {
  const created = 1_800_000_000;
  const node = { kind: 'image', engine: 'e', key: 'k', tag: 'app:1', label: 'app:1', record: { key: 'k', id: 'sha256:k', tags: ['app:1'], summary: { Id: 'sha256:k', ParentId: '', RepoTags: ['app:1'], RepoDigests: [], Created: created, Size: 1000, Labels: null, Containers: 0 } } } as never;
  const shown = presentImage(node, { row: 0, image: 0 }, created * 1000 + 90 * MINUTE);
  assert.equal(shown.description, '1kB · 2 hours ago');
  assert.equal(shown.changesAt, created * 1000 + 2 * HOUR + 30 * MINUTE);
});
