/**
 * Ties a model to its engine's saved listing (savedListing.ts): shows the saved one while the first connection is
 * being made, and saves the model again a while after it changed. The save waits for the changes to settle (and
 * runs at the latest a minute after the first unsaved one), so a burst of events costs one write and a quiet
 * engine costs nothing: there is no timer while nothing changes. No `vscode` here.
 */
import { errorMessage } from '../common/errors';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { EngineModel, LogLevel } from './engineModel';
import type { SavedListing, SavedListingStore } from './savedListing';

/** After the last change, before the save. */
export const SAVE_AFTER_MS = 10_000;
/** After the first unsaved change at the latest, for an engine that never stops changing. */
export const SAVE_AT_LATEST_MS = 60_000;

export interface SavedListingKeeperOptions {
  readonly store: SavedListingStore;
  /** Whether to show the saved listing at all (only for the engines of a window's start: see EngineSessions). */
  readonly show: boolean;
  readonly log: (level: LogLevel, message: string) => void;
  readonly now?: () => number;
}

export type KeptModel = Pick<EngineModel, 'onDidChange' | 'state' | 'containers' | 'images' | 'isFromCreateEvent' | 'showSavedListing'>;

export class SavedListingKeeper extends Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private firstUnsavedAt: number | undefined;
  private readonly now: () => number;

  constructor(
    private readonly model: KeptModel,
    private readonly options: SavedListingKeeperOptions,
  ) {
    super();
    this.now = options.now ?? Date.now;
    if (options.show) void this.show();
    this._register(
      model.onDidChange((change) => {
        // The engine's listing comes just before the model says it is connected; save() checks that when it runs.
        if (!change.saved) this.scheduleSave();
      }),
    );
    // Changes not saved yet are saved as the window closes, as far as it lets the write finish.
    this._register(toDisposable(() => {
      if (this.timer === undefined) return;
      clearTimeout(this.timer);
      this.timer = undefined;
      void this.save();
    }));
  }

  private async show(): Promise<void> {
    const listing = await this.options.store.load((reason) => this.options.log('warn', `The saved listing was not used (it is written again after the next listing): ${reason}`));
    if (listing && !this.isDisposed) this.model.showSavedListing(listing);
  }

  private scheduleSave(): void {
    const now = this.now();
    this.firstUnsavedAt ??= now;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const delay = Math.min(SAVE_AFTER_MS, Math.max(0, this.firstUnsavedAt + SAVE_AT_LATEST_MS - now));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.save();
    }, delay);
    this.timer.unref?.();
  }

  private async save(): Promise<void> {
    this.firstUnsavedAt = undefined;
    if (this.model.state !== 'connected') return;
    try {
      await this.options.store.save(this.listing());
    } catch (error) {
      this.options.log('warn', `Saving the listing for the next window failed: ${errorMessage(error)}`);
    }
  }

  /** The model as the rows draw it; rows still waiting for their inspect after a create event are left out. */
  private listing(): SavedListing {
    const containers = [...this.model.containers()]
      .filter((record) => !this.model.isFromCreateEvent(record))
      .map((record) => ({ summary: record.summary, clock: record.clock }));
    return { savedAt: this.now(), containers, images: [...this.model.images()].map((record) => record.summary) };
  }
}
