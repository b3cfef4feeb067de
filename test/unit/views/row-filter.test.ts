import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContainerTree, type ContainerTreeNode } from '../../../src/containers/tree';
import { ImageTree } from '../../../src/images/tree';
import type { ModelChange } from '../../../src/model/engineModel';
import { toContainerRecord, toImageRecord, type ContainerRecord } from '../../../src/model/records';
import type { ContainerSummary } from '../../../src/engine';
import {
  carryContainerText,
  containerMatches,
  imageMatches,
  inWorkspace,
  isInsideFolder,
  networkMatches,
  textFilter,
  volumeMatches,
  WORKSPACE_FOLDER_LABEL,
} from '../../../src/views/rowFilter';
import { containerSummary } from '../model/support';

function container(id: string, name: string, state: ContainerSummary['State'], labels: Record<string, string> = {}): ContainerRecord {
  return toContainerRecord(
    containerSummary(id, name, {
      Image: 'registry.local/shop/app:1.2',
      Ports: [{ IP: '127.0.0.1', PrivatePort: 80, PublicPort: 8080, Type: 'tcp' }],
      Labels: labels,
      State: state,
      Status: state === 'running' ? 'Up 2 minutes' : 'Exited (1) 1 minute ago',
    }),
  );
}

function compose(id: string, name: string, project: string, service: string, dir = `/home/u/${project}`): ContainerRecord {
  return container(id, name, 'running', {
    'com.docker.compose.project': project,
    'com.docker.compose.service': service,
    'com.docker.compose.project.working_dir': dir,
    'com.docker.compose.project.config_files': `${dir}/compose.yaml`,
  });
}

function change(parts: Partial<ModelChange['containers']> = {}): ModelChange {
  return { full: false, containers: { added: [], updated: [], removed: [], ...parts }, images: { added: [], updated: [], removed: [], usageChanged: [] } };
}

function labels(nodes: readonly ContainerTreeNode[]): string[] {
  return nodes.map((node) => (node.kind === 'group' ? `[${node.project}]` : node.record.name));
}

void test('a container matches on what its row shows: name, image, id prefix, status, project, service, ports, labels; any case', () => {
  const record = compose(`abc123${'0'.repeat(58)}`, 'shop-web-1', 'shop', 'frontend');
  const matches = (text: string): boolean => containerMatches(record, textFilter(text));
  for (const text of ['SHOP-web', 'registry.local/shop', 'abc12', 'up 2', 'running', 'frontend', '8080', '→ 80/tcp', 'com.docker.compose.service=frontend', '  Web-1  ']) {
    assert.equal(matches(text), true, text);
  }
  assert.equal(matches('bc123'), false, 'an id matches from its start only');
  assert.equal(matches('backend'), false);
  assert.equal(matches('web-1\nshop'), false, 'a needle never spans two fields');
  assert.equal(matches(''), true, 'no text: every row');
});

void test('images, volumes and networks match on their own texts', () => {
  const image = toImageRecord({ Id: `sha256:fe${'1'.repeat(62)}`, ParentId: '', RepoTags: ['shop/api:2'], RepoDigests: [], Created: 0, Size: 1, Labels: { team: 'Payments' }, Containers: 0 });
  assert.equal(imageMatches(image, textFilter('API:2')), true);
  assert.equal(imageMatches(image, textFilter('fe11')), true);
  assert.equal(imageMatches(image, textFilter('sha256:fe')), true);
  assert.equal(imageMatches(image, textFilter('payments')), true);
  assert.equal(imageMatches(image, textFilter('web')), false);
  assert.equal(volumeMatches({ Name: 'pgdata', Driver: 'local', Labels: { 'com.docker.compose.project': 'shop' } }, textFilter('SHOP')), true);
  assert.equal(volumeMatches({ Name: 'pgdata', Driver: 'local', Labels: null }, textFilter('cache')), false);
  assert.equal(networkMatches({ Id: 'ab12cd', Name: 'shop_default', Driver: 'bridge', Labels: {} }, textFilter('ab12')), true);
  assert.equal(networkMatches({ Id: 'ab12cd', Name: 'shop_default', Driver: 'bridge', Labels: {} }, textFilter('host')), false);
});

void test('the workspace scope takes Compose files or a Berth build inside a workspace folder, never a look-alike prefix', () => {
  assert.equal(isInsideFolder('/w/shop/compose.yaml', '/w/shop'), true);
  assert.equal(isInsideFolder('/w/shop', '/w/shop/'), true);
  assert.equal(isInsideFolder('/w/shopping/compose.yaml', '/w/shop'), false);
  const inside = compose('1', 'a', 'shop', 'web', '/w/shop');
  const outside = compose('2', 'b', 'other', 'web', '/elsewhere/other');
  const configOnly = container('3', 'c', 'running', { 'com.docker.compose.project.config_files': '/w/shop/deploy/compose.yaml' });
  const built = container('4', 'd', 'running', { [WORKSPACE_FOLDER_LABEL]: '/w/shop' });
  const plain = container('5', 'e', 'running');
  const folders = ['/w/shop'];
  assert.deepEqual([inside, outside, configOnly, built, plain].map((record) => inWorkspace(record.summary.Labels, folders)), [true, false, true, true, false]);
  assert.equal(inWorkspace(inside.summary.Labels, []), false, 'no workspace folder: nothing belongs to it');
  assert.equal(containerMatches(inside, textFilter('', folders)), true);
  assert.equal(containerMatches(outside, textFilter('', folders)), false);
  assert.equal(containerMatches(inside, textFilter('zzz', folders)), false, 'text and scope both apply');
});

