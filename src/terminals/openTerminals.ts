/**
 * Terminals by what they show (a container's logs), while they are open: a command that would open a second terminal
 * for the same thing reveals the first instead (issue 20: each Show Logs opened another one).
 */
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';

export class OpenTerminals extends Disposable {
  readonly #open = new Map<string, vscode.Terminal>();

  constructor() {
    super();
    this._register(
      vscode.window.onDidCloseTerminal((closed) => {
        for (const [key, terminal] of this.#open) if (terminal === closed) this.#open.delete(key);
      }),
    );
  }

  /** Shows the open terminal for `key`; false when there is none (closed, or its work ended). */
  reveal(key: string): boolean {
    const terminal = this.#open.get(key);
    if (!terminal || terminal.exitStatus !== undefined) return false;
    terminal.show();
    return true;
  }

  add(key: string, terminal: vscode.Terminal): void {
    this.#open.set(key, terminal);
  }

  /** Its work ended (the logs of a removed container): the next request opens a fresh terminal. */
  forget(key: string, terminal: vscode.Terminal): void {
    if (this.#open.get(key) === terminal) this.#open.delete(key);
  }
}
