// Issue 31's row defects, pure parts: a volume row's age moves like a container row's status, and a container's
// tooltip gives its age beside the creation time, as an image's does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Volume } from '../../../src/engine';
import { toContainerRecord } from '../../../src/model/records';
import { containerTooltip } from '../../../src/views/presentation';
import { presentVolume } from '../../../src/volumes/presentation';
import { containerSummary } from '../model/support';

void test('a volume row says when its age changes, and the age shown then is the next one', () => {
  const created = Date.UTC(2026, 0, 1, 12, 0, 0);
  const volume: Volume = { Name: 'webdata', Driver: 'local', Mountpoint: '', Labels: null, Scope: 'local', CreatedAt: new Date(created).toISOString() };
  const fresh = presentVolume(volume, [], undefined, created + 200);
  assert.equal(fresh.description, 'local · Less than a second ago · unused');
  assert.equal(fresh.changesAt, created + 1000);
  const later = presentVolume(volume, [], undefined, fresh.changesAt ?? 0);
  assert.equal(later.description, 'local · 1 second ago · unused');
  assert.equal(later.changesAt, created + 2000);
  const hour = presentVolume(volume, [], undefined, created + 25 * 60_000 + 5);
  assert.equal(hour.description, 'local · 25 minutes ago · unused');
  assert.equal(hour.changesAt, created + 26 * 60_000);
  // A volume without a creation time (some drivers) shows no age and never needs a refresh.
  assert.equal(presentVolume({ ...volume, CreatedAt: undefined }, [], undefined, created).changesAt, undefined);
});

void test("a container's tooltip gives its age beside the creation time, as of the hover", () => {
  const createdSeconds = Date.UTC(2026, 0, 1, 12, 0, 0) / 1000;
  const record = toContainerRecord(containerSummary('c'.repeat(64), 'web', { Created: createdSeconds }));
  const line = (nowMs: number): string => containerTooltip(record, nowMs).split('\n').find((each) => each.startsWith('Created:')) ?? '';
  assert.equal(line(createdSeconds * 1000 + 35 * 60_000), 'Created: 2026\\-01\\-01T12:00:00\\.000Z (35 minutes ago)');
  assert.equal(line(createdSeconds * 1000 + 3 * 3_600_000), 'Created: 2026\\-01\\-01T12:00:00\\.000Z (3 hours ago)');
});
