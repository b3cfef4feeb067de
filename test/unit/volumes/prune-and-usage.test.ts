// The pure parts of volumes, prune and disk usage: the until filter, the confirmation's words, the outcome line,
// docker's size format, the df figures, and the volume store following events from an in-memory engine.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeOutcome, diskUsageLines, untilSeconds, type DiskUsage, type EngineEvent, type PrunePlan, type Volume } from '../../../src/engine';
import { goSize } from '../../../src/cli/actions/storage';
import { confirmationText, parseFilterEntries } from '../../../src/prune/confirmation';
import { presentVolume, volumeLabel } from '../../../src/volumes/presentation';
import { VolumeStore, type VolumeSource } from '../../../src/volumes/store';
import { nextTurn } from '../../support/wait';

void describe('prune words', () => {
  void it('reads until as a duration, unix seconds or a date', () => {
    const now = Date.UTC(2026, 0, 2);
    assert.equal(untilSeconds('24h', now), now / 1000 - 86_400);
    assert.equal(untilSeconds('90m', now), now / 1000 - 5_400);
    assert.equal(untilSeconds('1700000000', now), 1_700_000_000);
    assert.equal(untilSeconds('2026-01-01T00:00:00Z', now), Date.UTC(2026, 0, 1) / 1000);
    assert.equal(untilSeconds('soon', now), undefined);
  });

  void it('lists what goes with sizes and the total, what stays in use, and the filters', () => {
    const plan: PrunePlan = {
      parts: [{ kind: 'volumes', remove: [{ name: 'a', id: 'a', size: 1_500_000 }, { name: 'b', id: 'b', size: 500_000 }], kept: [{ name: 'c', id: 'c' }] }],
      filters: { label: ['team=x'] },
    };
    const { message, detail } = confirmationText(plan);
    assert.equal(message, 'Remove 2 objects (2MB)?');
    assert.equal(detail, 'Removes 2 unused volumes:\n  a (1.5MB)\n  b (500kB)\n\nKeeps (in use):\n  c\n\nFilters: label=team=x');
  });

  void it('says what the engine removed and reclaimed; nothing removed is not "0 B reclaimed"', () => {
    assert.equal(describeOutcome([{ kind: 'volumes', removed: ['a'], spaceReclaimed: 2_000 }]), 'Removed 1 object; reclaimed 2kB');
    assert.match(describeOutcome([{ kind: 'volumes', removed: [], spaceReclaimed: 0 }]), /^Nothing to remove/);
  });

  void it('refuses a filter that is not KEY=VALUE, naming it', () => {
    assert.deepEqual(parseFilterEntries(['label=a=b', 'until=24h', 'label=c']), { label: ['a=b', 'c'], until: ['24h'] });
    assert.throws(() => parseFilterEntries(['label']), /The filter "label" is not KEY=VALUE/);
  });
});

void describe('disk usage figures', () => {
  void it('prints sizes as go-units does (4 digits in df)', () => {
    assert.equal(goSize(1_984_230), '1.984MB');
    assert.equal(goSize(0), '0B');
    assert.equal(goSize(100_000), '100kB');
    assert.equal(goSize(1_984_230, 3), '1.98MB');
  });

  void it('computes total, active, size and reclaimable per type', () => {
    const usage: DiskUsage = {
      LayersSize: 1000,
      Images: [
        { Id: 'a', RepoTags: ['a:1'], Size: 600, SharedSize: 0, Containers: 1, Created: 0 },
        { Id: 'b', RepoTags: ['b:1'], Size: 400, SharedSize: 0, Containers: 0, Created: 0 },
      ],
      Containers: [
        { Id: 'c1', Names: ['/c1'], Image: 'a', State: 'running', SizeRw: 10, Created: 0, Status: 'Up' },
        { Id: 'c2', Names: ['/c2'], Image: 'a', State: 'exited', SizeRw: 5, Created: 0, Status: 'Exited' },
      ],
      Volumes: [
        { Name: 'v1', Driver: 'local', Mountpoint: '', Labels: null, Scope: 'local', UsageData: { Size: 50, RefCount: 1 } },
        { Name: 'v2', Driver: 'local', Mountpoint: '', Labels: null, Scope: 'local', UsageData: { Size: 70, RefCount: 0 } },
      ],
      BuildCache: [],
    };
    const lines = diskUsageLines(usage);
    assert.deepEqual(lines.map((line) => [line.type, line.total, line.active, line.size, line.reclaimable]), [
      ['Images', 2, 1, 1000, 400],
      ['Containers', 2, 1, 15, 5],
      ['Local Volumes', 2, 1, 120, 70],
      ['Build Cache', 0, 0, 0, 0],
    ]);
  });
});

