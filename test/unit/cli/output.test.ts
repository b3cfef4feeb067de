import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { resolveEnv } from '../../../src/cli/actions/run';
import { UsageError } from '../../../src/cli/args';
import { describeFailure, outputFailureMessage, singleLine } from '../../../src/cli/failure';
import { outputStream } from '../../../src/cli/streams';
import { PullProgressPrinter } from '../../../src/cli/progress';
import { EngineError } from '../../../src/engine/connection';

void describe('failures', () => {
  void it('maps failures to docker\'s exit statuses', () => {
    const notFound = new EngineError('bad-request', 'OCI runtime create failed: exec: "x": executable file not found in $PATH: unknown');
    const denied = new EngineError('bad-request', 'OCI runtime create failed: exec: "/etc": permission denied: unknown');
    const other = new EngineError('not-found', 'No such image: x');
    assert.equal(describeFailure(notFound, true).exitCode, 127);
    assert.equal(describeFailure(denied, true).exitCode, 126);
    assert.equal(describeFailure(other, true).exitCode, 125);
    assert.equal(describeFailure(other, false).exitCode, 1);
    assert.equal(describeFailure(notFound, false).exitCode, 1);
    assert.equal(describeFailure(new UsageError('bad flag'), false).exitCode, 125);
    assert.equal(describeFailure(new EngineError('cancelled', 'Cancelled'), false).exitCode, 130);
  });

  void it('always yields one line, whatever the engine sent', () => {
    assert.equal(describeFailure(new Error('first line\r\n  second line\n\nthird'), false).message, 'first line second line third');
    assert.equal(singleLine('  padded \n'), 'padded');
    assert.equal(describeFailure('a bare string', false).message, 'a bare string');
    assert.equal(describeFailure(undefined, false).message, 'unexpected failure');
  });
});

void describe('run -e', () => {
  void it('keeps KEY=VALUE, fills KEY from the environment, and drops an unset KEY', () => {
    assert.deepEqual(resolveEnv(['A=1', 'B', 'C', 'D=x=y'], { B: 'from host', C: undefined }), ['A=1', 'B=from host', 'D=x=y']);
    assert.equal(resolveEnv(['UNSET'], {}), undefined);
  });
});

void describe('pull progress', () => {
  const transcript = (isTerminal: boolean): string => {
    let text = '';
    const printer = new PullProgressPrinter({ write: (chunk: string) => (text += chunk) }, isTerminal);
    printer.update({ status: 'Pulling from berth/busybox', id: '1.0' });
    printer.update({ status: 'Pulling fs layer', id: 'abc' });
    printer.update({ status: 'Downloading', id: 'abc', progress: '[=>   ] 1MB/5MB' });
    printer.update({ status: 'Downloading', id: 'abc', progress: '[===> ] 3MB/5MB' });
    printer.update({ status: 'Pull complete', id: 'abc' });
    printer.update({ status: 'Digest: sha256:00' });
    printer.update({ status: 'Downloading', id: 'def', progress: '[=>   ] 1MB/5MB' });
    printer.update({ status: 'Downloading', id: 'def', progress: '[==>  ] 2MB/5MB' });
    printer.finish();
    return text;
  };

  void it('writes one line per state change when stderr is not a terminal', () => {
    assert.equal(
      transcript(false),
      ['1.0: Pulling from berth/busybox', 'abc: Pulling fs layer', 'abc: Downloading', 'abc: Pull complete', 'Digest: sha256:00', 'def: Downloading', ''].join('\n'),
    );
  });

  void it('rewrites byte counts in place on a terminal and ends the live line', () => {
    const text = transcript(true);
    const clear = '\r\x1b[2K';
    assert.ok(text.includes(`abc: Downloading\n${clear}abc: Downloading [===> ] 3MB/5MB${clear}abc: Pull complete\n`), JSON.stringify(text));
    assert.ok(text.endsWith('\r\x1b[2Kdef: Downloading [==>  ] 2MB/5MB\n'));
  });
});

void describe('output streams', () => {
  /** A Writable that takes one chunk at a time and finishes it only when the test says so. */
  function slowWritable(): { stream: Writable; finishOne: () => void; failNext: (code: string) => void } {
    const callbacks: Array<(error?: Error | null) => void> = [];
    let failure: string | undefined;
    const stream = new Writable({
      highWaterMark: 4,
      write(_chunk: Buffer, _encoding, callback) {
        if (failure) callback(Object.assign(new Error(`write ${failure}`), { code: failure }));
        else callbacks.push(callback);
      },
    });
    return { stream, finishOne: () => callbacks.shift()?.(), failNext: (code) => (failure = code) };
  }

  void it('deliver waits for room (drain), and lets go once the reader has taken the data', async () => {
    const { stream, finishOne } = slowWritable();
    const output = outputStream(stream);
    const waiting = output.deliver(Buffer.from('12345678'));
    assert.ok(waiting, 'a full stream makes the writer wait');
    let released = false;
    void waiting.then(() => (released = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(released, false);
    finishOne();
    await waiting;
    assert.equal(output.failure, undefined);
  });

  void it('a failed write is remembered, aborts `failed`, releases waiters and drops later writes', async () => {
    const { stream, failNext } = slowWritable();
    failNext('EPIPE');
    const output = outputStream(stream);
    void output.deliver(Buffer.from('12345678'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(output.failure?.code, 'EPIPE');
    assert.equal(output.failed.aborted, true);
    assert.equal(output.deliver(Buffer.from('more')), undefined);
    assert.equal(outputFailureMessage(output.failure, '/dev/stdout'), 'write /dev/stdout: broken pipe');
    assert.equal(outputFailureMessage(Object.assign(new Error('x'), { code: 'ENOSPC' }), '/dev/stdout'), 'write /dev/stdout: no space left on device');
  });
});
