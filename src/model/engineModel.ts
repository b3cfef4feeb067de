/**
 * The containers and images of one engine, kept current by its event stream.
 *
 * - Lists everything once per connection, then follows `GET /events` (types container and image).
 * - A burst of events is coalesced (EventBatcher); each touched container is fetched alone by an inspect
 *   (answered by id, where a list filtered by id makes the engine scan every container), each touched image
 *   alone (an inspect); a removal is applied locally.
 * - When the stream ends or breaks: reconnect at once with `since` = the last event's time and re-list
 *   once; if that fails the model is `unreachable` and retries with backoff (the only timer, and only
 *   while disconnected).
 * - Changes are reported with the records that changed, so views refresh only those nodes.
 */
import { isBerthHelper, isEngineError, withoutBerthHelpers, type EngineEvent } from '../engine';
import { errorMessage } from '../common/errors';
import { Disposable, toDisposable } from '../common/lifecycle';
import { Emitter } from '../common/emitter';
import { EventBatcher, timeoutScheduler, DEFAULT_WINDOW_MS, type PendingWork, type Scheduler } from './batcher';
import { backoffDelay, DEFAULT_BACKOFF, sinceBefore, sinceFromEvent, type BackoffPolicy } from './reconnect';
import { applyBatch, type BatchTarget } from './applyBatch';
import { CreateEventRows, summaryFromCreateEvent } from './createdEvent';
import type { ContainerRecord, ImageRecord } from './records';
import { emptyChange, fullChange, type ModelChange } from './modelChange';
import { ContainerStore, ImageStore } from './stores';
import { modelSnapshot, type EngineState, type ModelSnapshot } from './snapshot';
import type { ModelSource } from './source';
import type { SavedListing } from './savedListing';
import { rememberExactClock } from './statusClock';
import { applyListingOver } from './listingDiff';
import { WakeablePause, Waiters } from './waiting';

export type { ModelChange } from './modelChange';
export type { EngineState, ModelSnapshot } from './snapshot';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export interface EngineModelOptions {
  readonly scheduler?: Scheduler;
  readonly windowMs?: number;
  readonly backoff?: BackoffPolicy;
  /** Wall clock in ms, for the first connection's `since`. */
  readonly now?: () => number;
  readonly log?: (level: LogLevel, message: string) => void;
}

/** How far before "now" the first events subscription starts, to cover the gap while listing. */
const FIRST_SINCE_MARGIN_MS = 2000;
/** A connection that breaks sooner than this after being made counts as a failed attempt for backoff. */
const STABLE_CONNECTION_MS = 1000;

export class EngineModel extends Disposable {
  private readonly containerStore = new ContainerStore();
  private readonly imageStore = new ImageStore();
  private readonly batcher: EventBatcher;
  private applying: Promise<void> = Promise.resolve();
  private readonly lifetime = new AbortController();
  private readonly _onDidChange = this._register(new Emitter<ModelChange>());
  private readonly _onDidChangeState = this._register(new Emitter<EngineState>());
  private readonly now: () => number;
  private backoff: BackoffPolicy;
  private readonly log: (level: LogLevel, message: string) => void;

  private _state: EngineState = 'connecting';
  private _lastError: unknown;
  private lastSince: string | undefined;
  private connection: AbortController | undefined;
  private readonly backoffPause = new WakeablePause(this.lifetime.signal);
  private started = false;
  private readonly stateWaiters = new Waiters();
  /** Waiting for rows to show: the engine's listing, or a saved one until it comes. */
  private readonly rowWaiters = new Waiters();
  /** A listing of the engine itself has been applied: a saved one is never shown after that. */
  private listed = false;
  private _savedListingAt: number | undefined;
  private readonly createEventRows = new CreateEventRows();
  private readonly batchTarget: BatchTarget;

  readonly onDidChange = this._onDidChange.event;
  readonly onDidChangeState = this._onDidChangeState.event;

