// berth compose ls / logs next to docker-compose on the same project and the same dockerd.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collect, createCliHarness, type CliHarness } from '../cli/support';
import { composeFixture, type ComposeFixture } from '../../support/composeProject';
import { uniqueName } from '../../support/engines';
import { sleep } from '../../support/wait';

const finite = (name: string): string[] => ['sh', '-c', `for i in 0 1 2; do echo ${name} $i; done; sleep 1000`];

void describe('berth compose ls and logs', () => {
  let harness: CliHarness;
  let fixture: ComposeFixture;
  before(async () => {
    harness = await createCliHarness('compose-cli');
    fixture = await composeFixture(harness.engines.dockerHost, harness.engines.image, uniqueName('cli').toLowerCase().replace(/[^a-z0-9]/g, ''), { web: { command: finite('web') }, db: { command: finite('db') } });
    await fixture.compose(['up', '-d']);
    // Bounded wait for both services' three lines.
    for (let attempt = 0; attempt < 100; attempt++) {
      const { stdout } = await fixture.compose(['logs', '--no-color']);
      if ((stdout.match(/ \| (web|db) \d$/gm) ?? []).length === 6) break;
      await sleep(100);
    }
  });
  after(async () => {
    await fixture.dispose();
    await harness.dispose();
  });

  void it('compose ls lists the project with its states and config files', async () => {
    const result = await harness.berth(['compose', 'ls']);
    assert.equal(result.code, 0, result.stderr);
    const row = result.stdout.split('\n').find((line) => line.startsWith(`${fixture.project} `));
    assert.ok(row, result.stdout);
    assert.match(row, new RegExp(`^${fixture.project}\\s+running\\(2\\)\\s+${fixture.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    assert.ok(result.stdout.startsWith('NAME'), result.stdout);
  });

  void it("compose ls --format prints docker compose's JSON array, one object a line for {{json .}}, and templates", async () => {
    const expected = { Name: fixture.project, Status: 'running(2)', ConfigFiles: fixture.file };
    const array = await harness.berth(['compose', 'ls', '--format', 'json']);
    assert.equal(array.code, 0, array.stderr);
    assert.match(array.stdout, /^\[.*\]\n$/);
    assert.deepEqual((JSON.parse(array.stdout) as Array<typeof expected>).find((project) => project.Name === fixture.project), expected);
    const lines = await harness.berth(['compose', 'ls', '--format', '{{json .}}']);
    assert.ok(lines.stdout.split('\n').includes(JSON.stringify(expected)), lines.stdout);
    const template = await harness.berth(['compose', 'ls', '--format', '{{.Name}}|{{.Status}}|{{.ConfigFiles}}']);
    assert.ok(template.stdout.split('\n').includes(`${fixture.project}|running(2)|${fixture.file}`), template.stdout);
    const table = await harness.berth(['compose', 'ls', '--format', 'table {{.Name}}\\t{{upper .Status}}']);
    assert.match(table.stdout, new RegExp(`^NAME {3,}STATUS\n(.*\n)*${fixture.project} +RUNNING\\(2\\)\n`));
    const plain = await harness.berth(['compose', 'ls']);
    assert.equal((await harness.berth(['compose', 'ls', '--format', 'table'])).stdout, plain.stdout);
    const refused = await harness.berth(['compose', 'ls', '--format', '{{.Project}}']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^berth: template parsing error: template: :1:2: executing "" at <\.Project>: can't evaluate field Project in type compose\.stackView\. The fields are \.Name, \.Status, \.ConfigFiles\n$/);
  });

  void it('compose logs prints the lines docker-compose logs prints, prefixed by service, in time order', async () => {
    const mine = await harness.berth(['compose', 'logs', '--no-color', fixture.project]);
    assert.equal(mine.code, 0, mine.stderr);
    const { stdout } = await fixture.compose(['logs', '--no-color']);
    const theirs = (stdout.match(/ \| (web|db) \d$/gm) ?? []).map((line) => line.slice(3)).sort();
    const ours = mine.stdout.split('\n').filter((line) => line !== '');
    assert.deepEqual(ours.map((line) => line.replace(/^\S+\s+\| /, '')).sort(), theirs);
    for (const line of ours) assert.match(line, /^(web|db) +\| \1 \d$/);
    const web = ours.filter((line) => line.startsWith('web')).map((line) => line.replace(/^web \| /, ''));
    assert.deepEqual(web, ['web 0', 'web 1', 'web 2']);
  });

  void it('Ctrl-C ends compose logs -f with 130, as docker compose and berth logs -f end, and the project runs on', async () => {
    const child = harness.start(['compose', 'logs', '-f', '--no-color', fixture.project]);
    const result = collect(child);
    await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
    child.kill('SIGINT');
    const { code, stderr } = await result;
    assert.deepEqual([code, stderr], [130, 'berth: interrupted\n']);
    const members = await harness.client.containers.list({ all: true, filters: { label: [`com.docker.compose.project=${fixture.project}`] } });
    assert.deepEqual(members.map((member) => member.State), ['running', 'running']);
  });

  void it('compose logs PROJECT SERVICE prints only that service', async () => {
    const result = await harness.berth(['compose', 'logs', '--no-color', fixture.project, 'db']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'db | db 0\ndb | db 1\ndb | db 2\n');
  });
});
