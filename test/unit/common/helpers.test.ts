// The helpers every feature shares (src/common): one each of error text, duration, bytes, short ids, repo:tag
// splitting and layer progress, so two features cannot word the same thing two ways.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage, toError } from '../../../src/common/errors';
import { formatBytes, humanDuration, shortId } from '../../../src/common/format';
import { splitRepoTag } from '../../../src/common/imageName';
import { LayerProgress } from '../../../src/common/layerProgress';
import { humanSize, shortId as cliShortId, humanDuration as cliHumanDuration } from '../../../src/cli/format';

void describe('errorMessage and toError', () => {
  void it('take the message of an Error and the String() of anything else', () => {
    class CodedError extends Error {
      readonly code = 'E_TEST';
    }
    assert.equal(errorMessage(new CodedError('refused')), 'refused');
    assert.equal(errorMessage('plain text'), 'plain text');
    assert.equal(errorMessage(42), '42');
    assert.equal(errorMessage(undefined), 'undefined');
    const coded = new CodedError('kept');
    assert.equal(toError(coded), coded, 'an Error is kept with its type and fields');
    const wrapped = toError({ toString: () => 'an object' });
    assert.ok(wrapped instanceof Error);
    assert.equal(wrapped.message, 'an object');
  });
});

void describe('one helper of each kind', () => {
  void it('the CLI formats with the same functions as the extension', () => {
    assert.equal(humanSize, formatBytes);
    assert.equal(cliShortId, shortId);
    assert.equal(cliHumanDuration, humanDuration);
  });

  void it('bytes: decimal units with three significant digits, and "?" for nonsense', () => {
    assert.equal(formatBytes(1_234_567), '1.23MB');
    assert.equal(formatBytes(123_400_000), '123MB');
    assert.equal(formatBytes(-1), '?');
    assert.equal(formatBytes(Number.NaN), '?');
  });

  void it('short ids drop sha256: and keep 12 characters', () => {
    assert.equal(shortId(`sha256:${'ab'.repeat(32)}`), 'abababababab');
    assert.equal(shortId('0123456789abcdef0123'), '0123456789ab');
  });

  void it('repo:tag keeps a digest-free registry port in the repository', () => {
    assert.deepEqual(splitRepoTag('localhost:5000/app'), { repo: 'localhost:5000/app', tag: undefined });
    assert.deepEqual(splitRepoTag('localhost:5000/app:v2'), { repo: 'localhost:5000/app', tag: 'v2' });
  });
});

void describe('LayerProgress', () => {
  void it('counts a pull and a push the same way: done is done whichever word the engine uses', () => {
    const pull = new LayerProgress();
    for (const status of ['Pulling fs layer', 'Downloading', 'Verifying Checksum']) pull.update({ status, id: 'aaaaaaaaaaaa', progressDetail: { current: 10, total: 40 } });
    const push = new LayerProgress();
    push.update({ status: 'Pushing', id: 'aaaaaaaaaaaa', progressDetail: { current: 10, total: 40 } });
    push.update({ status: 'Mounted from team/base', id: 'aaaaaaaaaaaa' });
    for (const progress of [pull, push]) {
      assert.deepEqual(progress.totals, { current: 40, total: 40, layers: 1, doneLayers: 1 });
      assert.equal(progress.percent, 100);
    }
  });

  void it('a layer that appears late does not take the percentage back', () => {
    const progress = new LayerProgress();
    progress.update({ status: 'Downloading', id: 'aaaaaaaaaaaa', progressDetail: { current: 90, total: 100 } });
    assert.equal(progress.percent, 90);
    progress.update({ status: 'Pulling fs layer', id: 'bbbbbbbbbbbb' });
    assert.equal(progress.percent, 90);
    assert.equal(progress.totals.layers, 2);
  });

  void it('lines without a layer id change no totals but keep the status', () => {
    const progress = new LayerProgress();
    assert.equal(progress.update({ status: 'Status: Downloaded newer image for app:1' }), false);
    assert.equal(progress.update({ status: 'Using default tag: latest', id: 'latest' }), false);
    assert.deepEqual(progress.totals, { current: 0, total: 0, layers: 0, doneLayers: 0 });
    assert.equal(progress.status, 'latest: Using default tag: latest');
  });
});
