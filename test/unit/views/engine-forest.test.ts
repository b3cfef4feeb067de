// The tree shape across engines (no extra level with one engine, one root per engine with several) and the engine
// sessions behind it (one model per engine, kept across list updates; which one is current), with in-memory engines.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContainerTree, type ContainerTreeNode } from '../../../src/containers/tree';
import { ImageTree, type ImageNode } from '../../../src/images/tree';
import { EngineForest, isEngineRoot, type EngineRootNode } from '../../../src/views/engineForest';
import { EngineSessions } from '../../../src/model/engineSessions';
import { EngineSession } from '../../../src/model/session';
import { parseHost } from '../../../src/engine';
import type { EngineDescriptor } from '../../../src/model/engineList';
import { presentEngine } from '../../../src/views/presentation';
import { toContainerRecord, toImageRecord } from '../../../src/model/records';
import { containerSummary, hex, MemoryEngine, until } from '../model/support';
import { sleep } from '../../support/wait';

function record(id: string, name: string, project?: string) {
  return toContainerRecord(containerSummary(id, name, { Labels: project ? { 'com.docker.compose.project': project } : {} }));
}

function label(node: ContainerTreeNode | EngineRootNode): string {
  if (isEngineRoot(node)) return `<${node.engine}>`;
  return node.kind === 'group' ? `[${node.project}]` : node.record.name;
}

function containerForest(): EngineForest<ContainerTreeNode, ContainerTree> {
  return new EngineForest((engine) => new ContainerTree({ showAll: true, groupBy: 'composeProject' }, engine));
}

void describe('EngineForest', () => {
  void it('with one engine, the roots are that engine\'s tree: no extra level', () => {
    const forest = containerForest();
    forest.setEngines(['local']);
    forest.tree('local')?.reset([record('1', 'web', 'shop'), record('2', 'api')]);
    assert.equal(forest.isMulti, false);
    assert.deepEqual(forest.children().map(label), ['[shop]', 'api']);
    const group = forest.children()[0]!;
    assert.deepEqual(forest.children(group).map(label), ['web']);
    const web = forest.children(group)[0]!;
    assert.equal(forest.parent(web), group);
    assert.equal(forest.parent(group), undefined, 'a top-level row has no parent');
    assert.equal(forest.refreshTargetFor('local'), undefined, 'a full change refreshes the whole view');
  });

  void it('with several engines, each is a root node holding its own tree, and nodes carry their engine', () => {
    const forest = containerForest();
    forest.setEngines(['local', 'podman:/run/podman.sock']);
    forest.tree('local')?.reset([record('1', 'web', 'shop'), record('2', 'api')]);
    forest.tree('podman:/run/podman.sock')?.reset([record('3', 'db')]);
    assert.equal(forest.isMulti, true);
    const roots = forest.children();
    assert.deepEqual(roots.map(label), ['<local>', '<podman:/run/podman.sock>']);
    assert.deepEqual(forest.children(roots[0]).map(label), ['[shop]', 'api']);
    assert.deepEqual(forest.children(roots[1]).map(label), ['db']);
    const db = forest.children(roots[1])[0]!;
    assert.equal(db.engine, 'podman:/run/podman.sock');
    assert.equal(forest.parent(db), roots[1], 'a top-level row\'s parent is its engine');
    const group = forest.children(roots[0])[0]!;
    assert.equal(forest.parent(forest.children(group)[0]!), group);
    assert.equal(forest.parent(roots[0]!), undefined);
    assert.equal(forest.refreshTargetFor('local'), roots[0], 'a full change refreshes only that engine');
  });

  void it('keeps the tree and root of an engine that stays, and drops back to one level', () => {
    const forest = containerForest();
    forest.setEngines(['a', 'b']);
    const treeA = forest.tree('a');
    const rootA = forest.root('a');
    const change = forest.setEngines(['c', 'a']);
    assert.deepEqual(change, { added: ['c'], removed: ['b'] });
    assert.equal(forest.tree('a'), treeA);
    assert.equal(forest.root('a'), rootA);
    assert.deepEqual(forest.roots().map((root) => root.engine), ['c', 'a'], 'display order follows the list');
    forest.setEngines(['a']);
    treeA?.reset([record('1', 'solo')]);
    assert.deepEqual(forest.children().map(label), ['solo']);
  });

  void it('lays out image trees the same way (they have no parent of their own)', () => {
    const forest = new EngineForest<ImageNode, ImageTree>((engine) => new ImageTree(engine));
    forest.setEngines(['docker', 'podman']);
    const image = toImageRecord({ Id: 'sha256:abc', ParentId: '', RepoTags: ['busybox:latest'], RepoDigests: [], Created: 0, Size: 1, Labels: null, Containers: -1 });
    forest.tree('docker')?.reset([image]);
    forest.tree('podman')?.reset([{ ...image, tags: ['localhost/busybox:latest'] }]);
    const [docker, podman] = forest.children();
    const dockerRows = forest.children(docker) as ImageNode[];
    const podmanRows = forest.children(podman) as ImageNode[];
    assert.deepEqual(dockerRows.map((node) => [node.engine, node.label]), [['docker', 'busybox:latest']]);
    assert.deepEqual(podmanRows.map((node) => [node.engine, node.label]), [['podman', 'localhost/busybox:latest']]);
    assert.equal(forest.parent(podmanRows[0]!), podman);
  });
});

