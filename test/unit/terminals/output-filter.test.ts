// The terminal output filter (src/terminals/outputFilter.ts): a table of known attacks, what it keeps, and
// properties over random inputs cut into random chunks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { StreamOutputFilters, TerminalOutputFilter } from '../../../src/terminals/outputFilter';

const ESC = '\x1b';
const filterAll = (text: string): string => new TerminalOutputFilter().filter(text);

/** Output a terminal cannot act on beyond colouring: text, the kept controls and complete SGR sequences only. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this pattern is about
const SAFE = /^(?:[^\x00-\x07\x0b\x0c\x0e-\x1f\x7f-\x9f]|\x1b\[[0-9;:]*m)*$/;

/** [what the attack does, container output, what the terminal receives] */
const attacks: ReadonlyArray<readonly [string, string, string]> = [
  ['OSC 8 link to a vscode:// URI (BEL)', `${ESC}]8;;vscode://evil.ext/run?x=1\x07click me${ESC}]8;;\x07`, 'click me'],
  ['OSC 8 link to a vscode:// URI (ST)', `${ESC}]8;;vscode://evil/x${ESC}\\here${ESC}]8;;${ESC}\\`, 'here'],
  ['OSC 0 / 2 change the terminal title', `${ESC}]0;root@prod${ESC}\\${ESC}]2;owned\x07ok`, 'ok'],
  ['OSC 633 shell-integration marks', `${ESC}]633;A\x07${ESC}]633;E;rm -rf /\x07${ESC}]633;D;0\x07x`, 'x'],
  ['OSC 52 writes the clipboard', `${ESC}]52;c;ZWNobyBvd25lZA==\x07`, ''],
  ['cursor up and erase line, then a fake Berth line', `${ESC}[1A${ESC}[2K\r[Berth] exited with status 0\n`, '\r[Berth] exited with status 0\n'],
  ['cursor position, save and restore', `${ESC}[10;1H${ESC}7${ESC}8${ESC}[s${ESC}[u!`, '!'],
  ['clear screen and scrollback', `${ESC}[2J${ESC}[3J${ESC}c.`, '.'],
  ['private modes: alternate screen, mouse reporting, bracketed paste off', `${ESC}[?1049h${ESC}[?1000h${ESC}[?2004l-`, '-'],
  ['device status / attribute reports that make the terminal type', `${ESC}[6n${ESC}[c${ESC}[>c${ESC}P$q"p${ESC}\\+`, '+'],
  ['DCS, APC, PM and SOS strings', `${ESC}Pq#0;2;0;0;0${ESC}\\${ESC}_apc${ESC}\\${ESC}^pm${ESC}\\${ESC}Xsos${ESC}\\a`, 'a'],
  ['8-bit C1 CSI and OSC dropped; an 8-bit SGR is written as the 7-bit one', '\x9b2J\x9d0;title\x9cz\x9b31m', `z${ESC}[31m`],
  ['charset switch to DEC graphics', `${ESC}(0lqk${ESC}(B`, 'lqk'],
  ['BEL, VT, FF, SO, SI, NUL and DEL', 'a\x07\x0b\x0c\x0e\x0f\x00\x7fb', 'ab'],
  ['an SGR with a private marker or an intermediate is not a colour', `${ESC}[?31m${ESC}[31 m${ESC}[>4;2m.`, '.'],
  ['CAN aborts a sequence; what follows is text', `${ESC}[31\x18m`, 'm'],
  ['an OSC that never ends hides only itself', `before${ESC}]0;never ending title and more`, 'before'],
];

void describe('terminal output filter: known attacks', () => {
  for (const [what, input, expected] of attacks) {
    void it(what, () => {
      const shown = filterAll(input);
      assert.equal(shown, expected);
      assert.match(shown, SAFE);
    });
  }
});

void describe('terminal output filter: what it keeps', () => {
  void it('SGR colours and styles, 256-colour and truecolour, with their text', () => {
    const coloured = `${ESC}[1;31mred${ESC}[0m ${ESC}[38;5;208mo${ESC}[m ${ESC}[38:2::10:20:30mt${ESC}[39m`;
    assert.equal(filterAll(coloured), coloured);
  });

  void it('CR, LF, TAB, backspace and Unicode text', () => {
    const text = 'progress 10%\rprogress 20%\r\nname\tvalue\bé ✓ 日本 🐳\n';
    assert.equal(filterAll(text), text);
  });

  void it('a sequence split across chunks is recognised whole: the SGR kept, the OSC dropped', () => {
    const filter = new TerminalOutputFilter();
    const pieces = [`a${ESC}`, '[3', '1m', 'red', `${ESC}]`, '0;ti', 'tle', '\x07', 'b', ESC, '\\c'];
    assert.equal(pieces.map((piece) => filter.filter(piece)).join(''), `a${ESC}[31mredbc`);
  });

  void it('keeps each stream’s half-read sequence apart', () => {
    const filters = new StreamOutputFilters();
    const shown = [filters.filter('stdout', `${ESC}[3`), filters.filter('stderr', 'err'), filters.filter('stdout', '2mgreen')];
    assert.deepEqual(shown, ['', 'err', `${ESC}[32mgreen`]);
  });
});

/** Text rich in escape-sequence material, so the properties meet every state. */
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(ESC, '[', ']', 'P', '_', '^', 'X', '\\', '\x07', '\x18', '\x9b', '\x9c', '\x9d', ';', '?', 'm', 'H', '0', '1', '3', '8', ' ', '\r', '\n', '\t', '\b', '\x00', '\x7f'),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

/** Cut points into `text`: the same text in random chunks. */
function chunked(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(text.slice(from, point));
    from = point;
  }
  chunks.push(text.slice(from));
  return chunks;
}

void describe('terminal output filter: properties', () => {
  void it('any chunking of any input gives the same output as the whole input', () => {
    fc.assert(
      fc.property(hostile, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const filter = new TerminalOutputFilter();
        assert.equal(chunked(text, cuts).map((chunk) => filter.filter(chunk)).join(''), filterAll(text));
      }),
      { numRuns: 2000 },
    );
  });

  void it('every output chunk on its own is safe: only text, the kept controls and complete SGR sequences', () => {
    fc.assert(
      fc.property(hostile, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const filter = new TerminalOutputFilter();
        for (const chunk of chunked(text, cuts)) assert.match(filter.filter(chunk), SAFE);
      }),
      { numRuns: 2000 },
    );
  });

  void it('text without controls passes unchanged, however it is cut', () => {
    // eslint-disable-next-line no-control-regex -- removing the controls is the point
    const plain = fc.string({ unit: 'grapheme', maxLength: 80 }).map((text) => text.replace(/[\x00-\x1f\x7f-\x9f]/g, ''));
    fc.assert(
      fc.property(plain, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        const filter = new TerminalOutputFilter();
        assert.equal(chunked(text, cuts).map((chunk) => filter.filter(chunk)).join(''), text);
      }),
    );
  });
});
