/**
 * The text of a logs document: stdout lines verbatim, stderr lines prefixed with `stderr| `, capped at
 * `maxLines` (the oldest dropped, and a first line saying how many). No `vscode` here.
 *
 * The document is asked for its whole text on every update (ten a second while output flows), so the finished lines
 * are kept joined: an update appends the lines since the last one instead of joining all of them again.
 */
export const STDERR_PREFIX = 'stderr| ';

/** Marks a line of Berth's own in the stamps kept beside the lines. */
const NOTICE = 0;
type LineStamp = string | undefined | typeof NOTICE;

export class LogBuffer {
  private lines: string[] = [];
  /** Beside each line: the engine's stamp of its start, or NOTICE for a line of Berth's own. */
  private stamps: LineStamp[] = [];
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

  append(stream: 'stdout' | 'stderr', text: string, stamp?: string): void {
    if (text === '') return;
    const openIndex = this.open.get(stream);
    if (openIndex !== undefined && openIndex >= this.start) {
      this.lines[openIndex] += text;
    } else {
      this.lines.push(stream === 'stderr' ? `${STDERR_PREFIX}${text}` : text);
      this.stamps.push(stamp);
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
    this.stamps.push(NOTICE);
    this.open.clear();
    this.enforceCap();
  }

  /**
   * A buffer of the lines of SOURCE that KEEP keeps (given each line as it was written: no stderr mark, no newline);
   * Berth's own lines are all kept. Used when a filter changes: the lines already read are judged again.
   */
  static kept(source: LogBuffer, keep: (line: string) => boolean, maxLines: number): LogBuffer {
    const kept = new LogBuffer(maxLines);
    for (let index = source.start; index < source.lines.length; index++) {
      const line = source.lines[index] as string;
      const stamp = source.stamps[index];
      if (stamp !== NOTICE) {
        const body = line.startsWith(STDERR_PREFIX) ? line.slice(STDERR_PREFIX.length) : line;
        if (!keep(body.endsWith('\n') ? body.slice(0, -1) : body)) continue;
      }
      kept.lines.push(line.endsWith('\n') ? line : `${line}\n`);
      kept.stamps.push(stamp);
    }
    kept.enforceCap();
    return kept;
  }

  /** Lines of the engine's output held (Berth's own lines not counted). */
  get outputLineCount(): number {
    let count = 0;
    for (let index = this.start; index < this.stamps.length; index++) if (this.stamps[index] !== NOTICE) count++;
    return count;
  }

  /**
   * The line of text() (0-based) of the first line stamped at or after SECONDS (Unix seconds), 'before' when older
   * lines were dropped and the window starts after it, undefined when no line is that late.
   */
  lineOfTime(seconds: number): number | 'before' | undefined {
    let textLine = this._dropped > 0 ? 1 : 0;
    let sawStamp = false;
    for (let index = this.start; index < this.lines.length; index++) {
      const stamp = this.stamps[index];
      if (typeof stamp === 'string') {
        if (Date.parse(stamp) / 1000 >= seconds) return !sawStamp && this._dropped > 0 && Date.parse(stamp) / 1000 > seconds + 1 ? 'before' : textLine;
        sawStamp = true;
      }
      const line = this.lines[index] as string;
      for (let at = line.indexOf('\n'); at !== -1 && at < line.length - 1; at = line.indexOf('\n', at + 1)) textLine++;
      if (line.endsWith('\n')) textLine++;
    }
    return undefined;
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
      this.stamps = this.stamps.slice(this.start);
      this.settledEnd -= this.start;
      for (const [stream, index] of this.open) {
        if (index < this.start) this.open.delete(stream);
        else this.open.set(stream, index - this.start);
      }
      this.start = 0;
    }
  }
}