  constructor(
    private readonly source: ModelSource,
    options: EngineModelOptions = {},
  ) {
    super();
    this.now = options.now ?? Date.now;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.log = options.log ?? (() => undefined);
    this.batchTarget = {
      source,
      containers: this.containerStore,
      images: this.imageStore,
      createEventRows: this.createEventRows,
      now: this.now,
      warn: (message) => this.log('warn', message),
    };
    this.batcher = this._register(
      new EventBatcher(
        (work) => this.applyWork(work),
        (error) => this.log('warn', `Applying engine events failed: ${errorMessage(error)}`),
        options.scheduler ?? timeoutScheduler,
        options.windowMs ?? DEFAULT_WINDOW_MS,
      ),
    );
    this._register(toDisposable(() => this.lifetime.abort()));
    this._register(toDisposable(() => this.rejectWaiters(new Error('The engine model was disposed'))));
  }

  get state(): EngineState {
    return this._state;
  }

  get lastError(): unknown {
    return this._lastError;
  }

  /** The `since` the next reconnection will use (SEC.NANOS of the last event seen). */
  get resumeSince(): string | undefined {
    return this.lastSince;
  }

  get containerCount(): number {
    return this.containerStore.size;
  }

  containers(): IterableIterator<ContainerRecord> {
    return this.containerStore.values();
  }

  images(): IterableIterator<ImageRecord> {
    return this.imageStore.values();
  }

  container(idOrName: string): ContainerRecord | undefined {
    return this.containerStore.find(idOrName);
  }

  image(idOrTag: string): ImageRecord | undefined {
    return this.imageStore.find(idOrTag);
  }

  /** Number of containers (any state) created from the image. */
  containersUsing(key: string): number {
    return this.containerStore.usageOf(key);
  }

  /** The containers of image `key` created from `tag` (one tag row's count); `containersUsing` counts them all. */
  containersUsingTag(key: string, tag: string): number {
    return this.containerStore.usageOfTag(key, tag);
  }

  /** Starts the connect/follow loop in the background; returns at once (activation never waits on the engine). */
  start(): void {
    if (this.started || this.isDisposed) return;
    this.started = true;
    void this.runLoop();
  }

  /**
   * For Berth's tests (`berth.internal.reconnectBackoff`): a backoff long enough that only Retry reconnects, so a
   * test of Retry fails when Retry does nothing. Undefined puts the default back.
   */
  setBackoff(policy: BackoffPolicy | undefined): void {
    this.backoff = policy ?? DEFAULT_BACKOFF;
    // A pause under the old policy ends now; the next one follows the new policy.
    if (policy === undefined) this.backoffPause.wake();
  }

  /** Reconnects now instead of waiting out the backoff. */
  retry(): void {
    if (this._state === 'unreachable') this.setState('connecting');
    this.backoffPause.wake();
  }

  /** Drops the connection and lists everything again (the Refresh command). */
  refresh(): void {
    this.connection?.abort();
    this.backoffPause.wake();
  }

  /** Resolves when connected (at once if already); rejects when the engine turns out unreachable. */
  whenConnected(): Promise<void> {
    if (this._state === 'connected') return Promise.resolve();
    if (this.isDisposed) return Promise.reject(new Error('The engine model was disposed'));
    return this.stateWaiters.wait();
  }

  /**
   * Unix ms of the saved listing the model shows while its first connection is being made (savedListing.ts);
   * undefined once the engine has answered, and when none was shown.
   */
  get savedListingAt(): number | undefined {
    return this._savedListingAt;
  }

  /**
   * Shows LISTING (the last one saved for this engine) until the engine's own listing arrives. Only while the first
   * connection is still being made; returns whether it was shown.
   */
  showSavedListing(listing: SavedListing): boolean {
    if (this.listed || this._state !== 'connecting' || this.isDisposed) return false;
    // Each row ages from the clock the model had when it saved it, not from its words read as of now.
    for (const saved of listing.containers) rememberExactClock(saved.summary, saved.clock);
    this.containerStore.replaceAll(listing.containers.map((saved) => saved.summary));
    this.imageStore.replaceAll(listing.images);
    this._savedListingAt = listing.savedAt;
    this.log('info', `Showing ${listing.containers.length} containers and ${listing.images.length} images as saved at ${new Date(listing.savedAt).toISOString()} until the engine answers`);
    this._onDidChange.fire({ ...fullChange(), saved: true });
    this.rowWaiters.resolveAll();
    return true;
  }

