/**
 * The logs follower's reader as it was before issue 9 (frozen here so the benchmark can measure before and after
 * in the same run): it split decoded text into lines, re-scanning each unfinished line from its start on every
 * chunk, and took one timestamp off the start of each line. It is wrong for long lines (the engine's partial
 * messages leave stamps inside them); it is only timed here, never used.
 */
import type { OutputChunk } from '../src/engine';
import { parseTimestamp } from '../src/logs/timestamps';
import { StreamDecoders } from '../src/terminals/terminalText';

class LineSplitter {
  private readonly partial = new Map<string, string>();

  push(stream: string, text: string): string[] {
    const combined = (this.partial.get(stream) ?? '') + text;
    const lines: string[] = [];
    let start = 0;
    for (let index = combined.indexOf('\n'); index !== -1; index = combined.indexOf('\n', start)) {
      lines.push(combined.slice(start, index + 1));
      start = index + 1;
    }
    this.partial.set(stream, combined.slice(start));
    return lines;
  }

  takePartials(): Array<[stream: string, text: string]> {
    const rest: Array<[string, string]> = [];
    for (const [stream, text] of this.partial) if (text) rest.push([stream, text]);
    this.partial.clear();
    return rest;
  }
}

export class BeforeReader {
  private readonly decoders = new StreamDecoders();
  private readonly splitter = new LineSplitter();
  private last: bigint | undefined;
  private shownAtLast = 0;

  constructor(private readonly output: (stream: string, text: string) => void) {}

  push(chunk: OutputChunk): void {
    const text = this.decoders.decode(chunk.stream, chunk.data);
    for (const line of this.splitter.push(chunk.stream, text)) this.emit(chunk.stream, line);
  }

  end(): void {
    for (const [stream, rest] of this.decoders.flush()) for (const line of this.splitter.push(stream, rest)) this.emit(stream, line);
    for (const [stream, text] of this.splitter.takePartials()) this.emit(stream, text);
  }

  private emit(stream: string, line: string): void {
    const stamp = parseTimestamp(line);
    if (!stamp) {
      this.output(stream, line);
      return;
    }
    if (this.last === undefined || stamp.nanos > this.last) {
      this.last = stamp.nanos;
      this.shownAtLast = 1;
    } else if (stamp.nanos === this.last) {
      this.shownAtLast++;
    }
    this.output(stream, line.slice(stamp.length));
  }
}
