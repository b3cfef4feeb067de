// A prune's filters as dockerd reads them: which keys each prune takes (anything else refused before a listing),
// label / label! matched the way dockerd's prune matches them, and until as a Go duration, a date or unix seconds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isEngineError, matchesPruneLabels, olderThanUntil, planPrune, untilSeconds, validatePruneFilters, type BuildCacheRecord, type DiskUsage, type EngineClient } from '../../../../src/engine';
import { parseFilterEntries } from '../../../../src/prune/confirmation';

function refusal(work: () => void): Error {
  try {
    work();
  } catch (error) {
    assert.ok(isEngineError(error, 'bad-request'), String(error));
    return error;
  }
  assert.fail('expected a refusal');
}

void describe('prune filters', () => {
  void it('matches label!=KEY against the key and label!=KEY=VALUE against the value, as dockerd does', () => {
    const filters = { label: ['team'], 'label!': ['keep'] };
    assert.equal(matchesPruneLabels(filters, { team: 'a' }), true);
    assert.equal(matchesPruneLabels(filters, { team: 'a', keep: '' }), false);
    assert.equal(matchesPruneLabels(filters, { other: '1' }), false);
    assert.equal(matchesPruneLabels({ 'label!': ['keep=yes'] }, { keep: 'no' }), true);
    assert.equal(matchesPruneLabels({ 'label!': ['keep=yes'] }, { keep: 'yes' }), false);
    // dockerd excludes only what every label! entry matches.
    assert.equal(matchesPruneLabels({ 'label!': ['a', 'b'] }, { a: '1' }), true);
    assert.equal(matchesPruneLabels({ 'label!': ['a', 'b'] }, { a: '1', b: '1' }), false);
    assert.equal(matchesPruneLabels({}, null), true);
  });

  void it('refuses a key the prune does not take, naming it in dockerd\'s words and the keys that do', () => {
    const volumes = refusal(() => validatePruneFilters(['volumes'], { bogus: ['1'] }));
    assert.equal(volumes.message, "Invalid filter 'bogus'. This prune accepts label, label! (e.g. label=team=a, label!=keep)");
    const containers = refusal(() => validatePruneFilters(['containers'], { bogus: ['1'] }));
    assert.equal(containers.message, "Invalid filter 'bogus'. This prune accepts label, label!, until (e.g. label=team=a, label!=keep, until=24h)");
    assert.match(refusal(() => validatePruneFilters(['containers', 'volumes'], { until: ['1h'] })).message, /^The "until" filter is not supported with volumes/);
    assert.match(refusal(() => validatePruneFilters(['containers'], { until: ['soon'] })).message, /^Invalid filter 'until=soon'/);
    validatePruneFilters(['containers', 'networks', 'unused-images', 'build-cache'], { label: ['a'], 'label!': ['keep'], until: ['1h30m'] });
  });

  void it('checks the filter box as it is typed: label!=keep passes, an unknown key is refused', () => {
    assert.deepEqual(parseFilterEntries(['label!=keep', 'label=team=a'], ['volumes']), { 'label!': ['keep'], label: ['team=a'] });
    assert.throws(() => parseFilterEntries(['bogus=1'], ['volumes']), /^EngineError: Invalid filter 'bogus'/);
  });

  void it('reads until as a Go duration, and compares creation times with it', () => {
    assert.equal(untilSeconds('1h30m', 0), -5_400);
    assert.equal(untilSeconds('1.5h', 0), -5_400);
    assert.equal(untilSeconds('500ms', 1_000), 0.5);
    const now = 10_000_000;
    assert.equal(olderThanUntil({ until: ['1h'] }, now / 1000 - 7_200, now), true);
    assert.equal(olderThanUntil({ until: ['1h'] }, now / 1000 - 60, now), false);
    assert.equal(olderThanUntil({}, now / 1000, now), true);
  });
});

void describe('build cache plan', () => {
  void it('lists only the records unused for longer than until, as the builder prunes them', async () => {
    const now = Date.now();
    const record = (id: string, lastUsedMsAgo: number, inUse = false): BuildCacheRecord => ({
      ID: id, Type: 'regular', InUse: inUse, Shared: false, Size: 10, CreatedAt: new Date(now - 86_400_000).toISOString(), LastUsedAt: new Date(now - lastUsedMsAgo).toISOString(), UsageCount: 1,
    });
    const usage: DiskUsage = { LayersSize: 0, Images: [], Containers: [], Volumes: [], BuildCache: [record('old', 7_200_000), record('recent', 60_000), record('busy', 7_200_000, true)] };
    // Planning build cache reads /system/df only.
    const client = { system: { df: () => Promise.resolve(usage) } } as unknown as EngineClient;
    const plan = await planPrune(client, ['build-cache'], { until: ['1h'] });
    assert.deepEqual(plan.parts[0]?.remove.map((item) => item.id), ['old']);
    assert.deepEqual(plan.parts[0]?.kept.map((item) => item.id), ['busy']);
    const all = await planPrune(client, ['build-cache']);
    assert.deepEqual(all.parts[0]?.remove.map((item) => item.id), ['old', 'recent']);
  });
});
