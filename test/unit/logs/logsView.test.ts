// A logs view's filter and time range: carried in the URI query and the title, an end before the start refused,
// and the lines a logs buffer keeps judged again under a new filter and found by time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectedMessage } from '../../engine/engine/bad-input-cases';
import { LineFilter } from '../../../src/logs/lineFilter';
import { LogBuffer } from '../../../src/logs/logBuffer';
import { noMatchNotice, rangeError, titleSegment, viewOfQuery, viewQuery, viewTitleSuffix } from '../../../src/logs/logsView';

void describe('logs view spec', () => {
  void it("a regular-expression filter's slashes read as slashes in the tab's name, and the name stays one path segment", () => {
    const title = titleSegment(`web/1${viewTitleSuffix({ filter: { text: 'GET /api/\\d+', regex: true, caseSensitive: false, invert: false } })}`);
    assert.doesNotMatch(title, /[/\\:?#_]/);
    assert.equal(title, 'web\u22151 · \u2215GET \u2215api\u2215\u29f5d+\u2215');
  });

  void it('goes through a URI query and back, and a damaged filter counts as none', () => {
    const view = { filter: { text: 'a|b', regex: true, caseSensitive: false, invert: true }, since: 1764309600, until: 1764313200.5 };
    assert.deepEqual(viewOfQuery(new URLSearchParams(viewQuery(view))), view);
    assert.deepEqual(viewOfQuery(new URLSearchParams({ filter: '{not json', since: 'x' })), { filter: undefined, since: undefined, until: undefined });
  });

  void it('names the filter and the range in the title', () => {
    assert.equal(viewTitleSuffix({}), '');
    assert.equal(viewTitleSuffix({ filter: { text: 'err', regex: false, caseSensitive: false, invert: false } }), ' · "err"');
    assert.equal(viewTitleSuffix({ since: 1764309600 }), ' · 2025-11-28 06:00:00Z – …');
  });

  void it('refuses an end before the start, with both times, and takes an open end', () => {
    assert.equal(rangeError(1764313200, 1764309600), expectedMessage('logs-range-backward', { until: '2025-11-28 06:00:00Z', since: '2025-11-28 07:00:00Z' }));
    assert.equal(rangeError(1764309600, 1764309600), undefined);
    assert.equal(rangeError(1764309600, undefined), undefined);
    assert.equal(rangeError(undefined, 1764309600), undefined);
  });

  void it('says a filter matches nothing yet and keeps following', () => {
    assert.equal(`[Berth] ${noMatchNotice('"zzz"', 42)}`, expectedMessage('logs-filter-matches-nothing', { filter: '"zzz"', count: '42' }));
  });
});

void describe('LogBuffer under a filter and by time', () => {
  function filled(): LogBuffer {
    const buffer = new LogBuffer(100);
    buffer.append('stdout', 'GET /a\n', '2026-11-28T06:00:00.1Z');
    buffer.append('stderr', 'error one\n', '2026-11-28T06:00:01.1Z');
    buffer.appendNotice('web restarted');
    buffer.append('stdout', 'GET /b\n', '2026-11-28T06:00:05.1Z');
    return buffer;
  }

  void it('judges the lines read again, keeping Berth\'s own lines and the stderr mark', () => {
    const filter = LineFilter.create({ text: 'error', regex: false, caseSensitive: false, invert: false });
    assert.ok(filter instanceof LineFilter);
    const kept = LogBuffer.kept(filled(), (line) => filter.keeps(line), 100);
    assert.equal(kept.text(), 'stderr| error one\n[Berth] web restarted\n');
    assert.equal(kept.outputLineCount, 1);
    const none = LogBuffer.kept(filled(), () => false, 100);
    assert.equal(none.outputLineCount, 0);
  });

  void it('finds the first line at or after a time, and says when the time was dropped', () => {
    const buffer = filled();
    assert.equal(buffer.lineOfTime(Date.parse('2026-11-28T06:00:01Z') / 1000), 1);
    assert.equal(buffer.lineOfTime(Date.parse('2026-11-28T06:00:03Z') / 1000), 3, 'past the notice');
    assert.equal(buffer.lineOfTime(Date.parse('2026-11-28T06:00:09Z') / 1000), undefined);
    const capped = new LogBuffer(2);
    for (let second = 0; second < 5; second++) capped.append('stdout', `line ${second}\n`, `2026-11-28T06:00:0${second}.5Z`);
    assert.equal(capped.lineOfTime(Date.parse('2026-11-28T06:00:00Z') / 1000), 'before');
    assert.equal(capped.lineOfTime(Date.parse('2026-11-28T06:00:04Z') / 1000), 2, 'after the line saying what was dropped');
  });
});
