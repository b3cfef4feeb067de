/**
 * What a Run terminal does with the keyboard and its own lifetime, as `docker run` / `berth run` do in a shell:
 * - TTY runs are interactive (`-it`): every key goes to the container's stdin as typed (Ctrl+C and Ctrl+D included:
 *   the container's TTY turns them into SIGINT and end-of-file), and the container's TTY follows the terminal's size.
 * - Runs without a TTY: Ctrl+C stops the container (SIGTERM, then SIGKILL after the stop timeout) and the terminal
 *   says so; a second Ctrl+C kills it at once. Interactive ones (`-i`) get a line editor with local echo, since no
 *   TTY echoes: Enter sends the line, Ctrl+D on an empty line closes stdin. Others say that they take no input.
 * - Closing the terminal while the container runs asks: stop it, or leave it running.
 */
import { PassThrough } from 'node:stream';
import * as vscode from 'vscode';
import type { EngineClient } from '../engine';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { BufferedPseudoterminal } from '../terminals/bufferedPseudoterminal';
import { ANSI } from '../terminals/terminalText';

export type WhenClosed = 'stop' | 'leave';

export interface RunTerminalOptions {
  readonly tty: boolean;
  readonly interactive: boolean;
  readonly stopTimeoutSeconds: number;
  /** For automation: the answer to "stop it or leave it running?" when the terminal is closed mid-run. */
  readonly whenClosed?: WhenClosed | undefined;
  readonly log: { info(message: string): void };
}

const CTRL_C = '\x03';
const CTRL_D = '\x04';
const BACKSPACE = /^[\x7f\b]$/;

export class RunTerminalControls extends Disposable {
  private readonly cancelController = new AbortController();
  private readonly interruptController = new AbortController();
  private readonly detachController = new AbortController();
  /** Cancels the run: before the start nothing runs; after it the engine sequence stops the container. */
  readonly signal = this.cancelController.signal;
  /** Ctrl+C: stop the container and show what it prints to its end. */
  readonly interrupt = this.interruptController.signal;
  /** "Leave Running": close the streams, keep the container. */
  readonly detach = this.detachController.signal;
  /** The container's stdin, for interactive runs. */
  readonly stdin: PassThrough | undefined;
  private container: { client: EngineClient; id: string; name: string } | undefined;
  private finished = false;
  private line = '';
  private hinted = false;

  constructor(
    private readonly terminal: BufferedPseudoterminal,
    private readonly options: RunTerminalOptions,
  ) {
    super();
    this.stdin = options.interactive || options.tty ? new PassThrough() : undefined;
    this._register(terminal.onInput((data) => this.onKeys(data)));
    const onClosed = (): void => void this.onTerminalClosed();
    terminal.signal.addEventListener('abort', onClosed, { once: true });
    this._register(toDisposable(() => terminal.signal.removeEventListener('abort', onClosed)));
  }

  get detached(): boolean {
    return this.detachController.signal.aborted;
  }

  /** The container runs: remember it (Ctrl+C, the close prompt) and size its TTY like the terminal. */
  started(client: EngineClient, id: string, name: string): void {
    this.container = { client, id, name };
    if (!this.options.tty) return;
    const resize = (dimensions: { rows: number; columns: number } | undefined): void => {
      if (!dimensions) return;
      // A container that already exited answers 409: nothing to size then.
      client.containers.resize(id, { rows: dimensions.rows, cols: dimensions.columns }).catch(() => undefined);
    };
    void this.terminal.opened.then(() => resize(this.terminal.dimensions));
    this._register(this.terminal.onDidSetDimensions((dimensions) => resize(dimensions)));
  }

  /** The run is over: keys and closing the terminal no longer concern the container. */
  finish(): void {
    this.finished = true;
    this.stdin?.end();
  }

  private onKeys(data: string): void {
    if (this.finished) return;
    if (this.options.tty) {
      this.stdin?.write(data);
      return;
    }
    for (const key of data.includes(CTRL_C) ? [CTRL_C] : [data]) {
      if (key === CTRL_C) this.onCtrlC();
      else if (this.stdin) this.editLine(key);
      else this.hintNoInput();
    }
  }

  private onCtrlC(): void {
    const container = this.container;
    if (!container) {
      this.terminal.writeLine(ANSI.dim('[Berth] Ctrl+C: cancelling the run'));
      this.cancelController.abort();
      return;
    }
    if (!this.interruptController.signal.aborted) {
      const seconds = this.options.stopTimeoutSeconds;
      this.terminal.writeLine(ANSI.bold(`^C [Berth] stopping ${container.name}: SIGTERM, then SIGKILL after ${seconds} s (Ctrl+C again kills it now)`));
      this.options.log.info(`Ctrl+C in the Run terminal: stopping ${container.name}`);
      this.interruptController.abort();
      return;
    }
    this.terminal.writeLine(ANSI.bold(`^C [Berth] killing ${container.name}`));
    container.client.containers.kill(container.id).catch(() => undefined);
  }

  /** A minimal cooked mode for runs without a TTY: echo, backspace, Enter sends the line, Ctrl+D ends stdin. */
  private editLine(data: string): void {
    for (const char of data) {
      if (char === '\r' || char === '\n') {
        this.terminal.write('\r\n');
        this.stdin?.write(`${this.line}\n`);
        this.line = '';
      } else if (char === CTRL_D) {
        if (this.line !== '') this.stdin?.write(this.line);
        else this.stdin?.end();
        this.line = '';
      } else if (BACKSPACE.test(char)) {
        if (this.line === '') continue;
        this.line = [...this.line].slice(0, -1).join('');
        this.terminal.write('\b \b');
      } else if (char >= ' ') {
        this.line += char;
        this.terminal.write(char);
      }
    }
  }

  private hintNoInput(): void {
    if (this.hinted) return;
    this.hinted = true;
    this.terminal.writeLine(ANSI.dim('[Berth] This run takes no input (run it with TTY or Interactive for that); Ctrl+C stops the container.'));
  }

  private async onTerminalClosed(): Promise<void> {
    if (this.finished) return;
    const container = this.container;
    if (!container) {
      this.cancelController.abort();
      return;
    }
    const choice = this.options.whenClosed ?? (await this.askWhenClosed(container.name));
    if (this.finished) return;
    if (choice === 'stop') this.cancelController.abort();
    else {
      this.options.log.info(`The Run terminal of ${container.name} was closed; the container was left running`);
      this.detachController.abort();
    }
  }

  private async askWhenClosed(name: string): Promise<WhenClosed> {
    const stop = 'Stop Container';
    const leave = 'Leave Running';
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('{0} is still running. Stop it, or leave it running?', name),
      {
        modal: true,
        detail: vscode.l10n.t('Its Run terminal was closed. Stop sends SIGTERM, then SIGKILL after {0} s. A container left running shows in the Containers view (Show Logs, Attach Shell, Stop).', this.options.stopTimeoutSeconds),
      },
      stop,
      leave,
    );
    // Dismissing the question loses nothing: the container keeps running.
    return choice === stop ? 'stop' : 'leave';
  }
}
