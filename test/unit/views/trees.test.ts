import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContainerTree, type ContainerTreeNode } from '../../../src/containers/tree';
import { ImageTree } from '../../../src/images/tree';
import { ImageStore, tagCandidates } from '../../../src/model/stores';
import type { ModelChange } from '../../../src/model/engineModel';
import { toContainerRecord, toImageRecord, type ContainerRecord, type ImageRecord } from '../../../src/model/records';
import { presentContainer, presentGroup, presentImage } from '../../../src/views/presentation';
import type { ContainerSummary, ImageSummary } from '../../../src/engine';
import { containerSummary } from '../model/support';

function container(id: string, name: string, state: ContainerSummary['State'], project?: string): ContainerRecord {
  return toContainerRecord(
    containerSummary(id, name, {
      Ports: [{ IP: '127.0.0.1', PrivatePort: 80, PublicPort: 8080, Type: 'tcp' }],
      Labels: project ? { 'com.docker.compose.project': project, 'com.docker.compose.service': name } : {},
      State: state,
      Status: state === 'running' ? 'Up 2 minutes' : 'Exited (1) 1 minute ago',
    }),
  );
}

function change(parts: Partial<ModelChange['containers']> = {}, images: Partial<ModelChange['images']> = {}): ModelChange {
  return {
    full: false,
    containers: { added: [], updated: [], removed: [], ...parts },
    images: { added: [], updated: [], removed: [], usageChanged: [], ...images },
  };
}

function labels(nodes: readonly ContainerTreeNode[]): string[] {
  return nodes.map((node) => (node.kind === 'group' ? `[${node.project}]` : node.record.name));
}

void test('containers sort by name; a state change refreshes only that row', () => {
  const records = [container('3', 'web', 'running'), container('1', 'api', 'running'), container('2', 'db10', 'exited'), container('4', 'db9', 'exited')];
  const tree = new ContainerTree({ showAll: true, groupBy: 'none' });
  tree.reset(records);
  assert.deepEqual(labels(tree.children()), ['api', 'db9', 'db10', 'web'], 'numeric-aware order');
  const before = records[0]!;
  const after = container('3', 'web', 'exited');
  const plan = tree.apply(change({ updated: [{ previous: before, current: after }] }), () => []);
  assert.equal(plan.all, false);
  assert.deepEqual(plan.nodes, [tree.node('3')]);
  assert.equal(tree.node('3')?.record.state, 'exited');
});

void test('a row is keyed by its container\'s short id; a container whose short id another holds keeps its whole id, and the short one is free again once its holder goes', () => {
  const first = container(`${'a'.repeat(12)}${'1'.repeat(52)}`, 'first', 'running');
  const twin = container(`${'a'.repeat(12)}${'2'.repeat(52)}`, 'twin', 'running');
  const other = container(`${'b'.repeat(12)}${'3'.repeat(52)}`, 'other', 'running');
  const tree = new ContainerTree({ showAll: true, groupBy: 'none' });
  tree.reset([first, other]);
  assert.deepEqual([tree.node(first.id)?.rowKey, tree.node(other.id)?.rowKey], ['a'.repeat(12), 'b'.repeat(12)]);
  tree.apply(change({ added: [twin] }), () => []);
  assert.equal(tree.node(twin.id)?.rowKey, twin.id, 'the later container of the two keeps its whole id');
  assert.equal(tree.node(first.id)?.rowKey, 'a'.repeat(12), 'the row already shown keeps its key');
  // Updated in place or listed again, each keeps the key it had.
  const firstStopped = container(first.id, 'first', 'exited');
  tree.apply(change({ updated: [{ previous: first, current: firstStopped }] }), () => []);
  assert.equal(tree.node(first.id)?.rowKey, 'a'.repeat(12));
  tree.apply(change({ removed: [firstStopped] }), () => []);
  const third = container(`${'a'.repeat(12)}${'4'.repeat(52)}`, 'third', 'running');
  tree.apply(change({ added: [third] }), () => []);
  assert.equal(tree.node(third.id)?.rowKey, 'a'.repeat(12), 'the short key is free once its holder was removed');
  assert.equal(tree.node(twin.id)?.rowKey, twin.id);
  const keys = [...tree.children()].map((node) => (node.kind === 'container' ? node.rowKey : node.project));
  assert.equal(new Set(keys).size, keys.length, `row keys are unique: ${keys.join(', ')}`);
});

