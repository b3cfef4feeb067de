/**
 * The logs filter: text or a regular expression, with a case toggle and invert, applied line by line to what a
 * follower hands on. No `vscode` here: the logs terminal, the logs editor, Save Logs and the bench share it.
 *
 * A line is judged whole. The follower hands on a very long line in pieces (logMessages.ts MAX_HELD_LINE_BYTES);
 * the pieces wait here until the line ends, up to MAX_JUDGED_LINE_CHARS: a longer line is judged by its beginning
 * and the rest of it follows that verdict, so memory stays bounded whatever a container writes.
 */
import * as l10n from '@vscode/l10n';
import type { LogSink } from './logFollower';

export interface LogFilterSpec {
  readonly text: string;
  readonly regex: boolean;
  readonly caseSensitive: boolean;
  readonly invert: boolean;
}

export const MAX_JUDGED_LINE_CHARS = 1024 * 1024;

/** Escapes every character a regular expression gives a meaning to. */
function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export class LineFilter {
  private readonly pattern: RegExp;
  private readonly global: RegExp;
  /** Text matched as it is, case and all: a substring search, cheaper per line than the same regular expression. */
  private readonly exactText: string | undefined;
  /** Whether a line's final newline can change the verdict (only a pattern that can see it), so it must be cut first. */
  readonly seesNewline: boolean;

  private constructor(readonly spec: LogFilterSpec) {
    const source = spec.regex ? spec.text : escapeRegex(spec.text);
    const flags = spec.caseSensitive ? '' : 'i';
    this.pattern = new RegExp(source, flags);
    this.global = new RegExp(source, `${flags}g`);
    this.exactText = !spec.regex && spec.caseSensitive ? spec.text : undefined;
    this.seesNewline = spec.regex || spec.text.includes('\n');
  }

  /** The filter, or why the text is no regular expression (JavaScript's own reason, the same on every engine). */
  static create(spec: LogFilterSpec): LineFilter | { readonly error: string } {
    if (spec.text === '') return { error: l10n.t('Type the text to look for.') };
    try {
      return new LineFilter(spec);
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/^Invalid regular expression: /, '') : String(error);
      return { error: l10n.t('Not a regular expression: {0}. Fix it, or turn off the regular expression to look for the text as it is.', reason) };
    }
  }

  /** Whether a line (without its newline) is shown. */
  keeps(line: string): boolean {
    return (this.exactText === undefined ? this.pattern.test(line) : line.includes(this.exactText)) !== this.spec.invert;
  }

  /** The same for a line that still ends with its newline: a plain text is looked for without copying the line. */
  keepsEnded(line: string): boolean {
    return this.keeps(this.seesNewline ? line.slice(0, -1) : line);
  }

  /** Where the pattern matches in TEXT: [start, end) pairs, empty matches left out. Nothing for an inverted filter. */
  matches(text: string): Array<[number, number]> {
    if (this.spec.invert) return [];
    const found: Array<[number, number]> = [];
    this.global.lastIndex = 0;
    for (let match = this.global.exec(text); match; match = this.global.exec(text)) {
      if (match[0] === '') {
        this.global.lastIndex++;
        continue;
      }
      found.push([match.index, match.index + match[0].length]);
    }
    return found;
  }

  /** How the filter reads in a title: `"text"`, `/regex/`, with `Aa` for case and `not` for invert. */
  describe(): string {
    const shown = this.spec.regex ? `/${this.spec.text}/` : `"${this.spec.text}"`;
    return `${this.spec.invert ? 'not ' : ''}${shown}${this.spec.caseSensitive ? ' Aa' : ''}`;
  }
}

/** SGR inverse on and off: a match stands out in any colour scheme. */
const INVERSE_ON = '\x1b[7m';
const INVERSE_OFF = '\x1b[27m';
const SGR = new RegExp(`${INVERSE_ON[0] ?? ''}\\[[0-9;:]*m`, 'g');