void test('a filtered container tree shows the matching rows, counts N of M, keeps a group while any member matches, and events respect it', () => {
  const records = [compose('1', 'shop-web-1', 'shop', 'web'), compose('2', 'shop-db-1', 'shop', 'db'), container('3', 'loose-web', 'running'), container('4', 'cache', 'exited')];
  const tree = new ContainerTree({ showAll: false, groupBy: 'composeProject', filter: textFilter('web') });
  tree.reset(records);
  assert.deepEqual(labels(tree.children()), ['[shop]', 'loose-web']);
  assert.deepEqual(labels(tree.children(tree.children()[0])), ['shop-web-1']);
  assert.deepEqual(tree.counts(), { shown: 2, total: 3 }, 'the exited container is not counted: the view would not show it unfiltered');
  assert.equal(tree.filtered, true);

  const added = container('5', 'web-new', 'running');
  assert.equal(tree.apply(change({ added: [added] }), () => []).all, true);
  const hidden = container('6', 'queue', 'running');
  tree.apply(change({ added: [hidden] }), () => []);
  assert.equal(tree.node('6')?.visible, false, 'a new row that fails the filter stays hidden');
  assert.deepEqual(tree.counts(), { shown: 3, total: 5 });

  const renamed = container('6', 'queue-web', 'running');
  tree.apply(change({ updated: [{ previous: hidden, current: renamed }] }), () => []);
  assert.equal(tree.node('6')?.visible, true, 'a row that comes to match is shown');
  tree.apply(change({ removed: [records[0]!] }), () => []);
  assert.deepEqual(labels(tree.children()), ['loose-web', 'queue-web', 'web-new'], 'the group goes with its last matching member');
  assert.deepEqual(tree.counts(), { shown: 3, total: 4 });

  tree.reset([...records.slice(1), added, renamed], { showAll: false, groupBy: 'composeProject', filter: textFilter('nothing-matches') });
  assert.deepEqual(tree.children(), []);
  assert.deepEqual(tree.counts(), { shown: 0, total: 4 });
});

void test('a filtered image tree counts rows and hides new images that fail the filter', () => {
  const image = (id: string, tags: string[]) =>
    toImageRecord({ Id: `sha256:${id.repeat(64)}`, ParentId: '', RepoTags: tags, RepoDigests: [], Created: 0, Size: 1, Labels: null, Containers: 0 });
  const tree = new ImageTree('', textFilter('shop'));
  tree.reset([image('a', ['shop/web:1', 'shop/web:latest']), image('b', ['busybox:1'])]);
  assert.deepEqual(tree.children().map((node) => node.label), ['shop/web:1', 'shop/web:latest']);
  assert.deepEqual(tree.counts(), { shown: 2, total: 3 });
  tree.apply({ ...change(), images: { added: [image('c', ['alpine:3'])], updated: [], removed: [], usageChanged: [] } }, () => []);
  assert.deepEqual(tree.counts(), { shown: 2, total: 4 });
  tree.apply({ ...change(), images: { added: [], updated: [], removed: [image('a', ['shop/web:1', 'shop/web:latest'])], usageChanged: [] } }, () => []);
  assert.deepEqual(tree.counts(), { shown: 0, total: 2 });
});

void test('matching 5,000 containers reads each row\'s text once: later keystrokes make no new text', () => {
  const records = Array.from({ length: 5_000 }, (_, index) => container(String(index).padStart(64, '0'), `c-${index}`, 'running'));
  let made = 0;
  const counting = records.map((record) => new Proxy(record, { get: (target, key) => (key === 'summary' && made++, Reflect.get(target, key) as unknown) }));
  // A first keystroke that matches nothing reads every part of every row once.
  assert.equal(counting.filter((record) => containerMatches(record, textFilter('zzz'))).length, 0);
  const readsFirst = made;
  const first = counting.filter((record) => containerMatches(record, textFilter('c-49'))).length;
  const second = counting.filter((record) => containerMatches(record, textFilter('c-499'))).length;
  assert.equal(first, 111);
  assert.equal(second, 11);
  assert.equal(made, readsFirst, 'the later keystrokes read no record again');
});

void test('a refetched record whose only change is its state keeps its text; one with a new label gets a new one', () => {
  const previous = compose('1', 'shop-web-1', 'shop', 'web');
  assert.equal(containerMatches(previous, textFilter('frontend')), false);
  const stopped = toContainerRecord({ ...previous.summary, State: 'exited', Status: 'Exited (0) 1 second ago' });
  carryContainerText(previous, stopped);
  assert.equal(containerMatches(stopped, textFilter('exited (0)')), true, 'the new status matches');
  assert.equal(containerMatches(stopped, textFilter('shop-web-1')), true, 'the carried text still matches the name');
  const relabelled = toContainerRecord({ ...previous.summary, Labels: { ...previous.summary.Labels, tier: 'frontend' } });
  carryContainerText(previous, relabelled);
  assert.equal(containerMatches(relabelled, textFilter('frontend')), true, 'a changed label is matched, not the carried text');
});
