/**
 * Relative times as the docker CLI words them, computed when a row is shown rather than when it was fetched.
 *
 * The engine words a container's `Status` (`Up 3 seconds`) at the moment it answers; shown later, that text is
 * false. A StatusClock keeps the part that never changes (`Up `, ` (healthy)`) and the moment the duration counts
 * from, so the text can be rendered for any `now`, and tells when the rendered text next changes (to schedule a
 * refresh for exactly that moment and no other).
 */
import { humanDuration } from '../common/format';
import type { ContainerInspect, ContainerSummary } from '../engine';

export { humanDuration };

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Go's `int(d.Hours() + 0.5)`. */
function roundedHours(ms: number): number {
  return Math.floor(ms / HOUR + 0.5);
}

/** The moment (as a duration) from which `roundedHours` gives `hours`. */
function whenRoundedHoursReach(hours: number): number {
  return (hours - 0.5) * HOUR;
}

/**
 * The smallest duration after `ms` whose humanDuration differs from that of `ms`: a second boundary under a
 * minute, a minute boundary under an hour, then the half hours where Go's rounding moves to the next unit.
 */
export function humanDurationChangesAt(ms: number): number {
  if (ms < SECOND) return SECOND;
  if (ms < MINUTE) return (Math.floor(ms / SECOND) + 1) * SECOND;
  if (ms < HOUR) return (Math.floor(ms / MINUTE) + 1) * MINUTE;
  const hours = roundedHours(ms);
  if (hours < 48) return whenRoundedHoursReach(hours + 1);
  if (hours < 24 * 14) return whenRoundedHoursReach((Math.floor(hours / 24) + 1) * 24);
  if (hours < 24 * 60) return whenRoundedHoursReach(Math.min((Math.floor(hours / 168) + 1) * 168, 24 * 60));
  if (hours < 24 * 730) return whenRoundedHoursReach(Math.min((Math.floor(hours / 720) + 1) * 720, 24 * 730));
  return (Math.floor(Math.floor(ms / HOUR) / 8760) + 1) * 8760 * HOUR;
}

/** `text = before + humanDuration(now - since) + after`. */
export interface StatusClock {
  readonly before: string;
  readonly after: string;
  /** Unix ms the duration counts from (StartedAt, FinishedAt or Created). */
  readonly since: number;
  /** From the engine's timestamp; false when estimated from a listing's words (off by up to half the unit). */
  readonly exact: boolean;
}

export function renderClock(clock: StatusClock, nowMs: number): string {
  return `${clock.before}${humanDuration(nowMs - clock.since)}${clock.after}`;
}

/** Unix ms at which `renderClock(clock, t)` first differs from its text at `nowMs`. */
export function clockChangesAt(clock: StatusClock, nowMs: number): number {
  return clock.since + humanDurationChangesAt(nowMs - clock.since);
}

/** docker's `CREATED` column: `5 minutes ago`. `createdSeconds` is unix seconds, as the listings give it. */
export function createdClock(createdSeconds: number): StatusClock | undefined {
  return createdSeconds > 0 ? { before: '', after: ' ago', since: createdSeconds * 1000, exact: true } : undefined;
}

/** Unix ms, or undefined for a missing time and Go's zero time (`0001-01-01T00:00:00Z`). */
export function parseEngineTime(text: string | undefined): number | undefined {
  if (!text || text.startsWith('0001-')) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The clock of docker's `State.String()`, from an inspect's exact times; undefined where the text never changes. */
export function clockFromState(state: ContainerInspect['State']): StatusClock | undefined {
  const startedAt = parseEngineTime(state.StartedAt);
  const finishedAt = parseEngineTime(state.FinishedAt);
  const clock = (before: string, after: string, since: number | undefined): StatusClock | undefined =>
    since === undefined ? undefined : { before, after, since, exact: true };
  if (state.Running) {
    if (state.Paused) return clock('Up ', ' (Paused)', startedAt);
    if (state.Restarting) return clock(`Restarting (${state.ExitCode}) `, ' ago', finishedAt);
    const health = state.Health?.Status;
    if (health) return clock('Up ', ` (${health === 'starting' ? 'health: starting' : health})`, startedAt);
    return clock('Up ', '', startedAt);
  }
  if (state.Status === 'removing' || state.Status === 'dead' || startedAt === undefined) return undefined;
  return clock(`Exited (${state.ExitCode}) `, ' ago', finishedAt);
}

const STATUS_WORDS = /^(Up |(?:Exited|Restarting) \(-?\d+\) )(Less than a second|About a minute|About an hour|(\d+) (second|minute|hour|day|week|month|year)s?)(.*)$/;

/** [shortest, longest) duration in ms that docker words this way. */
function durationRange(words: string, count: number, unit: string | undefined): [number, number] {
  if (words === 'Less than a second') return [0, SECOND];
  if (words === 'About a minute') return [MINUTE, 2 * MINUTE];
  if (words === 'About an hour') return [HOUR, whenRoundedHoursReach(2)];
  switch (unit) {
    case 'second':
      return [count * SECOND, (count + 1) * SECOND];
    case 'minute':
      return [count * MINUTE, (count + 1) * MINUTE];
    case 'hour':
      return [whenRoundedHoursReach(count), whenRoundedHoursReach(count + 1)];
    case 'day':
      return [whenRoundedHoursReach(count * 24), whenRoundedHoursReach((count + 1) * 24)];
    case 'week':
      return [whenRoundedHoursReach(count * 168), whenRoundedHoursReach((count + 1) * 168)];
    case 'month':
      return [whenRoundedHoursReach(count * 720), whenRoundedHoursReach((count + 1) * 720)];
    default:
      return [count * 8760 * HOUR, (count + 1) * 8760 * HOUR];
  }
}

/**
 * A listing's `Status` read back into a clock, estimated from when the listing arrived: exact to half a second
 * under a minute, otherwise the middle of what the words allow (`exact: false`; an inspect makes it exact).
 */
export function clockFromStatus(status: string, observedAtMs: number): StatusClock | undefined {
  const match = STATUS_WORDS.exec(status);
  if (!match) return undefined;
  const [, before = '', words = '', count, unit, after = ''] = match;
  const [shortest, longest] = durationRange(words, Number(count ?? 0), unit);
  return { before, after, since: observedAtMs - (shortest + longest) / 2, exact: longest - shortest <= SECOND };
}

/**
 * Exact clocks of summaries built from an inspect, keyed by the summary object itself so the model's stores,
 * which take listing-shaped summaries, pick them up without a second code path.
 */
const exactClocks = new WeakMap<ContainerSummary, StatusClock>();

export function rememberExactClock(summary: ContainerSummary, clock: StatusClock | undefined): void {
  if (clock) exactClocks.set(summary, clock);
}

/** The summary's clock: the exact one when it came from an inspect, else read from its words. */
export function clockOfSummary(summary: ContainerSummary, observedAtMs: number): StatusClock | undefined {
  return exactClocks.get(summary) ?? clockFromStatus(summary.Status ?? '', observedAtMs);
}

/** Whether `next` says more than `previous` (an exact clock where there was an estimate). */
export function refinesClock(previous: StatusClock | undefined, next: StatusClock | undefined): boolean {
  return next?.exact === true && previous?.exact !== true;
}