void describe('volume rows', () => {
  const anonymous = 'f'.repeat(64);
  void it('shortens and marks anonymous volumes, and says who uses a volume', () => {
    assert.equal(volumeLabel(anonymous), 'f'.repeat(12));
    const volume: Volume = { Name: anonymous, Driver: 'local', Mountpoint: '', Labels: null, Scope: 'local', CreatedAt: '2026-01-01T00:00:00Z' };
    const row = presentVolume(volume, [{ id: '1'.repeat(64), name: 'web' }], { size: 2_000, refCount: 1 }, Date.UTC(2026, 0, 1, 1));
    assert.equal(row.label, 'f'.repeat(12));
    assert.equal(row.description, 'anonymous · local · 2kB · About an hour ago · in use by 1 container');
    assert.equal(row.contextValue, 'berth:volume:used');
  });
});

/** An engine in memory: its volumes and an event stream the test pushes into. */
function memoryEngine(volumes: Volume[]): { source: VolumeSource; push(event: EngineEvent): void; dfCalls: () => number } {
  const pending: EngineEvent[] = [];
  let wake: (() => void) | undefined;
  let dfCalls = 0;
  const source: VolumeSource = {
    listVolumes: () => Promise.resolve([...volumes]),
    inspectVolume: (name) => {
      const found = volumes.find((volume) => volume.Name === name);
      return found ? Promise.resolve(found) : Promise.reject(new Error('no such volume'));
    },
    diskUsage: () => {
      dfCalls++;
      return Promise.resolve({ LayersSize: 0, Images: [], Containers: [], Volumes: volumes.map((volume) => ({ ...volume, UsageData: { Size: 10, RefCount: 0 } })), BuildCache: [] });
    },
    events: ({ signal }) => ({
      async *[Symbol.asyncIterator](): AsyncGenerator<EngineEvent> {
        while (!signal?.aborted) {
          const next = pending.shift();
          if (next) yield next;
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      },
    }),
  };
  return {
    source,
    push: (event) => {
      pending.push(event);
      wake?.();
    },
    dfCalls: () => dfCalls,
  };
}

const volume = (name: string): Volume => ({ Name: name, Driver: 'local', Mountpoint: '', Labels: null, Scope: 'local' });

void describe('VolumeStore', () => {
  void it('lists on start, then follows create and destroy events (Podman names the volume in the attributes)', async () => {
    const volumes = [volume('a')];
    const engine = memoryEngine(volumes);
    const store = new VolumeStore(engine.source, () => [], () => undefined);
    const changes: string[] = [];
    store.onDidChange((change) => changes.push(change.all ? 'all' : change.names.join(',')));
    store.start();
    while (!store.listed) await nextTurn();
    assert.deepEqual(store.volumes().map((each) => each.Name), ['a']);
    volumes.push(volume('b'));
    engine.push({ Type: 'volume', Action: 'create', Actor: { ID: '', Attributes: { name: 'b' } }, time: 1, timeNano: 1 });
    while (store.volumes().length < 2) await nextTurn();
    engine.push({ Type: 'volume', Action: 'destroy', Actor: { ID: 'a', Attributes: {} }, time: 2, timeNano: 2 });
    while (store.volume('a')) await nextTurn();
    assert.deepEqual(store.volumes().map((each) => each.Name), ['b']);
    assert.ok(changes.length >= 3);
    store.dispose();
  });

  void it('fetches disk usage only when asked or when older than the limit', async () => {
    let now = 1_000_000;
    const engine = memoryEngine([volume('a')]);
    const store = new VolumeStore(engine.source, () => [], () => undefined, () => now);
    assert.equal(engine.dfCalls(), 0, 'nothing on construction (the idle path)');
    await store.diskUsage(60_000);
    await store.diskUsage(60_000);
    assert.equal(engine.dfCalls(), 1);
    assert.deepEqual(store.usageOf('a'), { size: 10, refCount: 0 });
    now += 61_000;
    await store.diskUsage(60_000);
    assert.equal(engine.dfCalls(), 2);
    store.dispose();
  });
});
