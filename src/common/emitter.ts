import type { IDisposable } from './lifecycle';

/** A listener subscription, shaped like `vscode.Event` so either can be passed where one is expected. */
export type Listener<T> = (listener: (value: T) => void) => IDisposable;

/** A tiny event emitter for code that must not import `vscode` (the model, tested with node:test). */
export class Emitter<T> implements IDisposable {
  private listeners: Array<(value: T) => void> = [];
  private disposed = false;

  readonly event: Listener<T> = (listener) => {
    if (this.disposed) return { dispose: () => undefined };
    this.listeners.push(listener);
    return {
      dispose: () => {
        this.listeners = this.listeners.filter((candidate) => candidate !== listener);
      },
    };
  };

  fire(value: T): void {
    // A copy: listeners may unsubscribe while being called.
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}
