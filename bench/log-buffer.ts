/**
 * `npm run bench:log-buffer`: the cost of the logs editor's text (src/logs/logBuffer.ts) as output flows. The editor
 * asks for the whole text at every refresh (ten a second while output flows); the buffer keeps its finished lines
 * joined and adds the new ones. Beside it, in the same run, the way before: joining every kept line at every refresh.
 * Each refresh's text is also serialised once (JSON, as the extension host's RPC does), so the figures show what the
 * change saves of the whole refresh, not only of the join. No engine. Asserts nothing; writes
 * bench/log-buffer-results.md.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LogBuffer } from '../src/logs/logBuffer';

/** The text the way it was built before: every kept line joined again at each read. */
class JoinEverything {
  private readonly lines: string[] = [];
  private dropped = 0;
  constructor(private readonly maxLines: number) {}
  append(text: string): void {
    this.lines.push(text);
    if (this.lines.length > this.maxLines) {
      this.lines.shift();
      this.dropped++;
    }
  }
  text(): string {
    const body = this.lines.join('');
    return this.dropped === 0 ? body : `[Berth] ${this.dropped} earlier lines dropped\n${body}`;
  }
}

interface Case {
  readonly name: string;
  readonly maxLines: number;
  readonly lines: number;
}

const CASES: Case[] = [
  { name: '100,000 lines, under the default cap (100,000)', maxLines: 100_000, lines: 100_000 },
  { name: '200,000 lines through a 10,000-line cap', maxLines: 10_000, lines: 200_000 },
];
const LINES_PER_REFRESH = 100;
const LINE = `${'x'.repeat(99)}\n`;

function run(make: () => { append(text: string): void; text(): string }, lines: number, serialise: boolean): number {
  const buffer = make();
  const started = performance.now();
  for (let n = 1; n <= lines; n++) {
    buffer.append(LINE);
    if (n % LINES_PER_REFRESH === 0) {
      const text = buffer.text();
      if (serialise) JSON.stringify(text);
    }
  }
  return performance.now() - started;
}

const rows: string[] = [];
for (const each of CASES) {
  for (const serialise of [false, true]) {
    const before = Math.min(...[0, 1].map(() => run(() => new JoinEverything(each.maxLines), each.lines, serialise)));
    const after = Math.min(
      ...[0, 1].map(() =>
        run(() => {
          const buffer = new LogBuffer(each.maxLines);
          return { append: (text: string) => buffer.append('stdout', text), text: () => buffer.text() };
        }, each.lines, serialise),
      ),
    );
    const row = `| ${each.name} | ${serialise ? 'text + serialised' : 'text only'} | ${before.toFixed(0)} ms | ${after.toFixed(0)} ms | ${(after / before).toFixed(3)}× |`;
    console.log(row);
    rows.push(row);
  }
}
const report = [
  '# Logs editor text: kept joined against joined at every refresh',
  '',
  `One refresh per ${LINES_PER_REFRESH} lines of ${LINE.length} bytes; the best of two runs each.`,
  '',
  '| Output | Measured | Joined at every refresh (before) | Kept joined (now) | Now / before |',
  '| --- | --- | --- | --- | --- |',
  ...rows,
  '',
].join('\n');
writeFileSync(join(__dirname, 'log-buffer-results.md'), report);
