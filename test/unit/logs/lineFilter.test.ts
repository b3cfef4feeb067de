// The logs filter: text or regex, case, invert; whole lines judged, long lines bounded; highlights that never cut
// a colour sequence.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectedMessage } from '../../engine/engine/bad-input-cases';
import { FilteredSink, highlightTerminalText, LineFilter, MAX_JUDGED_LINE_CHARS, type LogFilterSpec } from '../../../src/logs/lineFilter';

function filterOf(spec: Partial<LogFilterSpec> & { text: string }): LineFilter {
  const made = LineFilter.create({ regex: false, caseSensitive: false, invert: false, ...spec });
  assert.ok(made instanceof LineFilter, JSON.stringify(made));
  return made;
}

function collect(filter?: LineFilter): { sink: FilteredSink; out: string[]; notices: string[] } {
  const out: string[] = [];
  const notices: string[] = [];
  const sink = new FilteredSink({ output: (stream, text) => out.push(`${stream}:${text}`), notice: (text) => notices.push(text) }, filter);
  return { sink, out, notices };
}

void describe('LineFilter', () => {
  void it('looks for text as it is, ignoring case unless asked', () => {
    const plain = filterOf({ text: 'a.b' });
    assert.equal(plain.keeps('xA.Bx'), true);
    assert.equal(plain.keeps('axb'), false, 'the dot is a dot, not any character');
    assert.equal(filterOf({ text: 'Err', caseSensitive: true }).keeps('error'), false);
    assert.equal(filterOf({ text: 'Err', caseSensitive: true }).keeps('Error'), true);
  });

  void it('judges a line that still ends with its newline as the same line without it', () => {
    const cases: Array<[Partial<LogFilterSpec> & { text: string }, string]> = [
      [{ text: 'a.b', caseSensitive: true }, 'xa.by'],
      [{ text: 'a.b', caseSensitive: true }, 'axb'],
      [{ text: 'ERR', caseSensitive: true, invert: true }, 'an ERR line'],
      [{ text: 'end$', regex: true }, 'the end'],
      [{ text: 'end$', regex: true, invert: true }, 'the end'],
      [{ text: '^$', regex: true }, ''],
      [{ text: 'a\nb', caseSensitive: true }, 'a'],
    ];
    for (const [spec, line] of cases) {
      const filter = filterOf(spec);
      assert.equal(filter.keepsEnded(`${line}\n`), filter.keeps(line), `${JSON.stringify(spec)} on ${JSON.stringify(line)}`);
    }
    const { sink, out } = collect(filterOf({ text: 'end$', regex: true }));
    sink.output('stdout', 'the end\n');
    sink.output('stdout', 'the end is near\n');
    assert.deepEqual(out, ['stdout:the end\n'], 'a pattern anchored at the end sees the line without its newline');
  });

  void it('takes a regular expression, and inverts', () => {
    const regex = filterOf({ text: '^GET /\\d+', regex: true });
    assert.equal(regex.keeps('GET /42 200'), true);
    assert.equal(regex.keeps('POST /42'), false);
    const inverted = filterOf({ text: 'health', invert: true });
    assert.equal(inverted.keeps('GET /health'), false);
    assert.equal(inverted.keeps('GET /api'), true);
    assert.deepEqual(inverted.matches('health'), [], 'an inverted filter highlights nothing');
  });

  void it('refuses an invalid regular expression with JavaScript\'s reason and what to do', () => {
    const refused = LineFilter.create({ text: '(unclosed', regex: true, caseSensitive: false, invert: false });
    assert.ok(!(refused instanceof LineFilter));
    assert.equal(refused.error, expectedMessage('logs-filter-invalid-regex'));
    const empty = LineFilter.create({ text: '', regex: false, caseSensitive: false, invert: false });
    assert.ok(!(empty instanceof LineFilter) && empty.error.includes('Type the text'));
    assert.ok(LineFilter.create({ text: '(unclosed', regex: false, caseSensitive: false, invert: false }) instanceof LineFilter, 'as text it is fine');
  });

  void it('describes itself for a title', () => {
    assert.equal(filterOf({ text: 'err' }).describe(), '"err"');
    assert.equal(filterOf({ text: 'e.r', regex: true, caseSensitive: true, invert: true }).describe(), 'not /e.r/ Aa');
  });

  void it('finds every match, skipping empty ones', () => {
    assert.deepEqual(filterOf({ text: 'ab' }).matches('ab xAB ab'), [[0, 2], [4, 6], [7, 9]]);
    assert.deepEqual(filterOf({ text: 'x*', regex: true }).matches('axxb'), [[1, 3]]);
  });
});

void describe('highlightTerminalText', () => {
  void it('wraps matches in SGR inverse and leaves colour sequences whole', () => {
    const filter = filterOf({ text: 'err' });
    assert.equal(highlightTerminalText(filter, 'an error\r\n'), 'an \x1b[7merr\x1b[27mor\r\n');
    assert.equal(highlightTerminalText(filter, '\x1b[31merr\x1b[0m ERR'), '\x1b[31m\x1b[7merr\x1b[27m\x1b[0m \x1b[7mERR\x1b[27m');
    assert.equal(highlightTerminalText(filterOf({ text: '31', regex: false }), '\x1b[31mx\x1b[0m'), '\x1b[31mx\x1b[0m', 'the sequence itself is no match');
  });
});

void describe('FilteredSink', () => {
  void it('passes only kept whole lines, joins pieces before judging, and always passes notices', () => {
    const { sink, out, notices } = collect(filterOf({ text: 'keep' }));
    sink.output('stdout', 'drop me\n');
    sink.output('stdout', 'ke');
    sink.output('stderr', 'keep err\n');
    sink.output('stdout', 'ep me\n');
    sink.notice('restarted');
    assert.deepEqual(out, ['stderr:keep err\n', 'stdout:keep me\n']);
    assert.deepEqual(notices, ['restarted']);
    assert.equal(sink.read, 3);
    assert.equal(sink.kept, 2);
  });

  void it('judges a line longer than the bound by its beginning, and the rest follows', () => {
    const { sink, out } = collect(filterOf({ text: 'start' }));
    const head = `start${'x'.repeat(MAX_JUDGED_LINE_CHARS)}`;
    sink.output('stdout', head);
    sink.output('stdout', 'more');
    sink.output('stdout', 'end\n');
    sink.output('stdout', `${'y'.repeat(MAX_JUDGED_LINE_CHARS)}`);
    sink.output('stdout', 'start but too late\n');
    assert.deepEqual(out, [`stdout:${head}`, 'stdout:more', 'stdout:end\n']);
  });

  void it('changes or clears its filter without losing a line', () => {
    const { sink, out } = collect(filterOf({ text: 'a' }));
    sink.output('stdout', 'a1\n');
    sink.filter = filterOf({ text: 'b' });
    sink.output('stdout', 'a2\n');
    sink.output('stdout', 'b');
    sink.filter = undefined;
    sink.output('stdout', '2\n');
    sink.output('stdout', 'c\n');
    assert.deepEqual(out, ['stdout:a1\n', 'stdout:b2\n', 'stdout:c\n']);
  });

  void it('hands on an unfinished last line at the end when it is kept', () => {
    const { sink, out } = collect(filterOf({ text: 'tail' }));
    sink.output('stdout', 'no tail here');
    sink.output('stderr', 'nothing');
    sink.flush();
    assert.deepEqual(out, ['stdout:no tail here']);
  });
});
