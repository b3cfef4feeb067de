/**
 * Options scripts use (issue 33 item 6), each next to the docker CLI on the same private dockerd: `logs --since`,
 * `--until` (docker's time syntax) and `--details`; `stop --timeout` and `stop -t -1`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { compareVersions } from '../../../src/engine';
import { expectedMessage } from '../engine/bad-input-cases';
import { createCliHarness, eventually, type CliHarness } from './support';

void describe('script options, next to docker', () => {
  let harness: CliHarness;
  before(async () => {
    harness = await createCliHarness('script-options');
  });
  after(async () => {
    await harness.dispose();
  });

  const docker = (args: readonly string[]): { status: number | null; stdout: string; stderr: string } => {
    const result = spawnSync('docker', ['-H', harness.engines.dockerHost, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const exitCode = async (id: string): Promise<number> => (await harness.client.containers.inspect(id)).State.ExitCode;

  void it('logs --since and --until take docker\'s times (RFC 3339, Unix seconds, durations) and print what docker prints', async () => {
    const started = docker(['run', '-d', '--network', 'none', '--log-opt', 'labels=team', '-l', 'team=blue', '-l', 'berth.test=1', '-l', harness.labelFilter, harness.engines.image, 'sh', '-c', 'echo one; sleep 2; echo two']);
    assert.equal(started.status, 0, started.stderr);
    const id = started.stdout.trim();
    await eventually('both lines are logged', async () => (await harness.berth(['logs', id])).stdout === 'one\ntwo\n', 100);
    const stamped = (await harness.berth(['logs', '-t', id])).stdout;
    const second = /^(\S+) two$/m.exec(stamped)?.[1];
    assert.ok(second, stamped);
    const unixSecond = String(Math.floor(Date.parse(second) / 1000));
    for (const args of [
      ['--since', second],
      ['--until', second],
      ['--since', unixSecond],
      ['--since', '1h'],
      ['--until', '1h'],
      ['--since', '2000-01-01'],
      ['--details'],
      ['--details', '--since', second],
    ]) {
      const ours = await harness.berth(['logs', ...args, id]);
      const theirs = docker(['logs', ...args, id]);
      assert.deepEqual([ours.code, ours.stdout], [theirs.status, theirs.stdout], args.join(' '));
    }
    assert.equal((await harness.berth(['logs', '--since', second, id])).stdout, 'two\n');
    assert.equal((await harness.berth(['logs', '--details', id])).stdout, 'team=blue one\nteam=blue two\n');
    const bogus = await harness.berth(['logs', '--since', 'bogus', id]);
    assert.equal(docker(['logs', '--since', 'bogus', id]).status, 1);
    const row = /^(.*?) \(exit (\d+)/.exec(expectedMessage('cli-logs-since-invalid'));
    assert.deepEqual([bogus.code, bogus.stderr], [Number(row?.[2]), `berth: ${row?.[1] ?? ''}\n`]);
  });

  void it('stop --timeout is -t; stop -t -1 waits for the container however long it takes its trap to end it', async () => {
    const trapping = ['sh', '-c', 'trap "sleep 2; exit 3" TERM; echo ready; while true; do sleep 0.1; done'];
    for (const [args, status] of [
      [['-t', '-1'], 3],
      [['--timeout', '0'], 137],
    ] as const) {
      for (const cli of ['berth', 'docker'] as const) {
        const started = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, harness.engines.image, ...trapping]);
        const id = started.stdout.trim();
        await eventually('the trap is set', async () => (await harness.berth(['logs', id])).stdout === 'ready\n', 100);
        const result = cli === 'berth' ? await harness.berth(['stop', ...args, id]) : docker(['stop', ...args, id]);
        const code = 'code' in result ? result.code : result.status;
        assert.deepEqual([code, result.stdout.trim()], [0, id], `${cli} stop ${args.join(' ')}`);
        assert.equal(await exitCode(id), status, `${cli} stop ${args.join(' ')}`);
      }
    }
  });

  void it('ps -n N and -l list the latest created containers in any state, as docker does', async () => {
    const ids: string[] = [];
    for (const script of ['exit 0', 'sleep 1000', 'exit 2']) {
      const started = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, harness.engines.image, 'sh', '-c', script]);
      assert.equal(started.code, 0, started.stderr);
      ids.push(started.stdout.trim().slice(0, 12));
    }
    for (const args of [['-l'], ['-n', '2'], ['-n', '5'], ['-n', '2', '-l'], ['-n', '-1']]) {
      const query = ['ps', '-q', '--filter', `label=${harness.labelFilter}`, ...args];
      const ours = await harness.berth(query);
      assert.deepEqual([ours.code, ours.stdout], [docker(query).status, docker(query).stdout], args.join(' '));
    }
    assert.equal((await harness.berth(['ps', '-q', '--filter', `label=${harness.labelFilter}`, '-n', '2'])).stdout, `${ids[2]}\n${ids[1]}\n`);
  });

  void it('images REPOSITORY[:TAG] and images -f list what docker lists', async () => {
    const [repository] = harness.engines.image.split(':') as [string];
    for (const args of [[repository], [harness.engines.image], [`${repository}:no-such-tag`], ['-f', 'dangling=false'], ['-f', `reference=${repository.split('/')[0] ?? ''}/*`], ['-f', 'reference=nothing-here*']]) {
      const ours = await harness.berth(['images', '-q', ...args]);
      const theirs = docker(['images', '-q', ...args]);
      // dockerd lists images created in the same second in no fixed order (it walks a map): rows compared as a set.
      const rows = (text: string): string[] => text.split('\n').sort();
      assert.deepEqual([ours.code, rows(ours.stdout)], [theirs.status, rows(theirs.stdout)], args.join(' '));
    }
    const named = await harness.berth(['images', '-q', harness.engines.image]);
    assert.equal(named.stdout.trim().split('\n').length, 1, named.stdout);
  });

  void it('volume create -o, network ls --no-trunc and network rm -f do what docker does', async () => {
    const options = ['-o', 'type=tmpfs', '-o', 'device=tmpfs', '--opt', 'o=size=1m'];
    const ours = `script-options-ours-${process.pid}`;
    const theirs = `script-options-theirs-${process.pid}`;
    try {
      const created = await harness.berth(['volume', 'create', ...options, ours]);
      assert.deepEqual([created.code, created.stdout], [0, `${ours}\n`], created.stderr);
      assert.equal(docker(['volume', 'create', ...options, theirs]).status, 0);
      const optionsOf = async (name: string): Promise<unknown> => (await harness.client.volumes.inspect(name)).Options;
      assert.deepEqual(await optionsOf(ours), { type: 'tmpfs', device: 'tmpfs', o: 'size=1m' });
      assert.deepEqual(await optionsOf(ours), await optionsOf(theirs));
    } finally {
      for (const name of [ours, theirs]) await harness.client.volumes.remove(name).catch(() => undefined);
    }

    for (const args of [['--no-trunc'], ['--no-trunc', '-q']]) {
      const listed = await harness.berth(['network', 'ls', ...args]);
      assert.deepEqual([listed.code, listed.stdout], [0, docker(['network', 'ls', ...args]).stdout], args.join(' '));
    }
    assert.match((await harness.berth(['network', 'ls', '--no-trunc', '-q'])).stdout, /^[0-9a-f]{64}\n/);

    const forced = await harness.berth(['network', 'rm', '-f', 'no-such-network-f']);
    assert.deepEqual([forced.code, forced.stdout, forced.stderr], [0, '', '']);
    assert.equal(docker(['network', 'rm', '-f', 'no-such-network-f']).status, 0);
    const unforced = await harness.berth(['network', 'rm', 'no-such-network-f']);
    assert.equal(unforced.code, 1);
    assert.match(unforced.stderr, /^berth: network no-such-network-f not found\. /);
  });

  void it('stop -s on an engine before API 1.42 (which would ignore it, as docker does silently) is refused; nothing is stopped', async (t) => {
    const version = await harness.client.negotiatedVersion();
    if (compareVersions(version, '1.42') >= 0) {
      t.skip(`this dockerd speaks API ${version}, which honours --signal`);
      return;
    }
    const started = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, harness.engines.image, 'sleep', '1000']);
    const id = started.stdout.trim();
    const ours = await harness.berth(['stop', '-s', 'USR1', '-t', '1', id]);
    assert.deepEqual([ours.code, ours.stdout, ours.stderr], [1, '', `berth: ${expectedMessage('cli-stop-signal-old-api', { version })}\n`]);
    assert.equal((await harness.client.containers.inspect(id)).State.Running, true);
  });
});
