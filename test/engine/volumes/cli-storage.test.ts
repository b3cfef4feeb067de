// berth volume / network / prune / system df against the private engines, next to docker on the same dockerd, and
// the bad-input rows of issue 13 word for word. Every prune is narrowed to this suite's own label.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expectedMessage } from '../engine/bad-input-cases';
import { createCliHarness, type CliHarness } from '../cli/support';
import { uniqueName } from '../../support/engines';

const execFileAsync = promisify(execFile);

void describe('berth volume, prune and system df', () => {
  let harness: CliHarness;
  const marker = uniqueName('cli-vol');
  const label = `berth.test.clivol=${marker}`;
  before(async () => {
    harness = await createCliHarness('storage');
  });
  after(async () => {
    for (const volume of await harness.client.volumes.list({ filters: { label: [label] } })) await harness.client.volumes.remove(volume.Name, { force: true });
    await harness.dispose();
  });
  const docker = async (args: string[]): Promise<string> => (await execFileAsync('docker', ['-H', harness.engines.dockerHost, ...args])).stdout;
  const newVolume = async (): Promise<string> => {
    const name = uniqueName('clivol');
    const created = await harness.berth(['volume', 'create', '--label', label, '--label', 'berth.test=1', name]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout, `${name}\n`);
    return name;
  };

  void it('volume ls prints what docker prints; inspect prints a JSON array', async () => {
    await newVolume();
    await newVolume();
    const filter = ['--filter', `label=${label}`];
    const mine = await harness.berth(['volume', 'ls', ...filter]);
    assert.equal(mine.code, 0, mine.stderr);
    assert.equal(mine.stdout, await docker(['volume', 'ls', ...filter]));
    const quiet = await harness.berth(['volume', 'ls', '-q', ...filter]);
    assert.equal(quiet.stdout, await docker(['volume', 'ls', '-q', ...filter]));
    const [first] = quiet.stdout.trim().split('\n');
    const inspected = await harness.berth(['volume', 'inspect', first ?? '']);
    assert.equal((JSON.parse(inspected.stdout) as Array<{ Name: string }>)[0]?.Name, first);
  });

  void it('system df prints the table docker prints (same header and rows)', async () => {
    const mine = await harness.berth(['system', 'df']);
    assert.equal(mine.code, 0, mine.stderr);
    const theirs = await docker(['system', 'df']);
    const firstColumn = (text: string): string[] => text.trimEnd().split('\n').map((line) => line.split(/\s{2,}/)[0] ?? '');
    assert.deepEqual(firstColumn(mine.stdout), firstColumn(theirs));
    assert.equal(mine.stdout.split('\n')[0], theirs.split('\n')[0]);
    const verbose = await harness.berth(['system', 'df', '-v']);
    for (const section of ['Images space usage:', 'Containers space usage:', 'Local Volumes space usage:', 'Build cache usage:']) {
      assert.ok(verbose.stdout.includes(section), section);
    }
  });

  void it('volume rm of a volume in use names the container and exits 1, as docker does', async () => {
    const volume = await newVolume();
    const name = uniqueName('cli-user');
    const { Id } = await harness.client.containers.create(
      { Image: harness.engines.image, Cmd: ['true'], Labels: { 'berth.test': '1', 'berth.cli.suite': harness.labelFilter.split('=')[1] ?? '' }, HostConfig: { NetworkMode: 'none', Binds: [`${volume}:/data`] } },
      { name },
    );
    const result = await harness.berth(['volume', 'rm', volume]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `berth: ${expectedMessage('volume-in-use', { volume, container: name, id: Id })}\n`);
    await assert.rejects(execFileAsync('docker', ['-H', harness.engines.dockerHost, 'volume', 'rm', volume]), (error: { code?: number }) => error.code === 1);
  });

  void it('volume create with a name the engine refuses gives its reason', async () => {
    const result = await harness.berth(['volume', 'create', 'bad/name']);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `berth: ${expectedMessage('volume-bad-name')}\n`);
  });

  void it('network rm of a predefined network is refused with the engine\'s words, exit 1 like docker', async () => {
    const result = await harness.berth(['network', 'rm', 'none']);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `berth: ${expectedMessage('network-predefined')}\n`);
    const ls = await harness.berth(['network', 'ls']);
    assert.equal(ls.stdout, await docker(['network', 'ls']));
  });

  void it('volume prune: nothing to remove says so with no prompt; otherwise lists, asks, and a "n" keeps everything', async () => {
    const nothing = await harness.berth(['volume', 'prune', '--filter', `label=${label}-none`]);
    assert.equal(nothing.code, 0);
    assert.equal(nothing.stdout, 'Nothing to remove\n');
    const volume = await newVolume();
    const declined = await harness.shell(`echo n | berth volume prune --filter label=${label}`);
    assert.equal(declined.code, 0, declined.stderr);
    assert.match(declined.stdout, new RegExp(`Will remove these unused volumes:\\n(.|\\n)*  ${volume}`));
    assert.match(declined.stdout, /Are you sure you want to continue\? \[y\/N\] $/);
    assert.equal((await harness.client.volumes.inspect(volume)).Name, volume);
    const forced = await harness.berth(['volume', 'prune', '-f', '--filter', `label=${label}`]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, new RegExp(`Deleted Volumes:\\n(.|\\n)*${volume}\\n(.|\\n)*\\nTotal reclaimed space: \\d`));
  });

  void it('container prune -f removes only this suite\'s stopped containers, as docker container prune -f does', async () => {
    const run = await harness.berth(['run', '--network', 'none', ...harness.labelArgs, harness.engines.image, 'true']);
    assert.equal(run.code, 0, run.stderr);
    const result = await harness.berth(['container', 'prune', '-f', '--filter', `label=${harness.labelFilter}`]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Will remove these stopped containers:\n/);
    assert.match(result.stdout, /Deleted Containers:\n[0-9a-f]{64}\n/);
    assert.deepEqual(await harness.client.containers.list({ all: true, filters: { label: [harness.labelFilter], status: ['exited'] } }), []);
  });
});