  /** Resolves when there are rows to show (the engine's listing, or a saved one); rejects when the engine is unreachable. */
  whenRowsKnown(): Promise<void> {
    if (this._state === 'connected' || this._savedListingAt !== undefined) return Promise.resolve();
    if (this.isDisposed) return Promise.reject(new Error('The engine model was disposed'));
    return this.rowWaiters.wait();
  }

  /** Resolves once every event received so far has been applied. */
  whenIdle(): Promise<void> {
    return this.batcher.whenIdle();
  }

  /** Whether RECORD is a row made from a create event that its inspect has not completed yet. */
  isFromCreateEvent(record: ContainerRecord): boolean {
    return this.createEventRows.has(record.summary);
  }

  /**
   * Resolves once a container shown from its create event has been completed by its inspect (at once for any other,
   * and after TIMEOUT_MS at the latest: an inspect that failed leaves the row as the event gave it).
   */
  whenInspected(id: string, timeoutMs = 3000): Promise<void> {
    return this.createEventRows.whenCompleted(() => this.containerStore.get(id)?.summary, this.onDidChange, timeoutMs);
  }

  /** Fetches containers now (after a command changed them, without waiting for their events). */
  async refetchContainers(ids: readonly string[]): Promise<void> {
    await this.applyWork({ containers: new Map(ids.map((id) => [id, 'refetch'])), images: new Set(), relistImages: false });
  }

  /** Fetches an image now and returns its record (e.g. to reveal a freshly committed image). */
  async refetchImage(idOrReference: string): Promise<ImageRecord | undefined> {
    await this.applyWork({ containers: new Map(), images: new Set([idOrReference]), relistImages: false });
    return this.imageStore.find(idOrReference);
  }

  snapshot(): ModelSnapshot {
    return modelSnapshot(this);
  }

  private async runLoop(): Promise<void> {
    // Counted apart, so that a connection lost just after an outage is retried (and reported) at once instead of
    // waiting out the outage's backoff while the model still says "connected".
    let failures = 0;
    let quickLosses = 0;
    while (!this.isDisposed) {
      const startedAt = this.now();
      const outcome = await this.connectAndFollow();
      if (this.isDisposed) return;
      if (outcome === 'lost') {
        // A lost connection is retried at once; only one that keeps breaking right away backs off.
        failures = 0;
        quickLosses = this.now() - startedAt >= STABLE_CONNECTION_MS ? 0 : quickLosses + 1;
        if (quickLosses <= 1) continue;
        await this.backoffPause.sleep(backoffDelay(quickLosses - 1, this.backoff));
      } else {
        quickLosses = 0;
        failures++;
        await this.backoffPause.sleep(backoffDelay(failures - 1, this.backoff));
      }
    }
  }

  /** One connection: subscribe, list, then apply events until the stream ends. */
  private async connectAndFollow(): Promise<'lost' | 'failed'> {
    const connection = new AbortController();
    this.connection = connection;
    const signal = AbortSignal.any([connection.signal, this.lifetime.signal]);
    const since = this.lastSince ?? sinceBefore(this.now(), FIRST_SINCE_MARGIN_MS);
    // Events arriving while the listing is in flight wait, so older list data never overwrites newer.
    const hold = this.batcher.pause();
    let listed = false;
    try {
      const events = this.source.events({ since, filters: { type: ['container', 'image'] }, signal });
      const iterator = events[Symbol.asyncIterator]();
      const first = iterator.next();
      first.catch(() => undefined); // observed below, or irrelevant when the listing fails first
      await this.listAll(signal);
      listed = true;
      this.setState('connected');
      hold.dispose();
      for (let next = await first; !next.done; next = await iterator.next()) {
        this.onEvent(next.value);
      }
      this.log('info', 'The engine closed the event stream; reconnecting');
      return 'lost';
    } catch (error) {
      if (this.isDisposed) return 'failed';
      if (listed) {
        if (!isEngineError(error, 'cancelled')) this.log('warn', `Event stream broke: ${errorMessage(error)}; reconnecting`);
        return 'lost';
      }
      if (connection.signal.aborted && this._state !== 'unreachable') return 'lost';
      this.setUnreachable(error);
      return 'failed';
    } finally {
      hold.dispose();
      connection.abort();
      if (this.connection === connection) this.connection = undefined;
    }
  }