void test('running-only hides stopped containers and re-renders the list when one stops', () => {
  const api = container('1', 'api', 'running');
  const tree = new ContainerTree({ showAll: false, groupBy: 'none' });
  tree.reset([api, container('2', 'old', 'exited')]);
  assert.deepEqual(labels(tree.children()), ['api']);
  const plan = tree.apply(change({ updated: [{ previous: api, current: container('1', 'api', 'exited') }] }), () => []);
  assert.equal(plan.all, true);
  assert.deepEqual(labels(tree.children()), []);
  const added = tree.apply(change({ added: [container('5', 'new', 'running')] }), () => []);
  assert.equal(added.all, true);
  assert.deepEqual(labels(tree.children()), ['new']);
});

void test('grouping by compose project: groups first, then the rest; a member change refreshes its group', () => {
  const front = container('1', 'front', 'running', 'shop');
  const tree = new ContainerTree({ showAll: true, groupBy: 'composeProject' });
  tree.reset([front, container('2', 'back', 'exited', 'shop'), container('3', 'loner', 'running'), container('4', 'x', 'running', 'blog')]);
  assert.deepEqual(labels(tree.children()), ['[blog]', '[shop]', 'loner']);
  const shop = tree.children()[1]!;
  assert.deepEqual(labels(tree.children(shop)), ['back', 'front']);
  assert.equal(shop.kind === 'group' && presentGroup(shop.project, tree.groupCounts(shop)).description, '1/2 running');
  const plan = tree.apply(change({ updated: [{ previous: front, current: container('1', 'front', 'exited', 'shop') }] }), () => []);
  assert.equal(plan.all, false);
  assert.deepEqual(new Set(plan.nodes), new Set([tree.node('1'), shop]));
  const removeLast = tree.apply(change({ removed: [container('4', 'x', 'running', 'blog')] }), () => []);
  assert.equal(removeLast.all, true, 'an emptied group disappears from the root');
  assert.deepEqual(labels(tree.children()), ['[shop]', 'loner']);
});

void test('a container row shows name, image · status, a state icon, a namespaced context value and a tooltip', () => {
  // The record reads its listing's "Up 2 minutes" as of now (when it was made), and words it again for any moment.
  const presentation = presentContainer(container('abc', 'web', 'running'), Date.now());
  assert.equal(presentation.label, 'web');
  assert.equal(presentation.description, 'busybox · Up 2 minutes');
  assert.equal(presentation.contextValue, 'berth:container:running');
  assert.deepEqual(presentation.icon, { id: 'vm-running', color: 'charts.green' });
  assert.match(presentation.tooltip, /ID: abc/);
  assert.match(presentation.tooltip, /Ports: 127\\\.0\\\.0\\\.1:8080 → 80\/tcp/);
  assert.match(presentation.tooltip, /running, Up 2 minutes/);
  // Tooltips are worded as of the hover (resolveTreeItem): the age is true when shown, as on an image's.
  assert.match(presentation.tooltip, /Created: 2023\\-11\\-14T22:13:20\\\.000Z \(\d+ years ago\)$/m);
  assert.equal(presentContainer(container('abc', 'web', 'running'), Date.now() + 60 * 60_000).description, 'busybox · Up About an hour');
  const failed = presentContainer(container('d', 'job', 'exited'), 0);
  assert.equal(failed.contextValue, 'berth:container:exited');
  assert.equal(failed.icon.color, 'charts.red', 'a non-zero exit is red');
});

void test('a container row is drawn without wording its tooltip, which is worded when read and as of the row', () => {
  // Thousands of rows are drawn at once and a tooltip waits for a hover: the labels (read only by the tooltip) are
  // not touched until the tooltip is.
  const record = container('abc', 'web', 'running', 'shop');
  let labelReads = 0;
  const labels = record.summary.Labels;
  Object.defineProperty(record.summary, 'Labels', {
    get: () => {
      labelReads++;
      return labels;
    },
  });
  const presentation = presentContainer(record, Date.now() + 60 * 60_000);
  assert.equal(presentation.description, 'busybox · Up About an hour');
  assert.equal(labelReads, 0, 'the labels were read to draw the row');
  assert.match(presentation.tooltip, /com\\\.docker\\\.compose\\\.project = shop/);
  assert.match(presentation.tooltip, /running, Up About an hour/, 'worded as of the moment the row was drawn');
  assert.ok(labelReads > 0);
});

function image(id: string, tags: string[] | null): ImageRecord {
  const summary: ImageSummary = { Id: `sha256:${id}`, ParentId: '', RepoTags: tags, RepoDigests: [], Created: 1_700_000_000, Size: 4_860_000, Labels: null, Containers: -1 };
  return toImageRecord(summary);
}