function descriptor(id: string, host: string, name = id): EngineDescriptor {
  const endpoint = parseHost(host, {});
  return { id, name, origin: id === 'local' ? 'local' : 'settings', aliases: [], endpoint, configError: undefined, display: endpoint.display, sourceText: 'test' };
}

function sessionsOver(engines: Map<string, MemoryEngine>): { sessions: EngineSessions; created: string[] } {
  const created: string[] = [];
  const sessions = new EngineSessions({
    log: () => undefined,
    create: (d) => {
      created.push(d.id);
      let engine = engines.get(d.id);
      if (!engine) {
        engine = new MemoryEngine();
        engines.set(d.id, engine);
      }
      return new EngineSession({ descriptor: d, log: () => undefined, source: engine });
    },
  });
  return { sessions, created };
}

void describe('EngineSessions', () => {
  void it('gives each engine its own following model; a list update keeps unchanged sessions', async () => {
    const engines = new Map([['local', new MemoryEngine()], ['settings:lab', new MemoryEngine()]]);
    engines.get('local')!.addContainer(hex(1), 'on-docker');
    engines.get('settings:lab')!.addContainer(hex(2), 'on-lab');
    const { sessions, created } = sessionsOver(engines);
    sessions.update([descriptor('local', 'unix:///d.sock'), descriptor('settings:lab', 'tcp://lab:2375', 'lab')]);
    sessions.start();
    await until(() => sessions.all.every((session) => session.state === 'connected'), 'both connected');
    assert.deepEqual(sessions.all.map((session) => session.model.snapshot().containers.map((c) => c.name)), [['on-docker'], ['on-lab']]);

    // Each follows its own events.
    engines.get('settings:lab')!.addContainer(hex(3), 'late');
    engines.get('settings:lab')!.emit('container', 'create', hex(3));
    await until(() => sessions.find('lab')?.model.container('late') !== undefined, 'lab sees its new container');
    assert.equal(sessions.find('local')?.model.container('late'), undefined);

    const lab = sessions.find('settings:lab');
    let engineChanges = 0;
    sessions.onDidChangeEngines(() => engineChanges++);
    sessions.update([descriptor('local', 'unix:///d.sock'), descriptor('settings:lab', 'tcp://lab:2375', 'lab')]);
    assert.equal(engineChanges, 0, 'nothing changed');
    assert.equal(sessions.find('settings:lab'), lab, 'kept, with its model and connection');
    assert.deepEqual(created, ['local', 'settings:lab']);

    // A new endpoint for the same id is a new session; the old one is disposed (its event stream closes).
    sessions.update([descriptor('local', 'unix:///d.sock'), descriptor('settings:lab', 'tcp://lab2:2375', 'lab')]);
    assert.equal(engineChanges, 1);
    assert.notEqual(sessions.find('settings:lab'), lab);
    await until(() => engines.get('settings:lab')!.openStreams === 1, 'the old stream closed, the new one opened');
    sessions.dispose();
  });

  void it('the current engine is the chosen one while it exists, else the first; switching fires once', () => {
    const { sessions } = sessionsOver(new Map());
    const seen: string[] = [];
    sessions.onDidChangeCurrent((session) => seen.push(session.id));
    sessions.update([descriptor('local', 'unix:///d.sock'), descriptor('context:remote', 'tcp://r:2375', 'remote')], { preferred: 'context:remote' });
    assert.equal(sessions.current.id, 'context:remote');
    assert.equal(sessions.isMulti, true);
    assert.equal(sessions.setCurrent('REMOTE')?.id, 'context:remote', 'names match ignoring case');
    assert.equal(sessions.setCurrent('local')?.id, 'local');
    assert.equal(sessions.setCurrent('nope'), undefined);
    sessions.setCurrent('context:remote');
    sessions.update([descriptor('local', 'unix:///d.sock')]);
    assert.equal(sessions.current.id, 'local', 'the chosen engine went away');
    assert.equal(sessions.isMulti, false);
    sessions.update([descriptor('local', 'unix:///d.sock'), descriptor('context:remote', 'tcp://r:2375', 'remote')]);
    assert.equal(sessions.current.id, 'context:remote', 'and is current again when it is back');
    assert.deepEqual(seen, ['context:remote', 'local', 'context:remote', 'local', 'context:remote']);
    sessions.dispose();
  });

  void it('finds an engine by the id of a source merged into it', () => {
    const { sessions } = sessionsOver(new Map());
    sessions.update([{ ...descriptor('local', 'unix:///d.sock', 'remote'), aliases: ['context:remote', 'settings:same'] }]);
    assert.equal(sessions.find('context:remote')?.id, 'local');
    assert.equal(sessions.setCurrent('settings:same')?.id, 'local');
    sessions.dispose();
  });
});

