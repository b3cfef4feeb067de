import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { dockerEventLine, eventNanos, rfc3339NanoFixed, type EngineEvent } from '../../../../src/engine';

const start: EngineEvent = {
  Type: 'container',
  Action: 'start',
  Actor: { ID: 'abc', Attributes: { name: 'web', image: 'busybox', 'Zeta': 'z', 'com.example': 'x' } },
  time: 1795854677,
  timeNano: Number('1795854677123456789'),
  exactTimeNano: '1795854677123456789',
};

void describe('docker events line', () => {
  void it('prints the wire nanoseconds and the attributes sorted by byte', () => {
    assert.equal(eventNanos(start), 1795854677123456789n);
    assert.equal(
      dockerEventLine(start),
      `${rfc3339NanoFixed(1795854677123456789n)} container start abc (Zeta=z, com.example=x, image=busybox, name=web)`,
    );
  });

  void it('leaves out the parentheses when there are no attributes', () => {
    assert.match(dockerEventLine({ ...start, Actor: { ID: 'abc' } }), /container start abc$/);
  });

  void it('writes UTC with Z and another zone with its offset, always nine fraction digits', () => {
    const render = (tz: string): string =>
      execFileSync(process.execPath, ['--import', 'tsx', '-e', "console.log(require('./src/engine/api').rfc3339NanoFixed(1795854677000000500n))"], {
        env: { ...process.env, TZ: tz },
        encoding: 'utf8',
      }).trim();
    assert.equal(render('UTC'), '2026-11-28T08:31:17.000000500Z');
    assert.equal(render('Asia/Kolkata'), '2026-11-28T14:01:17.000000500+05:30');
    assert.equal(render('America/St_Johns'), '2026-11-28T05:01:17.000000500-03:30');
  });
});
