// Issue 20's smaller row defects, pure parts: the tooltip's state phrase and command line, and an image row's
// "used by N containers" counted per tag.
import { test } from 'node:test';
import { firstFilterMatch } from '../../../src/workbench/pickFilter';
import assert from 'node:assert/strict';
import { ContainerStore } from '../../../src/model/stores';
import { toContainerRecord, toImageRecord } from '../../../src/model/records';
import { containerTooltip, markdownCommand, presentImage, stateAndStatus, usedBy } from '../../../src/views/presentation';
import { dockerCommand } from '../../../src/model/containerInspect';
import { containerSummary } from '../model/support';

void test('the tooltip names the state once: "Created", not "created, Created"', () => {
  assert.equal(stateAndStatus('created', 'Created'), 'Created');
  assert.equal(stateAndStatus('exited', 'Exited (3) 2 minutes ago'), 'Exited (3) 2 minutes ago');
  assert.equal(stateAndStatus('running', 'Up 5 minutes'), 'running, Up 5 minutes');
  assert.equal(stateAndStatus('running', ''), 'running');
  const record = toContainerRecord(containerSummary('c'.repeat(64), 'fresh', { State: 'created', Status: 'Created' }));
  const firstLine = containerTooltip(record, Date.now()).split('\n')[0] ?? '';
  assert.equal(firstLine, '**fresh** — Created');
});

void test('the tooltip keeps the spaces inside a quoted argument, as docker ps shows the command', () => {
  const command = dockerCommand('sh', ['-c', 'echo a   b', 'x']);
  assert.equal(command, "sh -c 'echo a   b' x");
  const shown = markdownCommand(command);
  // Markdown collapses a run of spaces: all but the first are non-breaking, so three stay three.
  assert.equal(shown, "sh \\-c 'echo a \u00a0\u00a0b' x");
  assert.equal(shown.replace(/\\/g, '').replace(/\u00a0/g, ' '), command, 'nothing else changes');
  const record = toContainerRecord(containerSummary('d'.repeat(64), 'quoted', { Command: command }));
  assert.ok(containerTooltip(record, Date.now()).includes(`Command: ${shown}`));
});

void test('"used by N containers": 1 container, N containers, nothing for none', () => {
  assert.equal(usedBy(0), undefined);
  assert.equal(usedBy(1), 'used by 1 container');
  assert.equal(usedBy(1011), 'used by 1011 containers');
});

void test('tags that share an image id each count the containers created from them, not all of the image\'s', () => {
  const store = new ContainerStore();
  const changed = new Set<string>();
  const imageId = 'sha256:' + 'e'.repeat(64);
  const key = 'e'.repeat(64);
  const make = (index: number, image: string): void => {
    store.upsert(containerSummary(String(index).padStart(64, '0'), `c${index}`, { Image: image, ImageID: imageId }), changed);
  };
  make(1, 'busybox');
  make(2, 'busybox:latest');
  make(3, 'app:1');
  make(4, imageId);
  assert.equal(store.usageOf(key), 4);
  assert.equal(store.usageOfTag(key, 'busybox:latest'), 2, '"busybox" is busybox:latest');
  assert.equal(store.usageOfTag(key, 'app:1'), 1);
  assert.equal(store.usageOfTag(key, 'other:2'), 0);
  assert.equal(store.usageOfTag(key, 'docker.io/library/busybox:latest'), 2, "Podman's qualified tag");
  store.remove('1'.padStart(64, '0'), changed);
  assert.equal(store.usageOfTag(key, 'busybox:latest'), 1);
  // The tag moved away: docker lists the container's image by id from then on.
  store.upsert(containerSummary('3'.padStart(64, '0'), 'c3', { Image: imageId, ImageID: imageId }), changed);
  assert.equal(store.usageOfTag(key, 'app:1'), 0);
  assert.equal(store.usageOf(key), 3);

  const record = toImageRecord({ Id: imageId, ParentId: '', RepoTags: ['app:1', 'busybox:latest'], RepoDigests: [], Created: 1_700_000_000, Size: 1000, Labels: null, Containers: -1 });
  const row = presentImage({ tag: 'busybox:latest', label: 'busybox:latest', record }, { row: 1, image: 3 }, 1_700_000_000_000);
  assert.equal(row.description, '1kB · Less than a second ago · used by 1 container');
  assert.match(row.tooltip, /Used by: 1 container created from busybox:latest \(3 containers of this image in all\)/);
  const unused = presentImage({ tag: 'app:1', label: 'app:1', record }, { row: 0, image: 3 }, 1_700_000_000_000);
  assert.doesNotMatch(unused.description, /used by/);
  const untagged = presentImage({ tag: undefined, label: 'x', record }, { row: 3, image: 3 }, 1_700_000_000_000);
  assert.match(untagged.description, /used by 3 containers$/);
});

void test('the multi-pick highlights the first item the typed filter keeps: label first, then description, ignoring case', () => {
  const items = [
    { label: 'web-1', description: 'Exited (0) · nginx' },
    { label: 'Worker-2', description: 'Created · busybox' },
    { label: 'db', description: 'Up 2 minutes · postgres' },
  ];
  assert.equal(firstFilterMatch(items, '')?.label, 'web-1');
  assert.equal(firstFilterMatch(items, 'WORK')?.label, 'Worker-2');
  assert.equal(firstFilterMatch(items, '  db ')?.label, 'db');
  assert.equal(firstFilterMatch(items, 'postgres')?.label, 'db', 'a description match when no label has it');
  assert.equal(firstFilterMatch(items, 'er-2')?.label, 'Worker-2');
  assert.equal(firstFilterMatch(items, 'redis'), undefined, 'nothing kept: nothing highlighted, Enter keeps the picker open');
});
