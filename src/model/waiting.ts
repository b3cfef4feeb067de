/** The two ways EngineModel waits: callers waiting for a state it reaches, and its own pause between reconnections. */
import type { IDisposable } from '../common/lifecycle';
import { timeoutScheduler } from './batcher';

/** Promises handed out to callers waiting for a state, settled all at once when it comes or when it cannot. */
export class Waiters {
  private readonly pending: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];

  wait(): Promise<void> {
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  }

  resolveAll(): void {
    for (const waiter of this.pending.splice(0)) waiter.resolve();
  }

  rejectAll(error: unknown): void {
    for (const waiter of this.pending.splice(0)) waiter.reject(error);
  }
}

/** A pause that ends after its time, when LIFETIME aborts, or at once when woken (Retry). */
export class WakeablePause {
  private wakeCurrent: (() => void) | undefined;

  constructor(private readonly lifetime: AbortSignal) {}

  /** Ends the pause under way, if any. */
  wake(): void {
    this.wakeCurrent?.();
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer: { handle?: IDisposable } = {};
      const done = (): void => {
        timer.handle?.dispose();
        this.wakeCurrent = undefined;
        this.lifetime.removeEventListener('abort', done);
        resolve();
      };
      this.wakeCurrent = done;
      this.lifetime.addEventListener('abort', done);
      timer.handle = timeoutScheduler(done, ms);
    });
  }
}
