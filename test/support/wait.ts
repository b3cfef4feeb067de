/**
 * The one way tests wait: for a condition (`until`), for a value (`eventually`), for a stream's end (`drain`), for
 * queued callbacks (`nextTurn`) or for a while (`sleep`). Waits poll and give up with a message naming what they
 * waited for; a limit is a bound for a broken feature on a loaded machine, never a timing assertion.
 */
import assert from 'node:assert/strict';
import { setImmediate as nextImmediate, setTimeout as delay } from 'node:timers/promises';

export interface WaitOptions {
  /** How long before giving up (default 60 s). */
  readonly timeoutMs?: number;
  /** Between two checks (default 50 ms); 0 checks again once the callbacks already queued have run. */
  readonly intervalMs?: number;
  /** `eventually` only: a probe that throws is tried again (the last error is named on giving up) instead of failing at once. */
  readonly retryErrors?: boolean;
}

export const DEFAULT_WAIT_MS = 60_000;

export function sleep(ms: number): Promise<void> {
  return delay(ms);
}

/** Resolves once the callbacks already queued (I/O, timers due, immediates) have had their turn. */
export function nextTurn(): Promise<void> {
  return nextImmediate();
}

/** Between two checks: a timer, or (0) the turn after the callbacks already queued. */
function pause(intervalMs: number): Promise<void> {
  return intervalMs === 0 ? nextTurn() : delay(intervalMs);
}

function giveUp(what: string, timeoutMs: number, lastError: unknown): never {
  const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  assert.fail(`gave up waiting after ${timeoutMs} ms: ${what}${detail}`);
}

/** Resolves with PROBE's first answer that is not undefined; fails naming WHAT once the time is up. */
export async function eventually<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, options: WaitOptions = {}): Promise<T> {
  const { timeoutMs = DEFAULT_WAIT_MS, intervalMs = 50, retryErrors = false } = options;
  const end = performance.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      if (!retryErrors) throw error;
      lastError = error;
    }
    if (performance.now() > end) giveUp(what, timeoutMs, lastError);
    await pause(intervalMs);
  }
}

/**
 * Resolves once CHECK holds; fails naming WHAT once the time is up. A check that answers at once is not awaited:
 * a held condition returns before any other queued work runs (the in-process model tests rely on that).
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<void> {
  const { timeoutMs = DEFAULT_WAIT_MS, intervalMs = 50 } = options;
  const end = performance.now() + timeoutMs;
  for (;;) {
    const held = check();
    if (typeof held === 'boolean' ? held : await held) return;
    if (performance.now() > end) giveUp(what, timeoutMs, undefined);
    await pause(intervalMs);
  }
}

/** Reads ITERABLE to its end, handing each item to ON_ITEM; resolves the items. */
export async function drain<T>(iterable: AsyncIterable<T>, onItem?: (item: T) => void): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) {
    onItem?.(item);
    items.push(item);
  }
  return items;
}
