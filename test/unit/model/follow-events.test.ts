// followEvents (the Volumes, Networks and Changes views) after a clean end of the event stream: at once after a stream
// that lived (Podman's log rotation), with a backoff after ends that keep coming right after the start, counted in
// listings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { followEvents } from '../../../src/model/reconnect';
import { sleep, until } from '../../support/wait';

/** Never retried by itself while a test looks: the backoff after a second quick end is a minute. */
const SLOW_BACKOFF = { initialMs: 60_000, maxMs: 60_000 };

/** An event stream with no events that ends after `endAfterMs`, or never (undefined) until the follow is stopped. */
function stream(endAfterMs: number | undefined, signal: AbortSignal): AsyncIterator<never> {
  return {
    next: () =>
      new Promise((resolve) => {
        const end = (): void => resolve({ done: true, value: undefined });
        signal.addEventListener('abort', end, { once: true });
        if (endAfterMs !== undefined) setTimeout(end, endAfterMs);
      }),
  };
}

function follow(endAfterMs: (round: number) => number | undefined): { lists: () => number; stop: () => void } {
  const controller = new AbortController();
  let lists = 0;
  let rounds = 0;
  void followEvents(
    controller.signal,
    {
      events: () => stream(endAfterMs(rounds++), controller.signal),
      list: () => {
        lists++;
        return Promise.resolve();
      },
      onEvent: () => Promise.resolve(),
      onFailure: () => undefined,
    },
    SLOW_BACKOFF,
  );
  return { lists: () => lists, stop: () => controller.abort() };
}

void describe('followEvents after the engine ends its stream', () => {
  void it('lists and subscribes again at once after a stream that lived a while', async () => {
    const { lists, stop } = follow((round) => (round === 0 ? 1100 : undefined));
    try {
      await until('the second listing', () => lists() === 2, { timeoutMs: 10_000 });
    } finally {
      stop();
    }
  });

  void it('backs off when every stream ends as soon as it opens', async () => {
    const { lists, stop } = follow(() => 0);
    try {
      await until('the second listing', () => lists() >= 2, { timeoutMs: 10_000 });
      await sleep(300);
      assert.equal(lists(), 2, 'one listing again at once, then a pause');
    } finally {
      stop();
    }
  });
});
