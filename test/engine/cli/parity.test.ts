/**
 * berth next to the docker CLI on the same private dockerd, for what issue 19 found different: ps cells, images and
 * images -q, wait A B, -i, -t's size, stop of several in argument order, stop-all of paused and restarting ones,
 * pull's `:latest` and a credsStore that is not installed, --tail, an invalid commit reference, --version and the
 * hint for a missing network. Each case checks the exit status and what is left on the engine.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { version } from '../../../package.json';
import { expectedMessage } from '../engine/bad-input-cases';
import { createCliHarness, eventually, type CliHarness } from './support';

function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

void describe('berth next to docker', () => {
  let harness: CliHarness;
  before(async () => {
    harness = await createCliHarness('parity');
  });
  after(async () => {
    await harness.dispose();
  });

  /** The docker CLI on the private dockerd (never the machine's default socket). */
  const docker = (args: readonly string[], input?: string): { status: number | null; stdout: string; stderr: string } => {
    const result = spawnSync('docker', ['-H', harness.engines.dockerHost, ...args], { encoding: 'utf8', input, env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const labels = (): string[] => harness.labelArgs;
  const detached = async (args: string[], cmd: string[]): Promise<string> => {
    const result = await harness.berth(['run', '-d', '--network', 'none', ...labels(), ...args, harness.engines.image, ...cmd]);
    assert.equal(result.code, 0, result.stderr);
    return result.stdout.trim();
  };
  const state = async (id: string): Promise<string> => (await harness.client.containers.inspect(id)).State.Status;

  void it("ps shows IMAGE, COMMAND (Go-quoted, cut by display width) and NAMES cells exactly as docker's", async () => {
    const id = await detached(['--name', `parity-ps-${process.pid}`], ['sh', '-c', 'echo \x01日本語のテキストです; sleep 1000']);
    const expected = docker(['ps', '--filter', `id=${id}`, '--format', '{{.ID}}   {{.Image}}   {{.Command}}']).stdout.trim();
    const [idCell, imageCell, commandCell] = expected.split('   ');
    const row = (await harness.berth(['ps', '--filter', `id=${id}`])).stdout.split('\n')[1] ?? '';
    assert.ok(row.startsWith(`${idCell}   ${imageCell}`), `${row} vs ${expected}`);
    assert.ok(row.includes(` ${commandCell} `), `${row} vs ${expected}`);
    assert.equal(commandCell, '"sh -c \'echo \\x01日本語…"');
  });

  void it('images and images -q print what docker prints, byte for byte', async () => {
    // dockerd lists images created in the same second in no fixed order (it walks a map), so two calls, berth's
    // or docker's, may swap such rows. Rows are compared as printed, except that ties in Created are put in one order.
    const createdById = new Map<string, number>();
    for (const image of await harness.client.images.list()) createdById.set(image.Id.replace(/^sha256:/, '').slice(0, 12), image.Created);
    const tiesInOneOrder = (output: string): string => {
      const lines = output.split('\n');
      const created = (line: string): number => createdById.get(/\b[0-9a-f]{12}\b/.exec(line)?.[0] ?? '') ?? Number.NaN;
      const header = lines[0] !== undefined && Number.isNaN(created(lines[0])) ? [lines[0]] : [];
      const rows = lines.slice(header.length).filter((line) => line !== '');
      for (const row of rows) assert.ok(!Number.isNaN(created(row)), `a row with no listed image id: ${row}`);
      for (let i = 1; i < rows.length; i += 1) {
        assert.ok(created(rows[i - 1] as string) >= created(rows[i] as string), `not newest first: ${output}`);
      }
      const sorted = [...rows].sort((a, b) => created(b) - created(a) || (a < b ? -1 : a > b ? 1 : 0));
      return [...header, ...sorted, ''].join('\n');
    };
    for (const args of [['images'], ['images', '-q']]) {
      // CREATED is relative ("36 seconds ago"), so docker is asked just before and just after berth: a second
      // boundary can fall between two calls, but not on both sides of berth's, whose output must equal one of them.
      const before = docker(args);
      const ours = await harness.berth(args);
      const after = docker(args);
      assert.equal(ours.code, before.status, args.join(' '));
      assert.ok(ours.stdout.endsWith('\n') && before.stdout.endsWith('\n'), args.join(' '));
      const expected = [before, after].map((theirs) => tiesInOneOrder(theirs.stdout));
      const actual = tiesInOneOrder(ours.stdout);
      assert.equal(actual, expected.includes(actual) ? actual : expected[0], args.join(' '));
    }
  });

  void it('wait A B prints both statuses in order, as docker wait does', async () => {
    const first = await detached([], ['sh', '-c', 'sleep 1; exit 3']);
    const second = await detached([], ['sh', '-c', 'exit 5']);
    const ours = await harness.berth(['wait', first, second]);
    assert.deepEqual([ours.code, ours.stdout], [0, '3\n5\n']);
    assert.equal(docker(['wait', first, second]).stdout, ours.stdout);
    const missing = await harness.berth(['wait', second, 'no-such-container-w']);
    assert.deepEqual([missing.code, missing.stdout], [1, '5\n']);
    assert.match(missing.stderr, /^berth: No such container: no-such-container-w\./);
  });

  void it('run -i passes stdin over the attach connection: echo hi | berth run -i --rm busybox cat', async () => {
    const name = `parity-stdin-${process.pid}`;
    const ours = await harness.shell(`echo hi | berth run -i --rm --name ${name} --network none ${labels().join(' ')} ${harness.engines.image} cat`);
    assert.deepEqual([ours.code, ours.stdout, ours.stderr], [0, 'hi\n', '']);
    assert.equal(docker(['run', '-i', '--rm', '--network', 'none', harness.engines.image, 'cat'], 'hi\n').stdout, ours.stdout);
    assert.deepEqual(await harness.client.containers.list({ all: true, filters: { name: [name] } }), []);
  });

  void it("run -t gives the container a TTY of berth's terminal size: ls -C fills 200 columns, as with docker", () => {
    // busybox's `stty size` fails in a container; `ls -C` reads the size too. The resize follows the start, so the
    // script waits (at most 5 s) until a line of `ls -C /bin` is wider than a default 80-column terminal allows.
    const widest = 'i=0; while [ $i -lt 50 ] && [ "$(ls -C /bin | head -1 | wc -c)" -le 100 ]; do sleep 0.1; i=$((i+1)); done; ls -C /bin | head -1 | wc -c';
    const inTerminal = (command: string): string =>
      execFileSync('script', ['-qec', `stty rows 50 cols 200; ${command}`, '/dev/null'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', DOCKER_CONFIG: '/nonexistent' },
      }).trim();
    const ours = Number(inTerminal(harness.shellCommand(['run', '--rm', '-t', '--network', 'none', ...labels(), harness.engines.image, 'sh', '-c', widest])));
    const theirs = Number(inTerminal(`docker -H ${harness.engines.dockerHost} run --rm -t --network none ${harness.engines.image} sh -c '${widest}'`));
    assert.ok(ours > 100 && ours <= 200, `a line of ls -C was ${ours} columns wide`);
    assert.equal(ours, theirs);
  });

  void it('run -t passes a resize (SIGWINCH) on to the container: ls -C widens from 100 to 160 columns', () => {
    const name = `parity-winch-${process.pid}`;
    // The container prints the width of a line of `ls -C` whenever it changes, and exits once it is past 130 (or, so
    // that nothing hangs, after about a minute: a slow machine may take many seconds to start berth twice).
    const watch = 'last=0; i=0; while [ $i -lt 600 ]; do w=$(ls -C /bin | head -1 | wc -c); if [ $w != $last ]; then echo W$w; last=$w; fi; [ $w -gt 130 ] && exit 0; sleep 0.1; i=$((i+1)); done; exit 1';
    const run = harness.shellCommand(['run', '--rm', '-t', '--name', name, '--network', 'none', ...labels(), harness.engines.image, 'sh', '-c', watch]);
    const logs = harness.shellCommand(['logs', name]);
    // Resize the terminal only once the container has printed its first width (seen through berth logs).
    const script = [
      'stty rows 30 cols 100',
      `${run} & berth=$!`,
      `j=0; until ${logs} 2>/dev/null | grep -q W || [ $j -gt 300 ]; do sleep 0.1; j=$((j+1)); done`,
      'stty rows 40 cols 160',
      'wait $berth; echo status=$?',
    ].join('\n');
    const output = execFileSync('script', ['-qec', `bash -c ${shellWord(script)}`, '/dev/null'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', DOCKER_CONFIG: '/nonexistent' },
    });
    const widths = [...output.matchAll(/^W(\d+)\r?$/gm)].map((match) => Number(match[1]));
    assert.match(output, /^status=0\r?$/m, output);
    assert.ok(widths.length >= 2 && (widths[0] ?? 0) <= 100, `widths ${widths.join(', ')} in ${JSON.stringify(output)}`);
    const last = widths[widths.length - 1] ?? 0;
    assert.ok(last > 130 && last <= 160, `widths ${widths.join(', ')} in ${JSON.stringify(output)}`);
  });

  void it('run -it gives an interactive shell in a terminal: typed lines run, and exit N is berth\'s status', async () => {
    const name = `parity-shell-${process.pid}`;
    const shell = harness.shellCommand(['run', '-it', '--rm', '--name', name, '--network', 'none', ...labels(), harness.engines.image, 'sh']);
    const child = spawn('script', ['-qec', `${shell}; echo status=$?`, '/dev/null'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', DOCKER_CONFIG: '/nonexistent' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const closed = new Promise((resolve) => child.on('close', resolve));
    // Type only once the shell's prompt is there, as a user would.
    await eventually('the shell prompts', () => Promise.resolve(output.includes('/ # ')), 100);
    child.stdin.write('echo $((6*7))\n');
    await eventually('the shell answers', () => Promise.resolve(/^42\r?$/m.test(output)), 100);
    child.stdin.write('exit 4\n');
    await closed;
    assert.match(output, /^status=4\r?$/m, output);
    assert.deepEqual(await harness.client.containers.list({ all: true, filters: { name: [name] } }), []);
  });

  void it('stop A B C stops them in parallel and prints the names in argument order; the engine has them exited', async () => {
    const ids = [];
    for (let index = 0; index < 3; index++) ids.push(await detached([], ['sh', '-c', 'trap "" TERM; while true; do sleep 0.1; done']));
    const given = [...ids].reverse().map((id) => id.slice(0, 12));
    const result = await harness.berth(['stop', '-t', '1', ...given, 'no-such-container-s']);
    assert.equal(result.stdout, given.map((id) => `${id}\n`).join(''));
    assert.match(result.stderr, /^berth: No such container: no-such-container-s\./);
    assert.equal(result.code, 1);
    for (const id of ids) assert.equal(await state(id), 'exited');
  });

  void it('stop-all stops running, paused and restarting containers, and the restart policy stays stopped', async () => {
    const filter = `parity-stopall=${process.pid}`;
    const running = await detached(['-l', filter], ['sleep', '1000']);
    const paused = await detached(['-l', filter], ['sleep', '1000']);
    execFileSync('docker', ['-H', harness.engines.dockerHost, 'pause', paused]);
    const restartingResult = docker(['run', '-d', '--network', 'none', '--restart', 'always', ...labels(), '-l', filter, harness.engines.image, 'sh', '-c', 'exit 1']);
    const restarting = restartingResult.stdout.trim();
    await eventually('the container restarts', async () => (await state(restarting)) === 'restarting', 100);
    const result = await harness.berth(['stop-all', '-t', '1', '-f', `label=${filter}`]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.stdout.trim().split('\n').sort(), [running, paused, restarting].map((id) => id.slice(0, 12)).sort());
    for (const id of [running, paused, restarting]) assert.equal(await state(id), 'exited');
    const listed = await harness.client.containers.list({ filters: { label: [filter] } });
    assert.deepEqual(listed, []);
  });

  void it('pull with no tag prints the full reference with :latest; a credsStore helper that is absent falls back to auths', async () => {
    const { registry } = harness.engines;
    const config = harness.dockerConfig({
      credsStore: 'desktop',
      auths: { [registry.address]: { auth: Buffer.from(`${registry.username}:${registry.password}`).toString('base64') } },
    });
    const untagged = `${registry.address}/berth/busybox`;
    await harness.client.images.remove(`${untagged}:latest`, { force: true }).catch(() => undefined);
    const result = await harness.berth(['pull', untagged], { env: { DOCKER_CONFIG: config, BERTH_DEBUG: '1' } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `${untagged}:latest\n`);
    assert.match(result.stderr, /^berth: debug: credsStore "desktop": docker-credential-desktop is not installed; using the auths entries of /m);
    assert.ok(!result.stderr.includes(registry.password), 'the password reached stderr');
    assert.ok((await harness.client.images.inspect(`${untagged}:latest`)).Id);
  });

  void it('logs --tail with a value that is not a number prints every line and exits 0, as docker does', async () => {
    const id = await detached([], ['sh', '-c', 'echo a; echo b; echo c']);
    await harness.berth(['wait', id]);
    for (const tail of ['abc', '-1', '1.5']) {
      const ours = await harness.berth(['logs', '--tail', tail, id]);
      const theirs = docker(['logs', '--tail', tail, id]);
      assert.deepEqual([ours.code, ours.stdout, ours.stderr], [theirs.status, theirs.stdout, ''], tail);
      assert.deepEqual([ours.code, ours.stdout], [0, 'a\nb\nc\n']);
    }
  });

  void it('commit to an invalid reference exits 1 like docker, and commits nothing', async () => {
    const id = await detached([], ['true']);
    const before = (await harness.client.images.list()).length;
    const ours = await harness.berth(['commit', id, 'Repo:1']);
    assert.deepEqual([ours.code, ours.stdout, ours.stderr], [1, '', 'berth: invalid reference "Repo:1": repository names must be lowercase.\n']);
    assert.equal(docker(['commit', id, 'Repo:1']).status, ours.code);
    assert.equal((await harness.client.images.list()).length, before);
  });

  void it("--version and -v print berth's version and exit 0, without an engine", async () => {
    for (const flag of ['--version', '-v']) {
      const result = await harness.berth([flag], { noHost: true, env: { DOCKER_HOST: 'unix:///nonexistent.sock' } });
      assert.deepEqual([result.code, result.stdout, result.stderr], [0, `berth version ${version}\n`, '']);
    }
  });

  void it('run --network bogusnet: the hint is about the network, exit 125 like docker, nothing left', async () => {
    const ours = await harness.berth(['run', '--rm', '--network', 'bogusnet', ...labels(), harness.engines.image, 'true']);
    assert.deepEqual([ours.code, ours.stderr], [125, `berth: ${expectedMessage('cli-network-missing')}\n`]);
    assert.equal(docker(['run', '--rm', '--network', 'bogusnet', harness.engines.image, 'true']).status, 125);
    assert.equal((await harness.client.containers.list({ all: true, filters: { label: [harness.labelFilter], status: ['created'] } })).length, 0);
  });
});
