/**
 * berth in place of docker in scripts (issue 33), next to the docker CLI on the same private dockerd: the launcher
 * keeps `--env-file` from Node, `-it` without a terminal is refused before anything is created, `cp -` streams a tar
 * both ways, argument-count mistakes exit 1, a command group alone prints its usage, and a --rm run whose container
 * ignores SIGTERM ends instead of hanging. Each case checks the exit status and what is left on the engine.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expectedMessage } from '../engine/bad-input-cases';
import { createCliHarness, collect, eventually, type CliHarness } from './support';

/** An outcome row's words before its "(exit N …)" note, and N. */
function wordsAndStatus(id: string): { words: string; status: number } {
  const match = /^(.*?) \(exit (\d+)/.exec(expectedMessage(id));
  assert.ok(match, `${id}: the row states no exit status`);
  return { words: match[1] as string, status: Number(match[2]) };
}

void describe('berth in scripts, next to docker', () => {
  let harness: CliHarness;
  let scratch: string;
  before(async () => {
    harness = await createCliHarness('scripts');
    scratch = mkdtempSync(join(tmpdir(), 'berth-cli-scripts-'));
  });
  after(async () => {
    await harness.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  const docker = (args: readonly string[], input?: string): { status: number | null; stdout: string; stderr: string } => {
    const result = spawnSync('docker', ['-H', harness.engines.dockerHost, ...args], { encoding: 'utf8', input, env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const named = async (name: string): Promise<string[]> =>
    (await harness.client.containers.list({ all: true, filters: { name: [`^${name}$`] } })).map((container) => container.State);
  const shellWord = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

  /** The bundle run as an installed `berth` is: the file itself, through its `#!` line, with this test's node first on PATH. */
  const launched = (args: readonly string[]): { status: number | null; stdout: string; stderr: string } => {
    chmodSync(harness.bundle, 0o755);
    const path = `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`;
    const result = spawnSync(harness.bundle, ['--host', harness.engines.dockerHost, ...args], { encoding: 'utf8', env: { PATH: path, HOME: scratch, DOCKER_CONFIG: scratch } });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  void it('the launcher leaves --env-file to berth: a flag berth does not know, and a missing file, exit 125 as docker', async () => {
    const unknown = launched(['ps', '--env-file', '/nope']);
    const row = wordsAndStatus('cli-env-file-to-node');
    assert.deepEqual([unknown.status, unknown.stderr], [row.status, `berth: ${row.words}\n`]);
    assert.equal(docker(['ps', '--env-file', '/nope']).status, 125);

    const name = `scripts-envmissing-${process.pid}`;
    const ours = launched(['run', '--rm', '--env-file', '/no/such/env', '--name', name, '--network', 'none', ...harness.labelArgs, harness.engines.image, 'true']);
    assert.deepEqual([ours.status, ours.stdout, ours.stderr], [125, '', 'berth: cannot read env file /no/such/env: it does not exist. Check the path (relative paths start from the current folder)\n']);
    const theirs = docker(['run', '--rm', '--env-file', '/no/such/env', '--network', 'none', harness.engines.image, 'true']);
    assert.equal(theirs.status, 125);
    assert.match(theirs.stderr, /open \/no\/such\/env: no such file or directory/);
    assert.deepEqual(await named(name), []);
  });

  void it('the launcher leaves a present --env-file to berth: the container gets its variables, as with docker', () => {
    const envFile = join(scratch, 'vars.env');
    writeFileSync(envFile, '# comment\nGREETING=hello world\nEMPTY=\n');
    const printed = ['sh', '-c', 'echo "[$GREETING][$EMPTY][${NODE_OPTIONS-unset}]"'];
    const ours = launched(['run', '--rm', '--env-file', envFile, '--network', 'none', ...harness.labelArgs, harness.engines.image, ...printed]);
    const theirs = docker(['run', '--rm', '--env-file', envFile, '--network', 'none', harness.engines.image, ...printed]);
    assert.deepEqual([ours.status, ours.stdout, ours.stderr], [0, '[hello world][][unset]\n', '']);
    assert.deepEqual([theirs.status, theirs.stdout], [ours.status, ours.stdout]);
  });

  void it('run -it with a file as stdin: "the input device is not a TTY", exit 1 at once, nothing created (as docker)', { timeout: 60_000 }, async () => {
    const input = join(scratch, 'input.txt');
    writeFileSync(input, 'one line\n');
    const name = `scripts-it-${process.pid}`;
    const words = ['run', '--rm', '-it', '--name', name, '--network', 'none', ...harness.labelArgs, harness.engines.image, 'cat'].map(shellWord).join(' ');
    // Bounded by the case's timeout: before the refusal, this run waited for ever.
    const ours = await harness.shell(`berth ${words} < ${shellWord(input)}`);
    const row = wordsAndStatus('cli-run-it-no-tty');
    assert.deepEqual([ours.code, ours.stdout, ours.stderr], [row.status, '', `berth: ${row.words}\n`]);
    const theirs = spawnSync('bash', ['-c', `docker -H ${shellWord(harness.engines.dockerHost)} run --rm -it --network none ${shellWord(harness.engines.image)} cat < ${shellWord(input)}`], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' },
    });
    assert.equal(theirs.status, 1);
    assert.match(theirs.stderr, /the input device is not a TTY/);
    assert.deepEqual(await named(name), []);
  });

  void it('cp C:SRC - writes a tar archive to stdout, and cp - C:DIR unpacks one from stdin, as docker does', async () => {
    const name = `scripts-cp-${process.pid}`;
    const started = await harness.berth(['run', '-d', '--name', name, '--network', 'none', ...harness.labelArgs, harness.engines.image, 'sh', '-c', 'mkdir -p /d/sub && echo hi > /d/f && echo deep > /d/sub/g && echo ready && sleep 1000']);
    assert.equal(started.code, 0, started.stderr);
    const listing = (command: string): string => {
      const result = spawnSync('bash', ['-c', `set -o pipefail; ${command} | tar -tf - | sort`], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } });
      assert.equal(result.status, 0, result.stderr);
      return result.stdout;
    };
    await eventually('the container made its files', async () => (await harness.berth(['logs', name])).stdout === 'ready\n');
    const ours = listing(harness.shellCommand(['cp', `${name}:/d`, '-']));
    assert.equal(ours, 'd/\nd/f\nd/sub/\nd/sub/g\n');
    assert.equal(listing(`docker -H ${shellWord(harness.engines.dockerHost)} cp ${name}:/d -`), ours);
    const single = await harness.berth(['cp', `${name}:/d/f`, '-']);
    assert.equal(single.code, 0, single.stderr);
    assert.deepEqual(single.stdoutBytes, spawnSync('docker', ['-H', harness.engines.dockerHost, 'cp', `${name}:/d/f`, '-']).stdout);

    const archive = join(scratch, 'in.tar');
    writeFileSync(join(scratch, 'from-host.txt'), 'from the host\n');
    assert.equal(spawnSync('tar', ['-C', scratch, '-cf', archive, 'from-host.txt']).status, 0);
    const put = await harness.shell(`berth cp - ${shellWord(`${name}:/d/sub`)} < ${shellWord(archive)}`);
    assert.deepEqual([put.code, put.stdout, put.stderr], [0, '', '']);
    const read = await harness.berth(['cp', `${name}:/d/sub/from-host.txt`, '-']);
    assert.match(read.stdout, /from the host\n/);

    for (const target of ['/d/f', '/d/none']) {
      const refused = await harness.shell(`berth cp - ${shellWord(`${name}:${target}`)} < ${shellWord(archive)}`);
      const theirs = spawnSync('bash', ['-c', `docker -H ${shellWord(harness.engines.dockerHost)} cp - ${name}:${target} < ${shellWord(archive)}`], { encoding: 'utf8' });
      assert.equal(theirs.status, 1);
      assert.match(theirs.stderr, new RegExp(`destination "${name}:${target}" must be a directory`));
      assert.deepEqual(
        [refused.code, refused.stderr],
        [1, `berth: ${expectedMessage('cli-cp-stdin-not-directory', { container: name, path: target })}\n`],
      );
    }
    await harness.client.containers.remove(name, { force: true });
  });

  void it("failures keep the engine's words (also for a HEAD, which has no body) and name what to fix", async () => {
    const name = `scripts-words-${process.pid}`;
    const started = await harness.berth(['run', '-d', '--name', name, '--network', 'none', ...harness.labelArgs, harness.engines.image, 'sleep', '1000']);
    assert.equal(started.code, 0, started.stderr);
    const hostFile = join(scratch, 'words.txt');
    writeFileSync(hostFile, 'words\n');
    const throughFile = expectedMessage('cli-cp-through-file').split("<engine's path>");
    for (const args of [
      ['cp', `${name}:/etc/hostname/x`, join(scratch, 'out')],
      ['cp', hostFile, `${name}:/etc/hostname/x`],
    ]) {
      const ours = await harness.berth(args);
      assert.equal(ours.code, docker(args).status, args.join(' '));
      assert.ok(ours.stderr.startsWith(`berth: ${throughFile[0] ?? ''}`) && ours.stderr.endsWith(`${throughFile[1] ?? ''}\n`), ours.stderr);
    }
    const parentMissing = ['cp', hostFile, `${name}:/no/such/dir/file`];
    const ours = await harness.berth(parentMissing);
    assert.deepEqual([ours.code, ours.stderr], [1, `berth: ${expectedMessage('cli-cp-parent-missing', { container: name })}\n`]);
    assert.match(docker(parentMissing).stderr, new RegExp(`Could not find the file /no/such/dir in container ${name}`));

    const connect = await harness.berth(['network', 'connect', 'none', 'no-such-container-n']);
    assert.deepEqual(
      [connect.code, connect.stderr],
      [1, 'berth: No such container: no-such-container-n. Check the container id or name; the container may have been removed\n'],
    );
    const driver = await harness.berth(['volume', 'create', '--driver', 'no-such-driver', `scripts-volume-${process.pid}`]);
    assert.equal(driver.code, 1);
    assert.match(driver.stderr, /plugin "no-such-driver" not found\. No volume plugin of that name is installed in the engine: check the driver name, or leave --driver out for the engine's local driver\n$/);
    await harness.client.containers.remove(name, { force: true });
  });

  void it('a wrong number of arguments exits 1, as docker does; a flag berth does not know still exits 125', async () => {
    for (const args of [['stop'], ['logs'], ['ps', 'extra'], ['wait']]) {
      const ours = await harness.berth(args);
      const theirs = docker(args);
      assert.deepEqual([ours.code, ours.stdout], [theirs.status, ''], args.join(' '));
      assert.equal(ours.code, 1, args.join(' '));
      assert.match(ours.stderr, /^berth: "berth [a-z]+" (requires|accepts) /, args.join(' '));
    }
    const row = wordsAndStatus('cli-argument-count');
    const stop = await harness.berth(['stop']);
    assert.deepEqual([stop.code, stop.stderr], [row.status, `berth: ${row.words}\n`]);
    const unknown = await harness.berth(['ps', '--bogus']);
    assert.deepEqual([unknown.code, docker(['ps', '--bogus']).status], [125, 125]);
  });

  void it('volume, network and compose alone print their commands and exit 0, as docker does', async () => {
    for (const group of ['volume', 'network', 'compose']) {
      const ours = await harness.berth([group]);
      assert.equal(ours.code, 0, ours.stderr);
      assert.match(ours.stdout, new RegExp(`^Usage: {2}berth ${group} COMMAND\\n\\nCommands:\\n {2}ls `, 'm'));
      assert.match(ours.stdout, new RegExp(`^Run 'berth ${group} COMMAND --help'`, 'm'));
    }
    assert.equal(docker(['volume']).status, 0);
    const unknownVerb = await harness.berth(['volume', 'bogus']);
    assert.deepEqual([unknownVerb.code, unknownVerb.stderr], [125, "berth: 'volume bogus' is not a berth command. See 'berth help'.\n"]);
  });

  void it('SIGTERM to a --rm run whose PID 1 ignores it: berth kills the container after the grace period, exits, leaves nothing', { timeout: 90_000 }, async () => {
    const name = `scripts-term-${process.pid}`;
    const child = harness.start(['run', '--rm', '--name', name, '--network', 'none', ...harness.labelArgs, harness.engines.image, 'sh', '-c', 'echo ready; exec sleep 1000']);
    const result = collect(child);
    await new Promise<void>((resolveReady) => {
      let seen = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('ready\n')) resolveReady();
      });
    });
    child.kill('SIGTERM');
    const { code, stdout, stderr } = await result;
    const row = wordsAndStatus('cli-sigterm-ignored');
    assert.deepEqual({ code, stdout, stderr }, { code: row.status, stdout: 'ready\n', stderr: `berth: ${row.words}\n` });
    assert.deepEqual(await named(name), []);
  });
});
