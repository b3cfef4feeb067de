import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, momentWords, shortId } from '../../../src/common/format';
import { splitCommandLine } from '../../../src/common/argv';
import { splitRepoTag } from '../../../src/common/imageName';
import { SortedList } from '../../../src/common/sortedList';
import { backoffDelay, sinceBefore, sinceFromEvent } from '../../../src/model/reconnect';
import { LayerProgress } from '../../../src/common/layerProgress';
import { classifyUnreachable } from '../../../src/model/unreachable';
import { EngineError } from '../../../src/engine';

void test('sizes use decimal units like the docker CLI', () => {
  assert.equal(formatBytes(0), '0B');
  assert.equal(formatBytes(999), '999B');
  assert.equal(formatBytes(1000), '1kB');
  assert.equal(formatBytes(4_860_000), '4.86MB');
  assert.equal(formatBytes(72_800_000), '72.8MB');
  assert.equal(formatBytes(1_230_000_000), '1.23GB');
});

void test('short ids drop sha256: and keep 12 characters', () => {
  assert.equal(shortId('sha256:0123456789abcdef'), '0123456789ab');
});

void test('reconnect since is SEC.NANOS of the last event', () => {
  // Doubles keep ~16 digits of timeNano: the seconds are exact, the nanoseconds within a few hundred.
  const timeNano = 1_700_000_001 * 1e9 + 123; // as JSON.parse gives it: a double, close to the true value
  assert.match(sinceFromEvent(timeNano, 1_700_000_001)!, /^1700000001\.000000\d{3}$/);
  assert.match(sinceFromEvent(1_700_000_001_500_000_000, undefined)!, /^1700000001\.5\d{8}$/);
  assert.equal(sinceFromEvent(undefined, 1_700_000_002), '1700000002.000000000');
  assert.equal(sinceFromEvent(undefined, undefined), undefined);
  assert.equal(sinceBefore(1_700_000_005_250, 2000), '1700000003.250000000');
});

void test('backoff doubles and is capped', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 10, 19].map((attempt) => backoffDelay(attempt)), [250, 500, 1000, 1500, 1500, 1500, 1500, 1500]);
  // An engine that stays away: after 20 attempts (about 25 s) the delay grows again, to 30 s and no further.
  assert.deepEqual([20, 21, 22, 23, 24, 25, 100, 10_000].map((attempt) => backoffDelay(attempt)), [3000, 6000, 12_000, 24_000, 30_000, 30_000, 30_000, 30_000]);
  const fastPhase = Array.from({ length: 20 }, (_, attempt) => backoffDelay(attempt)).reduce((sum, delay) => sum + delay, 0);
  assert.ok(fastPhase >= 20_000 && fastPhase <= 30_000, `the fast phase lasts ${fastPhase} ms`);
  // A policy without a slow phase keeps its cap for ever.
  assert.equal(backoffDelay(1000, { initialMs: 100, maxMs: 400 }), 400);
});

void test('command lines split like a shell tokenizer, without expansion', () => {
  assert.deepEqual(splitCommandLine(`sh -c 'echo $HOME; ls' "a b" c\\ d`), ['sh', '-c', 'echo $HOME; ls', 'a b', 'c d']);
  assert.deepEqual(splitCommandLine('  '), []);
  assert.deepEqual(splitCommandLine(`echo ""`), ['echo', '']);
  assert.throws(() => splitCommandLine(`echo "open`), /Unclosed/);
});

void test('repo:tag splitting ignores a registry port', () => {
  assert.deepEqual(splitRepoTag('127.0.0.1:5055/team/app:1.0'), { repo: '127.0.0.1:5055/team/app', tag: '1.0' });
  assert.deepEqual(splitRepoTag('127.0.0.1:5055/team/app'), { repo: '127.0.0.1:5055/team/app', tag: undefined });
  assert.deepEqual(splitRepoTag('app'), { repo: 'app', tag: undefined });
});

void test('a sorted list stays sorted through inserts and removals', () => {
  const list = new SortedList<number>((a, b) => a - b);
  for (const value of [5, 1, 4, 1, 3]) list.insert(value);
  assert.deepEqual(list.view, [1, 1, 3, 4, 5]);
  assert.equal(list.remove(4), true);
  assert.equal(list.remove(9), false);
  assert.deepEqual(list.view, [1, 1, 3, 5]);
});

void test('pull progress sums layer bytes into one percentage that never goes back', () => {
  const tracker = new LayerProgress();
  const percentAfter = (line: Parameters<LayerProgress['update']>[0]): number => {
    tracker.update(line);
    return tracker.percent;
  };
  assert.equal(percentAfter({ status: 'Pulling from team/app', id: '1.0' }), 0);
  tracker.update({ status: 'Pulling fs layer', id: 'aaaaaaaaaaaa' });
  tracker.update({ status: 'Pulling fs layer', id: 'bbbbbbbbbbbb' });
  assert.equal(percentAfter({ status: 'Downloading', id: 'aaaaaaaaaaaa', progressDetail: { current: 50, total: 100 } }), 25, 'half of one known layer, the other unknown');
  assert.equal(percentAfter({ status: 'Downloading', id: 'bbbbbbbbbbbb', progressDetail: { current: 100, total: 300 } }), 37);
  assert.equal(percentAfter({ status: 'Download complete', id: 'aaaaaaaaaaaa' }), 50);
  assert.equal(percentAfter({ status: 'Pull complete', id: 'bbbbbbbbbbbb' }), 100);
  assert.equal(percentAfter({ status: 'Extracting', id: 'bbbbbbbbbbbb', progressDetail: { current: 1, total: 300 } }), 100);
  assert.equal(tracker.status, 'bbbbbbbbbbbb: Extracting');
  assert.deepEqual(tracker.totals, { current: 400, total: 400, layers: 2, doneLayers: 2 }, 'the repository line is not a layer; Extracting after done changes nothing');
});

void test('unreachable errors are sorted by their cause', () => {
  const withCode = (code: string): Error => new EngineError('unreachable', 'Cannot connect', { cause: Object.assign(new Error(code), { code }) });
  assert.equal(classifyUnreachable(withCode('ENOENT')), 'missing');
  assert.equal(classifyUnreachable(withCode('ECONNREFUSED')), 'refused');
  assert.equal(classifyUnreachable(withCode('EACCES')), 'denied');
  assert.equal(classifyUnreachable(new EngineError('version', 'client version 1.51 is too new')), 'version');
  assert.equal(classifyUnreachable(new Error('weird')), 'other');
});

void test('momentWords: a clock time for a moment of today, with its date for an earlier day', () => {
  const now = new Date(2026, 10, 26, 15, 30).getTime();
  const today = momentWords(new Date(2026, 10, 26, 14, 2).getTime(), now);
  assert.ok(today.includes('02'), `no minutes in today's moment: ${today}`);
  assert.ok(!today.includes('2026'), `today's moment carries a date: ${today}`);
  const earlier = momentWords(new Date(2026, 10, 20, 14, 2).getTime(), now);
  assert.ok(earlier.includes('2026'), `an earlier day's moment has no date: ${earlier}`);
});
