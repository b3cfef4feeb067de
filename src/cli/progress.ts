/**
 * Pull progress on stderr, like `docker pull` without its cursor tricks: one line whenever a layer changes state
 * (`Pulling fs layer`, `Download complete`, `Pull complete`) or the daemon reports a status of its own. Byte
 * counts (`Downloading [=>  ] 3MB/20MB`) are shown only on a terminal, rewritten in place, so a log file gets
 * a short, readable transcript.
 */
import type { PullProgress } from '../engine/connection';

export interface ProgressWriter {
  write(text: string): unknown;
}

export class PullProgressPrinter {
  private readonly lastStatusById = new Map<string, string>();
  private liveLineOpen = false;

  constructor(
    private readonly output: ProgressWriter,
    private readonly isTerminal: boolean,
  ) {}

  update(progress: PullProgress): void {
    const status = progress.status;
    if (status === undefined) return;
    const id = progress.id;
    if (id === undefined) {
      this.printLine(status);
      return;
    }
    if (this.lastStatusById.get(id) === status) {
      if (this.isTerminal && progress.progress) this.printLive(`${id}: ${status} ${progress.progress}`);
      return;
    }
    this.lastStatusById.set(id, status);
    this.printLine(`${id}: ${status}`);
  }

  /** Ends a live line left open, so what follows starts on its own line. */
  finish(): void {
    if (this.liveLineOpen) this.output.write('\n');
    this.liveLineOpen = false;
  }

  private printLine(text: string): void {
    this.output.write(this.liveLineOpen ? `\r\x1b[2K${text}\n` : `${text}\n`);
    this.liveLineOpen = false;
  }

  private printLive(text: string): void {
    this.output.write(`\r\x1b[2K${text}`);
    this.liveLineOpen = true;
  }
}
