/**
 * What a logs terminal shows: container output through the one output filter, then the logs filter (only matching
 * lines, matches in SGR inverse). The last REPLAY_LINES lines are kept, so a new filter judges them again on a
 * cleared screen; the stream goes on underneath. The terminal's name carries the filter.
 */
import type * as vscode from 'vscode';
import type { BufferedPseudoterminal } from '../terminals/bufferedPseudoterminal';
import { ContainerTerminalOutput } from '../terminals/outputFilter';
import { ANSI } from '../terminals/terminalText';
import { FilteredSink, highlightTerminalText, type LineFilter } from './lineFilter';
import type { LogSink } from './logFollower';
import { noMatchNotice } from './logsView';

/** Lines kept for a new filter to judge again: the screen and its scrollback, more or less. */
const REPLAY_LINES = 1000;
const CLEAR_SCREEN = '\x1b[2J\x1b[3J\x1b[H';

type Stream = 'stdout' | 'stderr';

export class LogTerminalView implements LogSink {
  private readonly recent: Array<[Stream, string]> = [];
  private recentStart = 0;
  private terminalOutput: ContainerTerminalOutput;
  private readonly filtered: FilteredSink;

  constructor(
    readonly terminal: BufferedPseudoterminal,
    readonly name: string,
    readonly container: { readonly id: string; readonly engine: string },
    private readonly tty: boolean,
  ) {
    this.terminalOutput = new ContainerTerminalOutput(tty);
    this.filtered = new FilteredSink({
      output: (stream, text) => this.show(stream, text),
      notice: (text) => terminal.writeLine(ANSI.dim(`[Berth] ${text}`)),
    });
  }

  get filter(): LineFilter | undefined {
    return this.filtered.filter;
  }

  /** The terminal's name: `Logs: <name>`, and the filter when there is one. */
  get title(): string {
    return `Logs: ${this.name}${this.filter ? ` · ${this.filter.describe()}` : ''}`;
  }

  output(stream: Stream, text: string): void {
    this.remember(stream, text);
    this.filtered.output(stream, text);
  }

  notice(text: string): void {
    this.filtered.notice(text);
  }

  /** A new filter (or none): the screen is cleared and the kept lines judged again; then the stream goes on. */
  setFilter(filter: LineFilter | undefined): void {
    this.filtered.filter = filter;
    this.terminal.rename(this.title);
    this.terminal.write(CLEAR_SCREEN);
    const count = this.recent.length - this.recentStart;
    this.terminal.writeLine(ANSI.dim(filter ? `[Berth] filter ${filter.describe()}: the last ${count} lines judged again, then following` : `[Berth] no filter: the last ${count} lines, then following`));
    this.terminalOutput = new ContainerTerminalOutput(this.tty);
    const replay = new FilteredSink({ output: (stream, text) => this.show(stream, text), notice: () => undefined }, filter);
    for (let index = this.recentStart; index < this.recent.length; index++) {
      const [stream, text] = this.recent[index] as [Stream, string];
      replay.output(stream, text);
    }
    if (filter && replay.kept === 0) this.terminal.writeLine(ANSI.dim(`[Berth] ${noMatchNotice(filter.describe(), replay.read)}`));
  }

  private show(stream: Stream, text: string): void {
    const shown = this.terminalOutput.text(stream, text);
    const filter = this.filtered.filter;
    this.terminal.write(filter ? highlightTerminalText(filter, shown) : shown);
  }

  private remember(stream: Stream, text: string): void {
    this.recent.push([stream, text]);
    if (this.recent.length - this.recentStart > REPLAY_LINES) this.recentStart++;
    if (this.recentStart > REPLAY_LINES) {
      this.recent.splice(0, this.recentStart);
      this.recentStart = 0;
    }
  }
}

/** The logs terminals open now, by their VS Code terminal: Filter… and Save Logs… act on the active one. */
export class LogTerminalViews {
  private readonly views = new Map<vscode.Terminal, LogTerminalView>();

  add(terminal: vscode.Terminal, view: LogTerminalView): void {
    this.views.set(terminal, view);
  }

  forget(terminal: vscode.Terminal): void {
    this.views.delete(terminal);
  }

  of(terminal: vscode.Terminal | undefined): LogTerminalView | undefined {
    return terminal ? this.views.get(terminal) : undefined;
  }
}
