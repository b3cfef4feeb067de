import { eventually } from '../support/wait';

/** Rejects when `work` has not settled after `ms`, so a hung VS Code fails the run instead of blocking CI. */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result after ${Math.round(ms / 1000)} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export { sleep } from '../support/wait';

/** Polls `probe` until it returns a value other than undefined, or throws after `ms` with the last failure. */
export function pollUntil<T>(probe: () => Promise<T | undefined>, ms: number, what: string, everyMs = 200): Promise<T> {
  return eventually(what, probe, { timeoutMs: ms, intervalMs: everyMs, retryErrors: true });
}
