// Compose projects on the private dockerd, made by Debian's docker-compose 1.29 (every service network_mode: none):
// no network is created, the project is found by its labels, the group actions act through the API with bounded
// concurrency and report a failure per container, and the merged logs keep the engine's order, follow a restart
// and a scale-up.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ProjectLogs, actOnMembers, actOnProject, findComposeProject, listComposeProjects, type ComposeMember, type MergedLine } from '../../../src/engine';
import { composeFixture, type ComposeFixture } from '../../support/composeProject';
import { uniqueName } from '../../support/engines';
import { useEngineSuite } from '../../support/engineSuite';
import { sleep, until } from '../../support/wait';

const ticker = (name: string, count: number, pause: string): string[] => ['sh', '-c', `i=0; while [ $i -lt ${count} ]; do echo ${name} $i; i=$((i+1)); sleep ${pause}; done; sleep 1000`];

void describe('compose projects on dockerd (docker-compose 1.29)', () => {
  const suite = useEngineSuite({ name: 'compose' });
  let fixture: ComposeFixture;
  let networksBefore: string[];

  before(async () => {
    networksBefore = (await suite.client.networks.list()).map((network) => network.Name).sort();
    fixture = await composeFixture(suite.host, suite.engines.image, uniqueName('cmp').toLowerCase().replace(/[^a-z0-9]/g, ''), {
      web: { command: ticker('web', 5, '0.2') },
      db: { command: ticker('db', 5, '0.2') },
      worker: { command: ['sleep', '1000'] },
      debug: { command: ['sleep', '1000'], profiles: ['debug'] },
    });
    await fixture.compose(['up', '-d']);
  });
  after(async () => {
    await fixture.dispose();
  });

  void it('creates no network on dockerd, and the project is found by its labels with its place', async () => {
    assert.deepEqual((await suite.client.networks.list()).map((network) => network.Name).sort(), networksBefore);
    const project = await findComposeProject(suite.client, fixture.project);
    assert.deepEqual(project.members.map((member) => member.service).sort(), ['db', 'web', 'worker'], 'the profiled service stays down');
    assert.equal(project.running, 3);
    assert.equal(project.workingDir, fixture.dir);
    assert.deepEqual(project.configFiles, [fixture.file]);
    assert.ok((await listComposeProjects(suite.client)).some((candidate) => candidate.name === fixture.project));
  });

  void it('stops, starts and restarts every container of the project through the API', async () => {
    const stopped = await actOnProject(suite.client, fixture.project, 'stop', { timeoutSeconds: 0, concurrency: 2 });
    assert.equal(stopped.done.length, 3);
    assert.equal(stopped.failed.length, 0);
    assert.equal((await findComposeProject(suite.client, fixture.project)).running, 0);
    const started = await actOnProject(suite.client, fixture.project, 'start');
    assert.deepEqual(started.done.map((member) => member.service).sort(), ['db', 'web', 'worker']);
    assert.equal((await findComposeProject(suite.client, fixture.project)).running, 3);
    const restarted = await actOnProject(suite.client, fixture.project, 'restart', { timeoutSeconds: 0 });
    assert.equal(restarted.done.length, 3);
  });

  void it('reports a container that fails and still acts on the others', async () => {
    const project = await findComposeProject(suite.client, fixture.project);
    const ghost: ComposeMember = { id: 'berth-no-such-container', name: 'ghost', service: 'ghost', number: 1, state: 'running' };
    const settled: string[] = [];
    const result = await actOnMembers(suite.client, 'restart', [ghost, ...project.members], { timeoutSeconds: 0, onSettled: (member) => settled.push(member.name) });
    assert.equal(result.done.length, 3);
    assert.equal(result.failed.length, 1);
    assert.equal(result.failed[0]?.member.name, 'ghost');
    assert.equal(result.failed[0]?.error.kind, 'not-found');
    assert.match(result.failed[0]?.error.message ?? '', /No such container: berth-no-such-container/);
    assert.equal(settled.length, 4);
  });

  void it('an unknown project is refused with the projects there are', async () => {
    await assert.rejects(findComposeProject(suite.client, 'berth-no-such-project'), (error: Error) => error.message.includes('No Compose project named "berth-no-such-project"') && error.message.includes(fixture.project));
  });

  void it('merges the logs of every service in the order of the engine stamps', async () => {
    // Stopped first, so the engine's own logs read afterwards are the same lines.
    await actOnProject(suite.client, fixture.project, 'stop', { timeoutSeconds: 0 });
    const lines: MergedLine[] = [];
    const logs = new ProjectLogs(suite.client, fixture.project, { lines: (batch) => lines.push(...batch), notice: () => undefined }, { follow: false, tail: 'all', signal: AbortSignal.timeout(60_000) });
    await logs.run();
    // Every line of every container, as the engine has it (docker logs), none lost and none twice.
    for (const member of (await findComposeProject(suite.client, fixture.project)).members) {
      let own = '';
      for await (const chunk of suite.client.containers.logs(member.id, { tail: 'all' })) own += chunk.data.toString('utf8');
      const merged = lines.filter((line) => line.container === member.id).map((line) => line.text);
      assert.deepEqual(merged, own.split('\n').slice(0, -1), member.name);
    }
    assert.ok(lines.filter((line) => line.service === 'web').length >= 4);
    for (let i = 1; i < lines.length; i++) {
      const [a, b] = [lines[i - 1], lines[i]];
      assert.ok(a && b && (a.seconds < b.seconds || (a.seconds === b.seconds && a.nanos <= b.nanos)), `line ${i} goes back in time`);
    }
    const services = new Set(lines.slice(0, 6).map((line) => line.service));
    assert.ok(services.has('web') && services.has('db'), 'the two services interleave');
  });

  void it('following: a restarted service resumes after its last line, a scaled-up container joins', async () => {
    const lines: MergedLine[] = [];
    const notices: string[] = [];
    const controller = new AbortController();
    const logs = new ProjectLogs(suite.client, fixture.project, { lines: (batch) => lines.push(...batch), notice: (text) => notices.push(text) }, { follow: true, tail: 0, services: ['web'], signal: controller.signal, reorderMs: 50 });
    const running = logs.run();
    try {
      const web = (await findComposeProject(suite.client, fixture.project)).members.find((member) => member.service === 'web');
      assert.ok(web);
      await sleep(300);
      await suite.client.containers.restart(web.id, { timeoutSeconds: 0 });
      await until('the restarted web writes again', () => lines.some((line) => line.text === 'web 4'), { timeoutMs: 30_000 });
      assert.ok(notices.some((text) => text === 'web restarted'), notices.join('; '));
      await fixture.compose(['up', '-d', '--scale', 'web=2', '--no-recreate']);
      await until('the second web joins', () => lines.some((line) => line.label === 'web-2'), { timeoutMs: 30_000 });
      assert.ok(notices.some((text) => text.endsWith('joined the project')), notices.join('; '));
      assert.ok(lines.every((line) => line.service === 'web'), 'only the chosen service');
      const firstRun = lines.filter((line) => line.container === web.id && line.text === 'web 0');
      assert.equal(firstRun.length, 1, `each line of a run once: nothing replayed after the restart ${JSON.stringify(lines.map((l) => [l.label, l.seconds, l.nanos, l.text]))} ${notices.join('; ')}`);
    } finally {
      controller.abort();
      await running;
    }
  });
});
