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

  /** Disposes and forgets one member (for objects replaced during the owner's life). */
  delete(item: IDisposable): void {
    if (this.items.delete(item)) item.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    // Reverse order: later registrations may depend on earlier ones.
    for (const item of [...this.items].reverse()) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    this.items.clear();
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'Several disposables failed');
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

  protected _unregister(item: IDisposable): void {
    this.store.delete(item);
  }

  dispose(): void {
    this.store.dispose();
  }
}
