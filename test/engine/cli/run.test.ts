/** `berth run` against the private dockerd: streams kept apart, exit statuses, -d, --rm, -t, -e, Ctrl-C. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isEngineError } from '../../../src/engine';
import { collect, createCliHarness, eventually, type CliHarness } from './support';

void describe('berth run', () => {
  let harness: CliHarness;
  before(async () => {
    harness = await createCliHarness('run');
  });
  after(async () => {
    await harness.dispose();
  });

  const run = (args: string[]): string[] => ['run', '--network', 'none', ...harness.labelArgs, ...args];
  const suiteContainers = async (): Promise<number> => (await harness.client.containers.list({ all: true, filters: { label: [harness.labelFilter] } })).length;

  void it('sends the container stdout to stdout and stderr to stderr, and exits with its status', async () => {
    const result = await harness.berth(run(['--rm', harness.engines.image, 'sh', '-c', 'echo out-1; echo err-1 >&2; echo out-2; exit 3']));
    assert.equal(result.stdout, 'out-1\nout-2\n');
    assert.equal(result.stderr, 'err-1\n');
    assert.equal(result.code, 3);
  });

  void it('passes options after IMAGE to the command, and non-ASCII bytes through unchanged', async () => {
    const result = await harness.berth(run(['--rm', harness.engines.image, 'echo', '-n', 'grüße 🚢 --rm -d']));
    assert.equal(result.stdout, 'grüße 🚢 --rm -d');
    assert.equal(result.code, 0);
  });

  void it('tens of MB of output arrive complete and byte-exact before berth exits', async () => {
    const size = 20 * 1024 * 1024;
    const line = 'berth-output-0123456789-äöü\n';
    const result = await harness.berth(run(['--rm', harness.engines.image, 'sh', '-c', `yes '${line.slice(0, -1)}' | head -c ${size}`]));
    assert.equal(result.code, 0, result.stderr);
    const expected = Buffer.from(line.repeat(Math.ceil(size / Buffer.byteLength(line)))).subarray(0, size);
    assert.equal(result.stdoutBytes.length, size);
    assert.ok(result.stdoutBytes.equals(expected), 'the output differs from what the container wrote');
  });

  void it('--rm removes the container once it exited; without it the container stays', async () => {
    const before = await suiteContainers();
    // Its own status proves the container ran (a run refused before creating one would also leave the count alone).
    const removed = await harness.berth(run(['--rm', harness.engines.image, 'sh', '-c', 'exit 5']));
    assert.equal(removed.code, 5, removed.stderr);
    assert.equal(await suiteContainers(), before);
    const kept = await harness.berth(run(['--name', `kept-${process.pid}`, harness.engines.image, 'true']));
    assert.equal(kept.code, 0);
    const inspect = await harness.client.containers.inspect(`kept-${process.pid}`);
    assert.equal(inspect.State.Status, 'exited');
    assert.equal(inspect.HostConfig.NetworkMode, 'none');
  });

  void it('-e sets variables, and KEY alone takes the value from berth\'s environment', async () => {
    const result = await harness.berth(run(['--rm', '-e', 'GREETING=hello world', '-e', 'FROM_HOST', '-e', 'UNSET_HERE', harness.engines.image, 'sh', '-c', 'echo "$GREETING|$FROM_HOST|${UNSET_HERE-unset}"']), {
      env: { FROM_HOST: 'host value', DOCKER_CONFIG: '/nonexistent' },
    });
    assert.equal(result.stdout, 'hello world|host value|unset\n');
  });

  void it('-t gives the container a terminal: its stderr arrives on stdout', async () => {
    const result = await harness.berth(run(['--rm', '-t', harness.engines.image, 'sh', '-c', 'echo to-stderr >&2']));
    assert.equal(result.stdout, 'to-stderr\r\n');
    assert.equal(result.stderr, '');
  });

  void it('-d prints the full id and leaves the container running', async () => {
    const result = await harness.berth(run(['-d', harness.engines.image, 'sleep', '1000']));
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^[0-9a-f]{64}\n$/);
    assert.equal(result.stderr, '');
    const inspect = await harness.client.containers.inspect(result.stdout.trim());
    assert.equal(inspect.State.Running, true);
    await harness.client.containers.remove(inspect.Id, { force: true });
  });

  void it('-d --rm lets the engine remove the container when it exits', async () => {
    const result = await harness.berth(run(['-d', '--rm', harness.engines.image, 'true']));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^[0-9a-f]{64}\n$/);
    assert.equal(result.stderr, '');
    const id = result.stdout.trim();
    // Only "no such container" counts as removed: any other failure of inspect is not the engine's --rm.
    await eventually('the engine removed the container', async () => {
      try {
        await harness.client.containers.inspect(id);
        return false;
      } catch (error) {
        if (isEngineError(error, 'not-found')) return true;
        throw error;
      }
    });
  });

  void it('a command the image lacks exits 127 with one line, like docker run', async () => {
    const result = await harness.berth(run(['--rm', harness.engines.image, 'no-such-command']));
    assert.equal(result.code, 127);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^berth: [^\n]*exec: "no-such-command": executable file not found in \$PATH[^\n]*\n$/);
  });

  void it('refuses bad input before anything runs, with 125', async () => {
    const name = await harness.berth(run(['--name', 'bad/name', harness.engines.image]));
    assert.deepEqual([name.code, name.stderr], [125, 'berth: Invalid container name "bad/name": "/" is not allowed (use letters, digits, "_", "." and "-")\n']);
    const image = await harness.berth(run(['Bad:Image']));
    assert.deepEqual([image.code, image.stderr], [125, 'berth: Invalid image reference "Bad:Image": the repository name must be lowercase\n']);
    const flag = await harness.berth(['run', '--detach=maybe', harness.engines.image]);
    assert.deepEqual([flag.code, flag.stderr], [125, `berth: invalid argument "maybe" for "--detach" flag: expected true or false. See 'berth run --help'.\n`]);
  });

  void it('Ctrl-C stops the foreground container, removes it with --rm, and exits 130', async () => {
    const name = `interrupted-${process.pid}`;
    // A shell that exits on SIGTERM, so the stop does not wait for the kill.
    const child = harness.start(run(['--rm', '--name', name, harness.engines.image, 'sh', '-c', 'trap "exit 0" TERM; echo ready; while true; do sleep 1; done']));
    const result = collect(child);
    // Interrupt only once the output streams, i.e. the container runs and berth follows it.
    await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
    child.kill('SIGINT');
    const { code, stdout, stderr } = await result;
    assert.equal(code, 130);
    assert.equal(stdout, 'ready\n');
    assert.equal(stderr, 'berth: interrupted\n');
    await assert.rejects(harness.client.containers.inspect(name), /No such container/);
  });
});
