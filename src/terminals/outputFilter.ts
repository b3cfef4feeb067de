/**
 * What container output may do to a terminal: colour itself, nothing else. Container output is untrusted, and a
 * terminal obeys escape sequences: an image could draw OSC 8 links to `vscode://` URIs, retitle the terminal, emit
 * shell-integration marks (OSC 633), or move the cursor to overwrite Berth's own `[Berth] exited with status 0`.
 *
 * The filter keeps printable text, CR, LF, TAB, backspace and complete SGR sequences (`ESC [ params m`, colours and
 * styles), and drops OSC, DCS, APC, PM and SOS strings, every other CSI (cursor moves, erases, modes, reports),
 * every other escape sequence, the other C0 controls and the C1 controls. It is a state machine (after the
 * VT500 parser that xterm.js follows), so a sequence split across chunks is recognised whole, and it never emits a
 * partial sequence: what one stream's filter has written cannot be completed by the next chunk of another stream.
 * Every terminal that shows container output writes it through ContainerTerminalOutput (run, logs) or
 * filterCompleteLine (compose logs, whose lines come merged from several containers). Attach Shell is an interactive
 * session and stays a raw TTY: it does not use this. No `vscode` here.
 */
import { ANSI, toTerminalText } from './terminalText';


/** The controls the state machine acts on; C1 ones (U+0080..U+009F) as xterm.js reads them from decoded text. */
const CONTROL = { esc: 0x1b, bel: 0x07, can: 0x18, sub: 0x1a, c1Csi: 0x9b, c1St: 0x9c } as const;
const C1_STRING_INTRODUCERS = new Set([0x90 /* DCS */, 0x98 /* SOS */, 0x9d /* OSC */, 0x9e /* PM */, 0x9f /* APC */]);
/** The C0 controls container output keeps: backspace, TAB, LF, CR. */
const KEPT_CONTROLS = new Set([0x08, 0x09, 0x0a, 0x0d]);
/** After `ESC`, the characters that open a string (DCS P, SOS X, OSC ], PM ^, APC _) and a CSI ([). */
const ESC_STRING_INTRODUCERS = new Set(['P', 'X', ']', '^', '_']);
/** An SGR longer than this is not a colour a program needs; it is dropped like any other CSI. */
const MAX_KEPT_SGR = 64;

type State = 'ground' | 'escape' | 'csi' | 'string';

export class TerminalOutputFilter {
  private state: State = 'ground';
  /** Parameters and intermediates of the CSI being read; undefined once it can no longer be a kept SGR. */
  private csi: string | undefined = '';

  /** The part of `text` a terminal may show; state carries over to the next call. */
  filter(text: string): string {
    let out = '';
    let runStart = -1;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (this.state === 'ground' && isShown(code)) {
        if (runStart < 0) runStart = index;
        continue;
      }
      if (runStart >= 0) {
        out += text.slice(runStart, index);
        runStart = -1;
      }
      out += this.step(code, text[index] as string);
    }
    if (runStart >= 0) out += text.slice(runStart);
    return out;
  }

  /** One character outside a run of plain text; returns what to emit for it (often nothing). */
  private step(code: number, char: string): string {
    // Anywhere: CAN and SUB cancel a sequence, ESC starts a new one (and ends a string: ESC \ is ST).
    if (code === CONTROL.can || code === CONTROL.sub) return this.enter('ground');
    if (code === CONTROL.esc) return this.enter('escape');
    if (code === CONTROL.c1Csi) return this.enter('csi');
    if (C1_STRING_INTRODUCERS.has(code)) return this.enter('string');
    if (code === CONTROL.c1St) return this.enter('ground');
    switch (this.state) {
      case 'ground':
        return KEPT_CONTROLS.has(code) ? char : '';
      case 'escape':
        return this.afterEscape(code, char);
      case 'csi':
        return this.inCsi(code, char);
      case 'string':
        // OSC may end with BEL as well as ST; everything in a string is dropped.
        return code === CONTROL.bel ? this.enter('ground') : '';
    }
  }

  private afterEscape(code: number, char: string): string {
    if (char === '[') return this.enter('csi');
    if (ESC_STRING_INTRODUCERS.has(char)) return this.enter('string');
    // Intermediates (0x20-0x2F) continue the sequence; a final (0x30-0x7E) ends it. Both are dropped.
    if (code >= 0x20 && code <= 0x2f) return '';
    if (code >= 0x30 && code <= 0x7e) return this.enter('ground');
    // A C0 control inside an escape sequence is executed by the terminal: keep the harmless ones.
    return KEPT_CONTROLS.has(code) ? char : '';
  }

  private inCsi(code: number, char: string): string {
    if (code >= 0x40 && code <= 0x7e) {
      const params = this.csi;
      this.enter('ground');
      return char === 'm' && params !== undefined ? `\x1b[${params}m` : '';
    }
    if (code >= 0x20 && code <= 0x3f) {
      // SGR parameters are digits, `;` and `:`; a private marker (?, <, =, >) or an intermediate is not an SGR.
      const sgrParameter = code >= 0x30 && code <= 0x3b;
      this.csi = sgrParameter && this.csi !== undefined && this.csi.length < MAX_KEPT_SGR ? this.csi + char : undefined;
      return '';
    }
    if (code < 0x20) return KEPT_CONTROLS.has(code) ? char : '';
    // Anything else (DEL, C1 text, a letter outside the final range) ends the CSI unrecognised: drop it.
    if (code === 0x7f) return '';
    this.enter('ground');
    return '';
  }

  private enter(state: State): '' {
    this.state = state;
    this.csi = '';
    return '';
  }
}

/** Printable: not a C0 control, not DEL, not a C1 control. */
function isShown(code: number): boolean {
  return code >= 0x20 && code !== 0x7f && (code < 0x80 || code > 0x9f);
}

/** One filter per stream (stdout and stderr carry their own half-read sequences). */
export class StreamOutputFilters {
  private readonly filters = new Map<string, TerminalOutputFilter>();

  filter(stream: string, text: string): string {
    let filter = this.filters.get(stream);
    if (!filter) {
      filter = new TerminalOutputFilter();
      this.filters.set(stream, filter);
    }
    return filter.filter(text);
  }
}

/**
 * Container output on its way to a run or logs terminal: filtered per stream, LF turned into CRLF unless a TTY sent
 * it (a TTY sends CRLF already), stderr in red.
 */
export class ContainerTerminalOutput {
  private readonly filters = new StreamOutputFilters();

  constructor(private readonly tty: boolean) {}

  /** What the terminal is written for this piece of a stream (decoded text); state carries over to the next. */
  text(stream: 'stdout' | 'stderr', text: string): string {
    const filtered = this.filters.filter(stream, text);
    if (filtered === '') return '';
    const shown = this.tty ? filtered : toTerminalText(filtered);
    return stream === 'stderr' ? ANSI.red(shown) : shown;
  }
}

/**
 * One whole line of output (compose logs merge lines of several containers): filtered from a fresh state, so a
 * sequence left open at its end cannot swallow the next container's line.
 */
export function filterCompleteLine(text: string): string {
  return new TerminalOutputFilter().filter(text);
}