void describe('remote engines wait', () => {
  void it('an ssh engine lists nothing until a view is shown; a command wakes only its own engine', async () => {
    const engines = new Map([['local', new MemoryEngine()], ['settings:far', new MemoryEngine()], ['settings:farther', new MemoryEngine()]]);
    const { sessions } = sessionsOver(engines);
    sessions.update([descriptor('local', 'unix:///d.sock'), descriptor('settings:far', 'ssh://me@far', 'far'), descriptor('settings:farther', 'ssh://me@farther', 'farther')]);
    sessions.start();
    await until(() => sessions.find('local')?.state === 'connected', 'the local engine connected');
    assert.deepEqual(engines.get('settings:far')!.calls, [], 'no call to the ssh engine at start');

    sessions.wake(sessions.find('far')!);
    await until(() => sessions.find('far')?.state === 'connected', 'the engine a command needs connected');
    assert.deepEqual(engines.get('settings:farther')!.calls, [], 'the other ssh engine still waits');

    sessions.setViewShown('berth.containers', true);
    await until(() => sessions.find('farther')?.state === 'connected', 'a shown view starts the rest');
    // Added while a view is shown: it starts at once. Added while none is: it waits.
    sessions.update([...sessions.all.map((session) => session.descriptor), descriptor('settings:later', 'ssh://me@later', 'later')]);
    await until(() => sessions.find('later')?.state === 'connected', 'a later ssh engine follows at once');
    sessions.setViewShown('berth.containers', false);
    engines.set('settings:latest', new MemoryEngine());
    sessions.update([...sessions.all.map((session) => session.descriptor), descriptor('settings:latest', 'ssh://me@latest', 'latest')]);
    await sleep(50); // a started model would have listed by now
    assert.deepEqual(engines.get('settings:latest')!.calls, [], 'added with every view hidden: it waits');
    sessions.dispose();
  });
});

void describe('engine status', () => {
  void it('an unreachable engine says why, on its row and in its context value', async () => {
    const engine = new MemoryEngine();
    engine.down = new Error('connect ECONNREFUSED /lab.sock. Start the engine, or check the host');
    const session = new EngineSession({ descriptor: descriptor('settings:lab', 'unix:///lab.sock', 'lab'), log: () => undefined, source: engine, model: { backoff: { initialMs: 60_000, maxMs: 60_000 } } });
    let statusChanges = 0;
    session.onDidChangeStatus(() => statusChanges++);
    session.model.start();
    await until(() => session.state === 'unreachable', 'unreachable');
    assert.ok(statusChanges > 0);
    assert.equal(session.statusText(), 'unreachable: connect ECONNREFUSED /lab.sock', 'the first sentence; the advice is in the reason');
    assert.equal(session.reason, 'connect ECONNREFUSED /lab.sock. Start the engine, or check the host');
    const row = presentEngine({ name: session.name, state: session.state, status: session.statusText(), reason: session.reason, endpoint: session.endpointDisplay, source: 'berth.engines setting', current: false });
    assert.equal(row.label, 'lab');
    assert.equal(row.description, 'unreachable: connect ECONNREFUSED /lab.sock');
    assert.match(row.tooltip, /Start the engine, or check the host/, 'the tooltip has the whole message');
    assert.equal(row.contextValue, 'berth:engine:unreachable');
    assert.match(row.tooltip, /Endpoint: unix:\/\/\/lab\\\.sock/, 'markdown-escaped');
    session.dispose();
  });

  void it('a connected engine row shows product and versions, and marks the current engine', () => {
    const row = presentEngine({ name: 'default', state: 'connected', status: 'Docker 20.10.24 · API 1.41', endpoint: 'unix:///d.sock', source: 's', current: true });
    assert.equal(row.description, 'Docker 20.10.24 · API 1.41 · current');
    assert.equal(row.contextValue, 'berth:engine:connected');
    assert.deepEqual(row.icon, { id: 'vm-active', color: 'charts.green' });
  });
});
