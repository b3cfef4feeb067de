import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linePrefixes, stampText } from '../../../src/cli/actions/mergedLogs';

void describe('merged logs output', () => {
  void it('pads prefixes to the widest name, colours them only when asked, and drops them with --no-log-prefix', () => {
    assert.deepEqual(linePrefixes(['a', 'web-1'], true, false), ['a     | ', 'web-1 | ']);
    assert.deepEqual(linePrefixes(['a', 'b'], true, true), ['\u001b[36ma |\u001b[0m ', '\u001b[33mb |\u001b[0m ']);
    assert.deepEqual(linePrefixes(['a', 'b'], false, true), ['', '']);
  });

  void it('prints -t stamps as docker does: UTC, nine fraction digits', () => {
    assert.equal(stampText({ seconds: Date.UTC(2026, 10, 28, 8, 0, 1) / 1000, nanos: 5 }), '2026-11-28T08:00:01.000000005Z');
  });
});