/**
 * TEXT (already through the terminal output filter: printable text and colour sequences only) with every match
 * wrapped in SGR inverse. Matches are looked for between colour sequences, so a sequence is never cut.
 */
export function highlightTerminalText(filter: LineFilter, text: string): string {
  if (filter.spec.invert) return text;
  let result = '';
  let last = 0;
  const mark = (segment: string): string => {
    const found = filter.matches(segment);
    if (found.length === 0) return segment;
    let marked = '';
    let at = 0;
    for (const [start, end] of found) {
      marked += `${segment.slice(at, start)}${INVERSE_ON}${segment.slice(start, end)}${INVERSE_OFF}`;
      at = end;
    }
    return marked + segment.slice(at);
  };
  SGR.lastIndex = 0;
  for (let sequence = SGR.exec(text); sequence; sequence = SGR.exec(text)) {
    result += mark(text.slice(last, sequence.index)) + sequence[0];
    last = sequence.index + sequence[0].length;
  }
  return result + mark(text.slice(last));
}

type Stream = 'stdout' | 'stderr';

interface OpenLine {
  text: string;
  stamp: string | undefined;
  /** Once a line outgrew MAX_JUDGED_LINE_CHARS: its verdict, which the rest of the line follows. */
  verdict: boolean | undefined;
}

/**
 * A LogSink in front of another that passes only the lines a filter keeps (all of them without a filter); Berth's
 * own notices always pass. The filter can change at any time: lines from then on are judged by the new one.
 */
export class FilteredSink implements LogSink {
  private readonly open = new Map<Stream, OpenLine>();
  private _filter: LineFilter | undefined;
  /** Whole lines read and kept since the filter was last set. */
  read = 0;
  kept = 0;

  constructor(
    private readonly target: LogSink,
    filter?: LineFilter,
  ) {
    this._filter = filter;
  }

  get filter(): LineFilter | undefined {
    return this._filter;
  }

  set filter(filter: LineFilter | undefined) {
    this._filter = filter;
    this.read = 0;
    this.kept = 0;
  }

  notice(text: string): void {
    this.target.notice(text);
  }

  output(stream: Stream, text: string, stamp?: string): void {
    const filter = this._filter;
    const open = this.open.get(stream);
    const ends = text.endsWith('\n');
    if (!filter) {
      if (open) this.open.delete(stream);
      const held = open !== undefined && open.verdict === undefined;
      this.target.output(stream, held ? open.text + text : text, held ? open.stamp : stamp);
      if (ends) this.countLine(true);
      return;
    }
    if (open?.verdict !== undefined) {
      if (open.verdict) this.target.output(stream, text, stamp);
      if (ends) this.open.delete(stream);
      return;
    }
    const whole = open ? open.text + text : text;
    const firstStamp = open ? open.stamp : stamp;
    if (ends) {
      this.open.delete(stream);
      const keep = filter.keepsEnded(whole);
      this.countLine(keep);
      if (keep) this.target.output(stream, whole, firstStamp);
      return;
    }
    if (whole.length < MAX_JUDGED_LINE_CHARS) {
      this.open.set(stream, { text: whole, stamp: firstStamp, verdict: undefined });
      return;
    }
    const keep = filter.keeps(whole);
    this.countLine(keep);
    this.open.set(stream, { text: '', stamp: undefined, verdict: keep });
    if (keep) this.target.output(stream, whole, firstStamp);
  }

  /** The end of the stream: an unfinished line is judged as it is. */
  flush(): void {
    for (const [stream, open] of this.open) {
      if (open.verdict === undefined && open.text !== '' && (!this._filter || this._filter.keeps(open.text))) this.target.output(stream, open.text, open.stamp);
    }
    this.open.clear();
  }

  private countLine(keep: boolean): void {
    this.read++;
    if (keep) this.kept++;
  }
}
