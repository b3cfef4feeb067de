// docker's reading of logs --since/--until (its GetTimestamp): durations before now, RFC 3339 dates and times, Unix
// seconds as given, and refusals in docker's words with exit status 1.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '../../../src/cli/args';
import { describeFailure } from '../../../src/cli/failure';
import { engineTimestamp } from '../../../src/cli/timestamps';

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
