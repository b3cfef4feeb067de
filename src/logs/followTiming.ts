/**
 * How long the logs follower waits, and how far it reads past a run's recorded end, by what the engines do. Apart
 * from the follower so that its steps read as what they do, not as the engines' timing.
 */
import type { ContainerInspect } from '../engine';
import { parseTimestamp } from './timestamps';

/**
 * How long Podman's followed lines wait before they show. Podman reads its log file every 250 ms and ends a follow
 * one such read after it saw the run exit, so a restarted run's first lines can come in that last read, a whole
 * period before the end (246-252 ms in 27 restarts of a container that prints at once, idle or with the CPUs
 * busy). Waiting more than two periods keeps them out of the old run even when Podman's exit wait lags a read.
 */
export const PODMAN_FOLLOW_DEFER_MS = 600;

/**
 * Podman takes a run's FinishedAt from its exit file's ctime, which the kernel stamps with its coarse clock (whole
 * jiffies, up to 10 ms behind), while conmon stamps the run's last lines with the fine clock: the last line can be a
 * few milliseconds after FinishedAt (1 in 2 runs of `echo` in CI's engine test). A run's end on Podman is read this
 * much further; a next run cannot start that soon after an exit (a restart takes 100 ms or more there).
 */
export const PODMAN_FINISHED_SLACK_NS = 20_000_000n;

/** When the same run's follow ends while it still runs (an engine quirk), wait this long before following again. */
export const SAME_RUN_RETRY_MS = 500;

/**
 * A start event this soon after the StartedAt of the run shown is that run's own (engines send it a few
 * milliseconds after setting StartedAt); no run ends and starts again that fast (a restart takes 100 ms or more).
 */
export const OWN_START_WINDOW_NS = 50_000_000n;

/** Just before the current run started: the end of every earlier run. */
export function beforeRun(state: ContainerInspect['State']): bigint | undefined {
  const started = parseTimestamp(`${state.StartedAt} `)?.nanos;
  return started === undefined ? undefined : started - 2000n;
}

/** Retry delays while the engine is unreachable: short at first, capped so a returning engine is seen within 2 s. */
export const ENGINE_RETRY_MS = [250, 500, 1000, 1500] as const;
