/**
 * A store that lists one kind of engine object and follows that kind's events while someone looks (start/stop
 * follow a view's visibility): subscribe, list, answer each event; a failure starts over from the last event seen
 * after a backoff. Volumes and networks build on it. No `vscode` here.
 */
import { errorMessage } from '../common/errors';
import { Disposable, toDisposable } from '../common/lifecycle';
import { isEngineError, type EngineEvent, type ListFilters } from '../engine';
import { FollowSwitch, followEvents, sinceBefore, sinceFromEvent } from './reconnect';

export type StoreLog = (level: 'debug' | 'warn', message: string) => void;

export type EventSource = (options: { since?: string; filters?: ListFilters; signal?: AbortSignal }) => AsyncIterable<EngineEvent>;

export abstract class FollowedStore extends Disposable {
  private readonly following = new FollowSwitch((signal) => this.follow(signal));
  private lastSince: string | undefined;

  protected constructor(
    /** The event type followed (`volume`, `network`), and the store's name in the log. */
    private readonly followed: { readonly type: string; readonly name: string; readonly events: EventSource },
    protected readonly log: StoreLog,
    protected readonly now: () => number = Date.now,
  ) {
    super();
    this._register(toDisposable(() => this.stop()));
  }

  /** Lists and follows the events; a second call while following does nothing. */
  start(): void {
    if (!this.isDisposed) this.following.start();
  }

  /** Stops following (the view was hidden). The next start lists again, then resumes from the last event seen. */
  stop(): void {
    this.following.stop();
  }

  protected abstract list(signal: AbortSignal): Promise<void>;
  /** One event of the followed type. */
  protected abstract answer(event: EngineEvent, signal: AbortSignal): Promise<void>;

  private follow(signal: AbortSignal): Promise<void> {
    const { type, name, events } = this.followed;
    return followEvents(signal, {
      events: () => events({ since: this.lastSince ?? sinceBefore(this.now(), 1000), filters: { type: [type] }, signal })[Symbol.asyncIterator](),
      list: () => this.list(signal),
      onEvent: (event) => {
        const since = sinceFromEvent(event.timeNano, event.time);
        if (since) this.lastSince = since;
        return event.Type === type ? this.answer(event, signal) : Promise.resolve();
      },
      onFailure: (error) => {
        if (!isEngineError(error, 'cancelled')) this.log('warn', `${name}: ${errorMessage(error)}; trying again`);
      },
    });
  }
}
