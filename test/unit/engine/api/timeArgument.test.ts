// docker's reading of since/until (its GetTimestamp), shared by the CLI, the agent tools and the logs workbench:
// durations before now, RFC 3339 dates and times, Unix seconds as given; the CLI refuses in docker's words, exit 1.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '../../../../src/cli/args';
import { describeFailure } from '../../../../src/cli/failure';
import { engineTimestamp } from '../../../../src/cli/timestamps';
import { engineTimestamp as sharedTimestamp, TimeArgumentError, timeArgumentSeconds } from '../../../../src/engine/api';

const NOW_MS = Date.UTC(2024, 4, 1, 12, 0, 0, 750);
const NOW_S = Math.floor(NOW_MS / 1000);

void describe('logs --since/--until values', () => {
  void it('a Go duration counts back from now, in whole seconds', () => {
    assert.equal(engineTimestamp('10m', NOW_MS, 'since'), String(NOW_S - 600));
    assert.equal(engineTimestamp('1h30m', NOW_MS, 'since'), String(NOW_S - 5400));
    assert.equal(engineTimestamp('1.5h', NOW_MS, 'since'), String(NOW_S - 5400));
    assert.equal(engineTimestamp('1500ms', NOW_MS, 'since'), String(Math.floor((NOW_MS - 1500) / 1000)));
    assert.equal(engineTimestamp('-1m', NOW_MS, 'until'), String(NOW_S + 60));
  });

  void it('RFC 3339 times with a zone become seconds.nanoseconds; without one they are local time', () => {
    assert.equal(engineTimestamp('2024-05-01T10:00:00Z', NOW_MS, 'since'), `${Date.UTC(2024, 4, 1, 10) / 1000}.000000000`);
    assert.equal(engineTimestamp('2024-05-01T12:00:00+02:00', NOW_MS, 'since'), `${Date.UTC(2024, 4, 1, 10) / 1000}.000000000`);
    assert.equal(engineTimestamp('2024-05-01T10:00:00.5Z', NOW_MS, 'since'), `${Date.UTC(2024, 4, 1, 10) / 1000}.500000000`);
    assert.equal(engineTimestamp('2024-05-01T10Z', NOW_MS, 'since'), `${Date.UTC(2024, 4, 1, 10) / 1000}.000000000`);
    assert.equal(engineTimestamp('2024-05-01', NOW_MS, 'since'), `${new Date(2024, 4, 1).getTime() / 1000}.000000000`);
    assert.equal(engineTimestamp('2024-05-01T13:23', NOW_MS, 'since'), `${new Date(2024, 4, 1, 13, 23).getTime() / 1000}.000000000`);
  });

  void it('Unix seconds, and 0, pass as given', () => {
    assert.equal(engineTimestamp('1714560000', NOW_MS, 'since'), '1714560000');
    assert.equal(engineTimestamp('1714560000.25', NOW_MS, 'since'), '1714560000.25');
    assert.equal(engineTimestamp('0', NOW_MS, 'since'), '0');
  });

  void it('refuses what is none of these in docker\'s words, exit 1', () => {
    for (const [value, reason] of [
      ['bogus', 'failed to parse value as time or duration: "bogus"'],
      ['2024-13-01', 'parsing time "2024-13-01": a field is out of range'],
      ['2024-02-30', 'parsing time "2024-02-30": a field is out of range'],
      ['10 minutes', 'failed to parse value as time or duration: "10 minutes"'],
    ]) {
      const error = (() => {
        try {
          engineTimestamp(value as string, NOW_MS, 'since');
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      assert.ok(error instanceof UsageError, value);
      assert.ok(error.message.startsWith(`invalid value for "since": ${reason}. Give a duration`), error.message);
      assert.equal(describeFailure(error, false).exitCode, 1);
    }
  });
});

void describe('the shared reading of since and until', () => {
  const now = Date.parse('2026-11-28T06:00:00Z');
  const cases: Array<[string, number]> = [
    ['10m', now / 1000 - 600],
    ['1h30m', now / 1000 - 5400],
    ['1.5s', Math.floor(now / 1000 - 1.5)],
    ['1732780800', 1732780800],
    ['1732780800.25', 1732780800.25],
    ['2026-11-28T05:00:00Z', now / 1000 - 3600],
    ['2026-11-28T05:00:00.123456789Z', now / 1000 - 3600 + 0.123456789],
    ['2026-11-28T07:00:00+02:00', now / 1000 - 3600],
    // A time without a zone is local time, as docker reads it (not UTC).
    ['2026-11-28', new Date(2026, 10, 28).getTime() / 1000],
    ['2026-11-28T05:00:00', new Date(2026, 10, 28, 5).getTime() / 1000],
  ];
  for (const [text, seconds] of cases) {
    void it(`${text}`, () => {
      const parsed = timeArgumentSeconds(text, now);
      assert.ok(Math.abs(parsed - seconds) < 1e-6, `${parsed} against ${seconds}`);
    });
  }

  void it('refuses with a neutral error that carries docker\'s reason and no front\'s advice', () => {
    for (const value of ['yesterday', '10 minutes', '2024-02-30']) {
      assert.throws(() => sharedTimestamp(value, now), (error: unknown) => {
        assert.ok(error instanceof TimeArgumentError, value);
        assert.ok(!error.message.includes('invalid value for'), error.message);
        return true;
      });
    }
  });
});