void test('images: one row per tag, untagged ones last with a short id', () => {
  const tree = new ImageTree();
  tree.reset([image('ffff0123456789abcdef', null), image('aaaa', ['zeta:1', 'alpha:2']), image('bbbb', ['<none>:<none>'])]);
  assert.deepEqual(
    tree.children().map((node) => node.label),
    ['alpha:2', 'zeta:1', '<untagged> sha256:aaaa…'.replace('aaaa', 'bbbb'), '<untagged> sha256:ffff01234567…'],
  );
  const alpha = tree.children()[0]!;
  const shown = presentImage(alpha, { row: 2, image: 2 }, (1_700_000_000 + 3 * 86_400) * 1000);
  assert.equal(shown.description, '4.86MB · 3 days ago · used by 2 containers');
  assert.equal(shown.contextValue, 'berth:image:tagged');
  assert.equal(presentImage(tree.children()[3]!, { row: 0, image: 0 }, 0).contextValue, 'berth:image:untagged');
});

void test('images: a usage change refreshes that image rows only; a tag change re-renders the list', () => {
  const tree = new ImageTree();
  const app = image('aaaa', ['app:1', 'app:latest']);
  tree.reset([app, image('bbbb', ['db:1'])]);
  const usage = tree.apply(change({}, { usageChanged: ['aaaa'] }), () => []);
  assert.equal(usage.all, false);
  assert.deepEqual(usage.nodes.map((node) => node.label), ['app:1', 'app:latest']);
  const retag = tree.apply(change({}, { updated: [{ previous: app, current: image('aaaa', ['app:1']) }] }), () => []);
  assert.equal(retag.all, true);
  assert.deepEqual(tree.children().map((node) => node.label), ['app:1', 'db:1']);
});

void test('an image is found by the short name whatever qualified name the engine lists (Podman: localhost/, docker.io/library/)', () => {
  const store = new ImageStore();
  const summary = (id: string, tags: string[]): ImageSummary => ({ Id: `sha256:${id}`, ParentId: '', RepoTags: tags, RepoDigests: [], Created: 0, Size: 1, Labels: null, Containers: -1 });
  store.replaceAll([
    summary('a1', ['localhost/berth-test/busybox:latest']),
    summary('b2', ['docker.io/library/alpine:3.20']),
    summary('c3', ['quay.io/team/tool:1']),
  ]);
  assert.equal(store.find('berth-test/busybox')?.key, 'a1');
  assert.equal(store.find('berth-test/busybox:latest')?.key, 'a1');
  assert.equal(store.find('alpine:3.20')?.key, 'b2');
  assert.equal(store.find('quay.io/team/tool:1')?.key, 'c3');
  assert.equal(store.find('team/tool:1'), undefined, 'a name with a registry is never re-qualified elsewhere');
  assert.equal(store.find('alpine:3.19'), undefined);
  assert.deepEqual(tagCandidates('127.0.0.1:5055/app'), ['127.0.0.1:5055/app', '127.0.0.1:5055/app:latest']);
});

void test('image ids keep one form: Podman\'s inspect (no sha256: prefix) and its listing give the same record id', () => {
  const hex64 = 'ab'.repeat(32);
  const listed = toImageRecord({ Id: `sha256:${hex64}`, ParentId: '', RepoTags: ['x:1'], RepoDigests: [], Created: 0, Size: 1, Labels: null, Containers: -1 });
  const inspected = toImageRecord({ Id: hex64, ParentId: '', RepoTags: ['x:1'], RepoDigests: [], Created: 0, Size: 1, Labels: null, Containers: -1 });
  assert.equal(inspected.id, listed.id);
  assert.equal(inspected.key, listed.key);
  assert.equal(toImageRecord({ ...listed.summary, Id: 'not-a-digest' }).id, 'not-a-digest');
});

void test('a running container on network none has no "Ports: none" line: the Ports decoration says what it drops', () => {
  const onNone = (networks: Record<string, object>): ContainerRecord =>
    toContainerRecord(containerSummary('n1', 'isolated', { Ports: [], State: 'running', Status: 'Up 2 minutes', NetworkSettings: { Networks: networks } }));
  assert.doesNotMatch(presentContainer(onNone({ none: {} }), Date.now()).tooltip, /Ports:/);
  assert.match(presentContainer(onNone({ bridge: {} }), Date.now()).tooltip, /Ports: none/, 'on another network, no port is said as none');
});
