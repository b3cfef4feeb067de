/**
 * The text of a logs document: stdout lines verbatim, stderr lines prefixed with `stderr| `, capped at
 * `maxLines` (the oldest dropped, and a first line saying how many). No `vscode` here.
 *
 * The document is asked for its whole text on every update (ten a second while output flows), so the finished lines
 * are kept joined: an update appends the lines since the last one instead of joining all of them again.
 */
export const STDERR_PREFIX = 'stderr| ';

export class LogBuffer {
  private lines: string[] = [];
  private start = 0;
  /** Index of an unfinished line per stream, continued by the next output of that stream. */
  private readonly open = new Map<string, number>();
  private _dropped = 0;
  /** lines[start, settledEnd) joined: finished lines, which never change again. */
  private settled = '';
  private settledEnd = 0;
  /** Characters at the start of `settled` whose lines were dropped since the last text(). */
  private settledDropLength = 0;

  constructor(private readonly maxLines: number) {}

  get dropped(): number {
    return this._dropped;
  }

  get lineCount(): number {
    return this.lines.length - this.start;
  }

  append(stream: 'stdout' | 'stderr', text: string): void {
    if (text === '') return;
    const openIndex = this.open.get(stream);
    if (openIndex !== undefined && openIndex >= this.start) {
      this.lines[openIndex] += text;
    } else {
      this.lines.push(stream === 'stderr' ? `${STDERR_PREFIX}${text}` : text);
    }
    if (text.endsWith('\n')) this.open.delete(stream);
    else this.open.set(stream, openIndex !== undefined && openIndex >= this.start ? openIndex : this.lines.length - 1);
    this.enforceCap();
  }

  /** A line from Berth itself, on its own line. */
  appendNotice(text: string): void {
    const last = this.lines[this.lines.length - 1];
    const separator = last !== undefined && this.lineCount > 0 && !last.endsWith('\n') ? '\n' : '';
    this.lines.push(`${separator}[Berth] ${text}\n`);
    this.open.clear();
    this.enforceCap();
  }

  text(): string {
    if (this.settledDropLength > 0) {
      this.settled = this.settled.slice(this.settledDropLength);
      this.settledDropLength = 0;
    }
    let limit = this.lines.length;
    for (const index of this.open.values()) if (index >= this.start) limit = Math.min(limit, index);
    for (; this.settledEnd < limit; this.settledEnd++) this.settled += this.lines[this.settledEnd];
    const body = this.settled + this.lines.slice(this.settledEnd).join('');
    if (this._dropped === 0) return body;
    return `[Berth] ${this._dropped} earlier lines dropped (berth.logs.maxLines = ${this.maxLines})\n${body}`;
  }

  private enforceCap(): void {
    const excess = this.lineCount - this.maxLines;
    if (excess <= 0) return;
    // The dropped lines leave the joined text at the next text(): once per update, not once per line.
    const settledDrop = Math.min(this.start + excess, this.settledEnd);
    for (let index = this.start; index < settledDrop; index++) this.settledDropLength += (this.lines[index] ?? '').length;
    this.start += excess;
    this._dropped += excess;
    if (this.settledEnd < this.start) this.settledEnd = this.start;
    // Compact now and then instead of shifting the array on every line.
    if (this.start > 4096 && this.start > this.lines.length / 2) {
      this.lines = this.lines.slice(this.start);
      this.settledEnd -= this.start;
      for (const [stream, index] of this.open) {
        if (index < this.start) this.open.delete(stream);
        else this.open.set(stream, index - this.start);
      }
      this.start = 0;
    }
  }
}
