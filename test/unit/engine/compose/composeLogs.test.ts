// The merged logs' pure parts: engine stamps, the reorder window, the docker-compose-like prefixes, and projects
// grouped from Compose labels.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMPOSE_LABELS, LinePrefixer, ReorderBuffer, configFilesOf, groupProjects, membersFor, splitStamp, type ContainerSummary, type MergedLine } from '../../../../src/engine';

function line(label: string, seconds: number, nanos: number, text = `${label}@${seconds}.${nanos}`): MergedLine {
  return { service: label.replace(/-\d+$/, ''), label, container: label, stream: 'stdout', seconds, nanos, text };
}

describe('merged logs', () => {
  it('reads the engine stamp: nanoseconds, shorter fractions, zones', () => {
    assert.deepEqual(splitStamp('2024-05-06T07:08:09.123456789Z hello\n'), { seconds: Date.UTC(2024, 4, 6, 7, 8, 9) / 1000, nanos: 123456789, text: 'hello\n' });
    assert.equal(splitStamp('2024-05-06T07:08:09.5Z x')?.nanos, 500_000_000);
    assert.equal(splitStamp('2024-05-06T09:08:09+02:00 x')?.seconds, Date.UTC(2024, 4, 6, 7, 8, 9) / 1000);
    assert.equal(splitStamp('no stamp here'), undefined);
  });

  it('holds lines for the window, then lets them out in stamp order, late ones included', () => {
    const out: string[] = [];
    const buffer = new ReorderBuffer(100, (batch) => out.push(...batch.map((entry) => entry.text)));
    buffer.push(line('web', 10, 500), 0);
    buffer.push(line('db', 10, 100), 20);
    buffer.flush(50);
    assert.deepEqual(out, [], 'nothing is old enough yet');
    buffer.push(line('web', 11, 0), 90);
    buffer.flush(110);
    assert.deepEqual(out, ['db@10.100', 'web@10.500'], 'the older db line leaves first; web@11 waits');
    buffer.push(line('db', 10, 900, 'late'), 120);
    buffer.flush(500);
    assert.deepEqual(out, ['db@10.100', 'web@10.500', 'late', 'web@11.0'], 'a late line is shown, not dropped');
    buffer.push(line('x', 1, 0), 600);
    buffer.flush(600, true);
    assert.equal(out.at(-1), 'x@1.0');
    assert.equal(buffer.size, 0);
  });

  it('pads prefixes to the widest label so far and colours them per service', () => {
    const plain = new LinePrefixer(false);
    assert.equal(plain.format(line('db', 1, 0, 'a')), 'db | a');
    assert.equal(plain.format(line('worker-2', 1, 0, 'b')), 'worker-2 | b');
    assert.equal(plain.format(line('db', 1, 0, 'c')), 'db       | c');
    const coloured = new LinePrefixer(true);
    const first = coloured.format(line('web', 1, 0, 'x'));
    const second = coloured.format(line('db', 1, 0, 'y'));
    assert.equal(first, '\u001b[36mweb |\u001b[0m x');
    assert.equal(second, '\u001b[33mdb  |\u001b[0m y');
    assert.equal(coloured.format(line('web', 2, 0, 'z')), '\u001b[36mweb |\u001b[0m z');
  });
});

function summary(name: string, project: string | undefined, service: string, state: ContainerSummary['State'], extra: Record<string, string> = {}, created = 1): ContainerSummary {
  const labels: Record<string, string> = { ...extra, [COMPOSE_LABELS.service]: service, [COMPOSE_LABELS.number]: '1' };
  if (project) labels[COMPOSE_LABELS.project] = project;
  return { Id: `${name}-id`, Names: [`/${name}`], Image: 'i', ImageID: 'sha256:1', Command: '', Created: created, Ports: [], Labels: labels, State: state, Status: '' };
}

describe('projects from labels', () => {
  it('groups by project, counts running members, and takes the newest container\'s place', () => {
    const place = { [COMPOSE_LABELS.workingDir]: '/srv/shop', [COMPOSE_LABELS.configFiles]: 'compose.yaml,extra.yml' };
    const moved = { [COMPOSE_LABELS.workingDir]: '/srv/shop2', [COMPOSE_LABELS.configFiles]: '/abs/compose.yaml' };
    const projects = groupProjects([
      summary('shop-web-1', 'shop', 'web', 'running', place, 1),
      summary('shop-db-1', 'shop', 'db', 'exited', moved, 5),
      summary('lonely', undefined, 'x', 'running'),
      summary('blog-app-1', 'blog', 'app', 'restarting'),
    ]);
    assert.deepEqual(projects.map((project) => [project.name, project.running, project.members.length]), [['blog', 1, 1], ['shop', 1, 2]]);
    const shop = projects[1];
    assert.equal(shop?.workingDir, '/srv/shop2');
    assert.deepEqual(shop?.configFiles, ['/abs/compose.yaml']);
    assert.deepEqual(configFilesOf(place), ['/srv/shop/compose.yaml', '/srv/shop/extra.yml']);
    assert.deepEqual(shop?.members.map((member) => member.name), ['shop-db-1', 'shop-web-1']);
  });

  it('starts only stopped members and stops only running ones; restart and remove take all', () => {
    const members = groupProjects([summary('a', 'p', 'a', 'running'), summary('b', 'p', 'b', 'exited'), summary('c', 'p', 'c', 'paused'), summary('d', 'p', 'd', 'created')])[0]?.members ?? [];
    assert.deepEqual(membersFor('start', members).map((member) => member.name), ['b', 'd']);
    assert.deepEqual(membersFor('stop', members).map((member) => member.name), ['a', 'c']);
    assert.equal(membersFor('restart', members).length, 4);
    assert.equal(membersFor('remove', members).length, 4);
  });
});
