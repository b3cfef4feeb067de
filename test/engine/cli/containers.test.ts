/** `berth ps`, `stop`, `stop-all`, `logs`, `wait` and `commit` against the private dockerd. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ContainerSummary } from '../../../src/engine';
import { collect, createCliHarness, type CliHarness } from './support';

void describe('berth container commands', () => {
  let harness: CliHarness;
  before(async () => {
    harness = await createCliHarness('containers');
  });
  after(async () => {
    await harness.dispose();
  });

  /** Starts a container through the CLI (`run -d`) with this suite's labels plus `extra`; resolves its id. */
  const detached = async (extra: string[], cmd: string[]): Promise<string> => {
    const result = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, ...extra, harness.engines.image, ...cmd]);
    assert.equal(result.code, 0, result.stderr);
    return result.stdout.trim();
  };
  const state = async (id: string): Promise<string> => (await harness.client.containers.inspect(id)).State.Status;

  void it('ps shows running containers as a table, -a adds stopped ones, --json and -q for scripts', async () => {
    const name = `ps-${process.pid}`;
    const running = await detached(['--name', name], ['sleep', '1000']);
    const exited = await detached([], ['true']);
    await (await harness.client.containers.wait(exited)).result;
    const filter = ['--filter', `label=${harness.labelFilter}`];

    const table = await harness.berth(['ps', ...filter]);
    assert.equal(table.code, 0);
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    assert.match(header ?? '', /^CONTAINER ID +IMAGE +COMMAND +CREATED +STATUS +NAMES$/);
    assert.equal(rows.length, 1);
    assert.match(rows[0] ?? '', new RegExp(`^${running.slice(0, 12)} +${harness.engines.image} +"sleep 1000" +(Less than a second|\\d+ seconds?) ago +Up .+ +${name}$`));

    const all = await harness.berth(['ps', '-a', '-q', ...filter]);
    assert.deepEqual(all.stdout.trim().split('\n').sort(), [running.slice(0, 12), exited.slice(0, 12)].sort());

    const json = await harness.berth(['ps', '-a', '--json', ...filter]);
    const parsed = JSON.parse(json.stdout) as ContainerSummary[];
    assert.deepEqual(parsed.map((container) => container.Id).sort(), [running, exited].sort());
    assert.equal(parsed.find((container) => container.Id === running)?.State, 'running');
    await harness.client.containers.remove(running, { force: true });
  });

  void it('stop prints each name given and stops it; an unknown one gets its own line and exit 1', async () => {
    const id = await detached([], ['sleep', '1000']);
    const result = await harness.berth(['stop', '-t', '0', id.slice(0, 12), 'no-such-container-x']);
    assert.equal(result.stdout, `${id.slice(0, 12)}\n`);
    assert.equal(result.stderr, 'berth: No such container: no-such-container-x. Check the container id or name; the container may have been removed\n');
    assert.equal(result.code, 1);
    assert.equal(await state(id), 'exited');
  });

  void it('stop-all --filter stops only the matching running containers', async () => {
    const group = `group-${process.pid}`;
    const first = await detached(['-l', `berth.cli.group=${group}`], ['sleep', '1000']);
    const second = await detached(['-l', `berth.cli.group=${group}`], ['sleep', '1000']);
    const bystander = await detached([], ['sleep', '1000']);
    const result = await harness.berth(['stop-all', '-t', '0', '--filter', `label=berth.cli.group=${group}`]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.stdout.trim().split('\n').sort(), [first.slice(0, 12), second.slice(0, 12)].sort());
    assert.equal(await state(first), 'exited');
    assert.equal(await state(second), 'exited');
    assert.equal(await state(bystander), 'running');
    await harness.client.containers.remove(bystander, { force: true });
  });

  void it('logs sends stdout to stdout and stderr to stderr; --tail and --timestamps', async () => {
    const id = await detached([], ['sh', '-c', 'echo out-1; echo err-1 >&2; echo out-2; echo out-3']);
    await (await harness.client.containers.wait(id)).result;
    const all = await harness.berth(['logs', id]);
    assert.deepEqual([all.code, all.stdout, all.stderr], [0, 'out-1\nout-2\nout-3\n', 'err-1\n']);
    // One stream only below: the engine orders lines of different streams by the time it read them.
    const lines = await detached([], ['sh', '-c', 'echo line-1; echo line-2; echo line-3']);
    await (await harness.client.containers.wait(lines)).result;
    const tail = await harness.berth(['logs', '--tail', '1', lines]);
    assert.deepEqual([tail.stdout, tail.stderr], ['line-3\n', '']);
    const stamped = await harness.berth(['logs', '-t', '-n', '2', lines]);
    assert.match(stamped.stdout, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z line-2\n\d{4}-\d\d-\d\dT[^ ]+ line-3\n$/);
  });

  void it('logs -f follows until the container exits', async () => {
    const id = await detached([], ['sh', '-c', 'echo first; sleep 1; echo second']);
    const result = await harness.berth(['logs', '-f', id]);
    assert.equal(result.stdout, 'first\nsecond\n');
    assert.equal(result.code, 0);
  });

  void it('Ctrl-C ends logs -f with 130 and leaves the container running', async () => {
    const id = await detached([], ['sh', '-c', 'echo started; while true; do sleep 1; done']);
    const child = harness.start(['logs', '-f', id]);
    const result = collect(child);
    await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
    child.kill('SIGINT');
    assert.deepEqual(await result.then(({ code, stdout, stderr }) => [code, stdout, stderr]), [130, 'started\n', 'berth: interrupted\n']);
    assert.equal(await state(id), 'running');
    await harness.client.containers.remove(id, { force: true });
  });

  void it('wait prints the exit status', async () => {
    const id = await detached([], ['sh', '-c', 'sleep 1; exit 7']);
    const result = await harness.berth(['wait', id]);
    assert.deepEqual([result.code, result.stdout, result.stderr], [0, '7\n', '']);
  });

  void it('commit prints the new image id; the image carries the changes, message and author', async () => {
    const id = await detached([], ['sh', '-c', 'echo committed-content > /hello']);
    await (await harness.client.containers.wait(id)).result;
    const repo = `berth-cli-commit-${process.pid}`;
    const result = await harness.berth(['commit', '-m', 'a message', '-a', 'Berth Tests', '-c', 'CMD ["cat", "/hello"]', id, `${repo}:v1`]);
    try {
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^sha256:[0-9a-f]{64}\n$/);
      const image = await harness.client.images.inspect(`${repo}:v1`);
      assert.equal(image.Id, result.stdout.trim());
      assert.equal(image.Comment, 'a message');
      assert.equal(image.Author, 'Berth Tests');
      const run = await harness.berth(['run', '--rm', '--network', 'none', ...harness.labelArgs, `${repo}:v1`]);
      assert.equal(run.stdout, 'committed-content\n');
    } finally {
      await harness.client.images.remove(`${repo}:v1`, { force: true }).catch(() => undefined);
    }
  });

  void it('commit of an unknown container is one line and exit 1', async () => {
    const result = await harness.berth(['commit', 'no-such-container-y', 'x:y']);
    assert.deepEqual([result.code, result.stdout, result.stderr], [1, '', 'berth: No such container: no-such-container-y. Check the container id or name; the container may have been removed\n']);
  });
});
