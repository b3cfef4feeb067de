/**
 * A Pseudoterminal that keeps what is written before VS Code opens it, so the first output of a fast
 * container is never lost. Closing the terminal aborts `signal`, which ends the engine streams behind it.
 */
import * as vscode from 'vscode';

export class BufferedPseudoterminal implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number | void>();
  private readonly dimensionsEmitter = new vscode.EventEmitter<vscode.TerminalDimensions>();
  private readonly inputEmitter = new vscode.EventEmitter<string>();
  private readonly nameEmitter = new vscode.EventEmitter<string>();
  /** A rename asked for before VS Code opened the terminal: sent on open. */
  private pendingName: string | undefined;
  private pending: string[] | undefined = [];
  private readonly controller = new AbortController();
  private openedResolve: (() => void) | undefined;
  private _dimensions: vscode.TerminalDimensions | undefined;

  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;
  readonly onDidChangeName = this.nameEmitter.event;
  /** Fired when VS Code resizes the terminal. */
  readonly onDidSetDimensions = this.dimensionsEmitter.event;
  /** Keystrokes typed into the terminal. */
  readonly onInput = this.inputEmitter.event;
  /** Resolves when VS Code opened the terminal (its size is known then). */
  readonly opened = new Promise<void>((resolve) => (this.openedResolve = resolve));

  /** Aborted when the user closes the terminal. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get dimensions(): vscode.TerminalDimensions | undefined {
    return this._dimensions;
  }

  open(initialDimensions: vscode.TerminalDimensions | undefined): void {
    this._dimensions = initialDimensions;
    const pending = this.pending ?? [];
    this.pending = undefined;
    if (this.pendingName !== undefined) this.nameEmitter.fire(this.pendingName);
    this.pendingName = undefined;
    for (const text of pending) this.writeEmitter.fire(text);
    this.openedResolve?.();
  }

  close(): void {
    this.controller.abort();
    this.dispose();
  }

  handleInput(data: string): void {
    this.inputEmitter.fire(data);
  }

  setDimensions(dimensions: vscode.TerminalDimensions): void {
    this._dimensions = dimensions;
    this.dimensionsEmitter.fire(dimensions);
  }

  /** Writes raw terminal text (CRLF line ends, escape sequences allowed). */
  write(text: string): void {
    if (text === '') return;
    if (this.pending) this.pending.push(text);
    else this.writeEmitter.fire(text);
  }

  /** Renames the terminal tab (e.g. once the container it runs has a name). */
  rename(name: string): void {
    if (this.pending) this.pendingName = name;
    else this.nameEmitter.fire(name);
  }

  writeLine(text: string): void {
    this.write(`${text}\r\n`);
  }

  /** Ends the terminal process; VS Code then shows the exit or closes the terminal. */
  exit(code?: number): void {
    this.closeEmitter.fire(code);
  }

  /**
   * Keeps the terminal open so its last lines stay readable, and closes it (exit 0, so VS Code shows no failure)
   * on the next key, as VS Code's task terminals do.
   */
  closeOnAnyKey(): void {
    this.writeLine('Press any key to close the terminal.');
    const subscription = this.onInput(() => {
      subscription.dispose();
      this.exit(0);
    });
  }

  private dispose(): void {
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
    this.dimensionsEmitter.dispose();
    this.inputEmitter.dispose();
    this.nameEmitter.dispose();
  }
}
