// berth compose ps / stop SERVICE / ls -a next to docker-compose 1.29 on the same project and the same dockerd.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCliHarness, type CliHarness } from '../cli/support';
import { composeFixture, type ComposeFixture, type ServiceSpec } from '../../support/composeProject';
import { uniqueName } from '../../support/engines';
import { expectedMessage } from '../engine/bad-input-cases';
import { until } from '../../support/wait';

/** Ends at once on SIGTERM, so a stop takes no grace period. */
const quickToStop: ServiceSpec = { command: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 0.1; done'] };

void describe('berth compose ps, stop SERVICE and ls -a, next to docker-compose', () => {
  let harness: CliHarness;
  let fixture: ComposeFixture;
  before(async () => {
    harness = await createCliHarness('compose-ps');
    fixture = await composeFixture(harness.engines.dockerHost, harness.engines.image, uniqueName('ps').toLowerCase().replace(/[^a-z0-9]/g, ''), { web: quickToStop, db: quickToStop });
    await fixture.compose(['up', '-d']);
  });
  after(async () => {
    await fixture.dispose();
    await harness.dispose();
  });

  const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '').sort();
  const runningIds = async (): Promise<string[]> =>
    (await harness.client.containers.list({ filters: { label: [`com.docker.compose.project=${fixture.project}`] } })).map((container) => container.Id).sort();

  void it('compose stop PROJECT SERVICE stops the containers docker-compose stop SERVICE stops, and compose ps lists what docker-compose ps lists', async () => {
    const all = lines((await fixture.compose(['ps', '-q'])).stdout);
    assert.equal(all.length, 2);
    assert.deepEqual(lines((await harness.berth(['compose', 'ps', '-a', '-q', fixture.project])).stdout), all);
    assert.deepEqual(lines((await harness.berth(['compose', 'ps', '-q', fixture.project])).stdout), all);

    const ours = await harness.berth(['compose', 'stop', fixture.project, 'db']);
    assert.deepEqual([ours.code, ours.stdout], [0, `${fixture.project}_db_1\n`], ours.stderr);
    const afterOurs = await runningIds();
    await fixture.compose(['start']);
    await until('both run again', async () => (await runningIds()).length === 2, { timeoutMs: 10_000, intervalMs: 100 });
    await fixture.compose(['stop', 'db']);
    assert.deepEqual(await runningIds(), afterOurs);
    assert.equal(afterOurs.length, 1);

    // Running ones only, unless -a; the table names the service.
    assert.deepEqual(lines((await harness.berth(['compose', 'ps', '-q', fixture.project])).stdout), afterOurs);
    assert.deepEqual(lines((await harness.berth(['compose', 'ps', '-a', '-q', fixture.project])).stdout), all);
    const table = (await harness.berth(['compose', 'ps', '-a', fixture.project])).stdout.split('\n');
    assert.match(table[0] ?? '', /^NAME +IMAGE +COMMAND +SERVICE +CREATED +STATUS +PORTS$/);
    assert.match(table.find((line) => line.startsWith(`${fixture.project}_db_1 `)) ?? '', / db +.* Exited \(0\) /);
    assert.deepEqual(lines((await harness.berth(['compose', 'ps', '-a', '-q', fixture.project, 'web'])).stdout), afterOurs);
  });

  void it('compose ls shows projects with a running container; -a also the stopped ones', async () => {
    await fixture.compose(['stop']);
    const listed = (args: string[]) => async (): Promise<string[]> => lines((await harness.berth(['compose', 'ls', '-q', ...args])).stdout);
    assert.ok(!(await listed([])()).includes(fixture.project));
    assert.ok((await listed(['-a'])()).includes(fixture.project));
    await fixture.compose(['start', 'web']);
    assert.ok((await listed([])()).includes(fixture.project));
  });

  void it('a SERVICE the project does not have is refused before anything is done, as docker-compose refuses it', async () => {
    const before = await runningIds();
    const theirs = await fixture.compose(['stop', 'nope']).then(() => 0, () => 1);
    for (const command of ['stop', 'restart', 'ps']) {
      const ours = await harness.berth(['compose', command, fixture.project, 'web', 'nope']);
      const message = expectedMessage('cli-compose-no-such-service', { service: 'nope', project: fixture.project, services: 'db, web' });
      assert.deepEqual([ours.code, ours.stdout, ours.stderr], [theirs, '', `berth: ${message.replace(/ \(exit 1.*$/, '')}\n`], command);
    }
    assert.deepEqual(await runningIds(), before);
  });
});