  private onEvent(event: EngineEvent): void {
    const since = sinceFromEvent(event.timeNano, event.time);
    if (since) this.lastSince = since;
    if (!this.batcher.add(event)) return;
    this.log('trace', `event ${event.Type} ${event.Action} ${event.Actor?.ID ?? ''}`);
    this.showCreated(event);
  }

  /**
   * A container unknown until its create event is shown from the event at once; the inspect the batch makes anyway
   * completes it. Events are read only once the listing is in, so this never races a listing.
   */
  private showCreated(event: EngineEvent): void {
    const summary = summaryFromCreateEvent(event);
    if (!summary || isBerthHelper(summary) || this.containerStore.get(summary.Id)) return;
    const result = this.containerStore.upsert(summary, new Set());
    if (result.kind !== 'added') return;
    this.createEventRows.add(summary);
    const change = emptyChange();
    change.containers.added.push(result.current);
    this._onDidChange.fire(change);
  }

  private async listAll(signal: AbortSignal): Promise<void> {
    const [containers, images] = await Promise.all([
      this.source.listContainers({ all: true, signal }).then(withoutBerthHelpers),
      this.source.listImages({ signal }),
    ]);
    const overSaved = this._savedListingAt !== undefined;
    this.listed = true;
    this._savedListingAt = undefined;
    this.log('debug', `Listed ${containers.length} containers and ${images.length} images`);
    if (overSaved) {
      this._onDidChange.fire({ ...applyListingOver({ containers: this.containerStore, images: this.imageStore }, containers, images, this.now()), relisted: true });
      return;
    }
    this.containerStore.replaceAll(containers);
    this.imageStore.replaceAll(images);
    this._onDidChange.fire(fullChange());
  }

  /**
   * Batches (the batcher's, and refetches after a command) are applied one at a time, in the order asked for: a fetch
   * answered before a removal must not land after it and bring the container back as a row that never goes away.
   */
  private applyWork(work: PendingWork): Promise<void> {
    const run = this.applying.then(() => this.applyWorkNow(work));
    this.applying = run.catch(() => undefined);
    return run;
  }

  private async applyWorkNow(work: PendingWork): Promise<void> {
    const change = await applyBatch(this.batchTarget, work, this.lifetime.signal);
    if (change) this._onDidChange.fire(change);
  }

  private setState(state: EngineState): void {
    if (state === this._state) return;
    this._state = state;
    if (state === 'connected') {
      this._lastError = undefined;
      this.stateWaiters.resolveAll();
      this.rowWaiters.resolveAll();
    }
    this._onDidChangeState.fire(state);
  }

  private setUnreachable(error: unknown): void {
    this._lastError = error;
    const hadData = this.containerStore.size > 0 || this.imageStore.size > 0;
    this.containerStore.clear();
    this.imageStore.clear();
    this._savedListingAt = undefined;
    this.batcher.clear();
    if (this._state !== 'unreachable') this.log('warn', `Engine unreachable: ${errorMessage(error)}`);
    this.rejectWaiters(error);
    if (hadData) this._onDidChange.fire(fullChange());
    if (this._state === 'unreachable') this._onDidChangeState.fire('unreachable');
    else this.setState('unreachable');
  }

  private rejectWaiters(error: unknown): void {
    this.stateWaiters.rejectAll(error);
    this.rowWaiters.rejectAll(error);
  }
}
