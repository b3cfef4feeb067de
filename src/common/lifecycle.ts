/**
 * Ownership of registrations. Every listener, timer, view or child object is registered with an owner
 * and disposed with it, so nothing outlives the session or the extension that made it.
 * Plain TypeScript (no `vscode` import): `vscode.Disposable` matches `IDisposable` structurally.
 */
export interface IDisposable {
  dispose(): void;
}

export function toDisposable(dispose: () => void): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

/** Disposes every member once; members added after disposal are disposed at once. */
export class DisposableStore implements IDisposable {
  private readonly items = new Set<IDisposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends IDisposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.add(item);
    }
    return item;
  }

  /** Disposes every member now and stays usable (for per-session lifetimes that start over). */
  clear(): void {
    const members = [...this.items].reverse();
    this.items.clear();
    disposeAll(members);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Reverse order: later registrations may depend on earlier ones.
    this.clear();
  }
}

/** Disposes each item even when one throws, then rethrows what failed. */
function disposeAll(items: readonly IDisposable[]): void {
  const errors: unknown[] = [];
  for (const item of items) {
    try {
      item.dispose();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'Several disposables failed');
}

/**
 * Holds at most one disposable that gets replaced during its owner's life (the binding to the current engine):
 * setting a new value disposes the old one; disposing the holder disposes the value and refuses later ones.
 */
export class MutableDisposable<T extends IDisposable> implements IDisposable {
  private current: T | undefined;
  private disposed = false;

  get value(): T | undefined {
    return this.current;
  }

  set value(next: T | undefined) {
    if (this.disposed) {
      next?.dispose();
      return;
    }
    if (next === this.current) return;
    const previous = this.current;
    this.current = next;
    previous?.dispose();
  }

  /** Disposes the value and leaves the holder empty (and usable). */
  clear(): void {
    this.value = undefined;
  }

  dispose(): void {
    this.disposed = true;
    const previous = this.current;
    this.current = undefined;
    previous?.dispose();
  }
}

/**
 * Named lifetimes keyed by an object (one per engine session): each key owns a DisposableStore, made on first use
 * and disposed when the key goes (`delete`) or the map is disposed.
 */
export class DisposableMap<K> implements IDisposable {
  private readonly stores = new Map<K, DisposableStore>();
  private disposed = false;

  has(key: K): boolean {
    return this.stores.has(key);
  }

  keys(): IterableIterator<K> {
    return this.stores.keys();
  }

  /** The lifetime of `key`, made on first use (already disposed when the map is). */
  lifetimeOf(key: K): DisposableStore {
    let store = this.stores.get(key);
    if (!store) {
      store = new DisposableStore();
      if (this.disposed) store.dispose();
      else this.stores.set(key, store);
    }
    return store;
  }

  delete(key: K): void {
    const store = this.stores.get(key);
    this.stores.delete(key);
    store?.dispose();
  }

  dispose(): void {
    this.disposed = true;
    const stores = [...this.stores.values()].reverse();
    this.stores.clear();
    disposeAll(stores);
  }
}

export abstract class Disposable implements IDisposable {
  private readonly store = new DisposableStore();

  protected get isDisposed(): boolean {
    return this.store.isDisposed;
  }

  protected _register<T extends IDisposable>(item: T): T {
    return this.store.add(item);
  }

  dispose(): void {
    this.store.dispose();
  }
}
