// Every terminal that shows container output (run with and without a TTY, logs, compose logs), fed to
// @xterm/headless, the parser VS Code's terminal uses: OSC 0/2/8/52/633, DCS, APC, PM and SOS in their 7-bit and
// 8-bit forms reach none of the terminal's handlers, while the text and its colours still show.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Terminal } from '@xterm/headless';
import { LinePrefixer, type MergedLine } from '../../../src/engine';
import { composeTerminalText } from '../../../src/compose/terminalLines';
import { ContainerTerminalOutput } from '../../../src/terminals/outputFilter';

const ESC = '\x1b';
const ST7 = `${ESC}\\`;

/** [name, 7-bit form, 8-bit form]: each hides a payload that must not reach the terminal. */
const SEQUENCES: ReadonlyArray<readonly [string, string, string]> = [
  ['OSC 0 title', `${ESC}]0;OWNED-0\x07`, '\x9d0;OWNED-0\x9c'],
  ['OSC 2 title', `${ESC}]2;OWNED-2${ST7}`, '\x9d2;OWNED-2\x07'],
  ['OSC 8 link', `${ESC}]8;;vscode://evil/x${ST7}link${ESC}]8;;${ST7}`, '\x9d8;;vscode://evil/x\x9clink\x9d8;;\x9c'],
  ['OSC 52 clipboard', `${ESC}]52;c;b3duZWQ=\x07`, '\x9d52;c;b3duZWQ=\x9c'],
  ['OSC 633 shell integration', `${ESC}]633;E;rm -rf /\x07${ESC}]633;D;0${ST7}`, '\x9d633;E;rm -rf /\x9c\x9d633;D;0\x07'],
  ['DCS', `${ESC}P$qm${ST7}`, '\x90$qm\x9c'],
  ['APC', `${ESC}_apc-payload${ST7}`, '\x9fapc-payload\x9c'],
  ['PM', `${ESC}^pm-payload${ST7}`, '\x9epm-payload\x9c'],
  ['SOS', `${ESC}Xsos-payload${ST7}`, '\x98sos-payload\x9c'],
];

/** One line of hostile output: a red word, every sequence, a green word. Its visible text is `red <links> green`. */
function hostileLine(form: 1 | 2): string {
  return `${ESC}[31mred${ESC}[0m ${SEQUENCES.map((entry) => entry[form]).join('')} ${ESC}[32mgreen${ESC}[0m`;
}
const VISIBLE = 'red link green';

interface Observed {
  readonly titles: string[];
  readonly osc: string[];
  readonly dcs: string[];
  readonly text: string;
  readonly colours: { red: number | undefined; green: number | undefined };
}

/** Writes what a path produced into a headless xterm and reads back everything the terminal did with it. */
async function observe(written: string): Promise<Observed> {
  const terminal = new Terminal({ allowProposedApi: true, cols: 200, rows: 10 });
  const titles: string[] = [];
  const osc: string[] = [];
  const dcs: string[] = [];
  terminal.onTitleChange((title) => titles.push(title));
  for (const id of [0, 1, 2, 8, 52, 633, 1337]) terminal.parser.registerOscHandler(id, (data) => (osc.push(`${id};${data}`), false));
  for (const final of ['q', 'p', '|', '{']) {
    terminal.parser.registerDcsHandler({ final }, (data) => (dcs.push(data), false));
    terminal.parser.registerDcsHandler({ intermediates: '$', final }, (data) => (dcs.push(data), false));
  }
  await new Promise<void>((resolve) => terminal.write(written, resolve));
  const line = terminal.buffer.active.getLine(0);
  assert.ok(line, 'the terminal has a first line');
  const text = line.translateToString(true);
  const colourAt = (column: number): number | undefined => {
    const cell = line.getCell(column);
    return cell?.isFgPalette() ? cell.getFgColor() : undefined;
  };
  const colours = { red: colourAt(text.indexOf('red')), green: colourAt(text.indexOf('green')) };
  terminal.dispose();
  return { titles, osc, dcs, text, colours };
}

/** What each terminal path writes for the same container output, chunked as the worst engine would: char by char. */
/** [path, what it writes for the output, what it shows before the output (compose's prefix)] */
const PATHS: ReadonlyArray<readonly [string, (output: string) => string, string]> = [
  ['run (no TTY)', (output) => charByChar(new ContainerTerminalOutput(false), output), ''],
  ['run (TTY)', (output) => charByChar(new ContainerTerminalOutput(true), output), ''],
  ['logs', (output) => charByChar(new ContainerTerminalOutput(false), output), ''],
  ['compose logs', (output) => composeTerminalText(new LinePrefixer(true), [mergedLine(output)]), 'web-1 | '],
];

function charByChar(path: ContainerTerminalOutput, output: string): string {
  let written = '';
  for (const char of output) written += path.text('stdout', char);
  return written;
}

function mergedLine(text: string): MergedLine {
  return { service: 'web', label: 'web-1', container: 'c0ffee', stream: 'stdout', seconds: 0, nanos: 0, text };
}

void describe('hostile container output in every terminal path (@xterm/headless)', () => {
  void it('the unfiltered corpus does reach the terminal: the observer sees what it must catch', async () => {
    for (const form of [1, 2] as const) {
      const seen = await observe(hostileLine(form));
      assert.deepEqual(seen.titles.length > 0 && seen.osc.length > 0 && seen.dcs.length > 0, true, `form ${form}: ${JSON.stringify(seen)}`);
    }
  });

  for (const [path, write, prefix] of PATHS) {
    for (const form of [1, 2] as const) {
      void it(`${path}, ${form === 1 ? '7-bit' : '8-bit'} sequences: title, links, clipboard and marks untouched; text and colours pass`, async () => {
        const written = write(hostileLine(form));
        const seen = await observe(written);
        assert.deepEqual(seen.titles, [], 'the title changed');
        assert.deepEqual(seen.osc, [], 'an OSC (link, clipboard, shell integration) reached the terminal');
        assert.deepEqual(seen.dcs, [], 'a DCS reached the terminal');
        // APC, PM and SOS have no handler in xterm.js: not one of their introducers may be written.
        // eslint-disable-next-line no-control-regex -- the introducers are control characters
        assert.doesNotMatch(written, /\x1b[P_^X\]]|[\x90\x98\x9d\x9e\x9f]/, 'a string introducer was written');
        assert.equal(seen.text, prefix + VISIBLE);
        assert.deepEqual(seen.colours, { red: 1, green: 2 }, 'the colours did not pass');
      });
    }
  }
});
