/**
 * `berth logs` next to `docker logs` on the same private dockerd: docker's `--since`/`--until` syntax (relative,
 * absolute, RFC 3339 with nanoseconds and zones, Unix seconds with fractions), and several containers merged in
 * timestamp order with name prefixes, as `docker compose logs` prints them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dockerCli, type DockerCliResult } from '../../support/dockerHome';
import { collect, createCliHarness, eventually, type CliHarness } from './support';

interface StampedLine {
  readonly stamp: string;
  readonly text: string;
}

void describe('berth logs next to docker logs', () => {
  let harness: CliHarness;
  before(async () => {
    harness = await createCliHarness('logs-merge');
  });
  after(async () => {
    await harness.dispose();
  });

  const docker = (args: readonly string[]): DockerCliResult<string> => dockerCli(harness.engines.dockerHost, args);
  /** Runs a container that prints `NAME-1` … `NAME-count` on stdout (and `NAME-err-i` on stderr), waits until it exited. */
  const finishedContainer = async (name: string, count: number): Promise<string> => {
    const script = `for i in $(seq 1 ${count}); do echo ${name}-$i; echo ${name}-err-$i >&2; sleep 0.2; done`;
    const started = await harness.berth(['run', '-d', '--network', 'none', '--name', `${name}-${process.pid}`, ...harness.labelArgs, harness.engines.image, 'sh', '-c', script]);
    assert.equal(started.code, 0, started.stderr);
    return started.stdout.trim();
  };
  const exited = async (ids: readonly string[]): Promise<void> =>
    eventually('the containers exited', async () => (await Promise.all(ids.map((id) => harness.client.containers.inspect(id)))).every((c) => !c.State.Running), 300);
  const stamped = (text: string): StampedLine[] =>
    text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const space = line.indexOf(' ');
        return { stamp: line.slice(0, space), text: line.slice(space + 1) };
      });
  /** docker's lines of each container, merged by stamp; equal stamps keep the order of the containers given. */
  const dockerMerged = (args: readonly string[], ids: readonly string[]): string[] =>
    ids
      .flatMap((id, index) => stamped(docker(['logs', '-t', ...args, id]).stdout).map((line) => ({ ...line, index })))
      .sort((a, b) => (a.stamp < b.stamp ? -1 : a.stamp > b.stamp ? 1 : a.index - b.index))
      .map((line) => `${line.stamp} ${line.text}`);

  void it('--since and --until read relative, absolute, RFC 3339 (nanoseconds, zones) and Unix times as docker does', async () => {
    const id = await finishedContainer('times', 5);
    await exited([id]);
    const lines = stamped(docker(['logs', '-t', id]).stdout);
    assert.equal(lines.length, 5);
    const third = (lines[2] as StampedLine).stamp;
    const thirdMs = Date.parse(third);
    const nanos = /\.(\d{9})Z$/.exec(third)?.[1] ?? '000000000';
    const unix = Math.floor(thirdMs / 1000);
    // The third line's instant written in other zones: the same instant, nanoseconds kept.
    const inZone = (offsetMinutes: number): string => {
      const shifted = new Date(Math.floor(thirdMs / 1000) * 1000 + offsetMinutes * 60_000).toISOString().slice(0, 19);
      const sign = offsetMinutes < 0 ? '-' : '+';
      const magnitude = Math.abs(offsetMinutes);
      return `${shifted}.${nanos}${sign}${String(Math.floor(magnitude / 60)).padStart(2, '0')}:${String(magnitude % 60).padStart(2, '0')}`;
    };
    const localDate = (ms: number): string => {
      const date = new Date(ms);
      return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    };
    const localHour = (ms: number): string => `${localDate(ms)}T${String(new Date(ms).getHours()).padStart(2, '0')}:00:00`;
    const times = [
      '10m',
      '1h30m',
      localDate(thirdMs),
      localHour(thirdMs),
      third,
      inZone(120),
      inZone(-330),
      `${unix}`,
      `${unix}.${nanos}`,
      `${unix}.5`,
    ];
    for (const time of times) {
      for (const flag of ['--since', '--until']) {
        const args = [flag, time, id];
        const ours = await harness.berth(['logs', ...args]);
        const theirs = docker(['logs', ...args]);
        assert.deepEqual([ours.code, ours.stdout, ours.stderr], [theirs.status, theirs.stdout, theirs.stderr], args.join(' '));
      }
    }
    // The boundary cases bite: the third line's own stamp is kept by --since and by --until, as docker keeps it.
    assert.equal((await harness.berth(['logs', '--since', third, id])).stdout, 'times-3\ntimes-4\ntimes-5\n');
    assert.equal((await harness.berth(['logs', '--until', inZone(-330), id])).stdout, 'times-1\ntimes-2\ntimes-3\n');
  });

  void it('several containers merge in timestamp order with name prefixes, stdout and stderr each to its own stream', async () => {
    const names = ['merge-a', 'merge-bbb', 'merge-cc'];
    const ids: string[] = [];
    for (const name of names) ids.push(await finishedContainer(name, 6));
    await exited(ids);
    const merged = await harness.berth(['logs', '-t', '--no-log-prefix', ...ids]);
    assert.equal(merged.code, 0, merged.stderr);
    assert.deepEqual(merged.stdout.split('\n').filter(Boolean), dockerMerged([], ids));
    assert.equal(merged.stdout.split('\n').filter(Boolean).length, 18);
    const prefixed = await harness.berth(['logs', ...ids]);
    const width = Math.max(...names.map((name) => `${name}-${process.pid}`.length));
    const expected = dockerMerged([], ids).map((line) => {
      const text = line.slice(line.indexOf(' ') + 1);
      const name = `${text.replace(/-\d+$/, '')}-${process.pid}`;
      return `${name.padEnd(width)} | ${text}`;
    });
    // Not a terminal: no colour codes.
    assert.deepEqual(prefixed.stdout.split('\n').filter(Boolean), expected);
    assert.deepEqual(prefixed.stderr.split('\n').filter(Boolean).length, 18);
    assert.match(prefixed.stderr, new RegExp(`^merge-a-${process.pid} +\\| merge-a-err-1$`, 'm'));
    // The time flags apply to each container, as docker applies them to one.
    const since = (stamped(docker(['logs', '-t', ids[1] as string]).stdout)[3] as StampedLine).stamp;
    const window = await harness.berth(['logs', '-t', '--no-log-prefix', '--since', since, '--tail', '2', ...ids]);
    assert.deepEqual(window.stdout.split('\n').filter(Boolean), dockerMerged(['--since', since, '--tail', '2'], ids));
  });

  void it('-f follows every container until the last one stops, in order', async () => {
    const ids: string[] = [];
    for (const name of ['follow-a', 'follow-b']) ids.push(await finishedContainer(name, 8));
    const followed = await harness.berth(['logs', '-f', '-t', '--no-log-prefix', ...ids]);
    assert.equal(followed.code, 0, followed.stderr);
    await exited(ids);
    const lines = followed.stdout.split('\n').filter(Boolean);
    // Live lines may come late on a loaded machine, so this checks what the window cannot change: every line once,
    // each container's lines in their own order.
    assert.deepEqual([...lines].sort(), [...dockerMerged([], ids)].sort());
    for (const name of ['follow-a', 'follow-b']) {
      const own = lines.filter((line) => line.includes(` ${name}-`)).map((line) => line.slice(line.indexOf(' ') + 1));
      assert.deepEqual(own, Array.from({ length: 8 }, (_, index) => `${name}-${index + 1}`));
    }
  });

  void it('Ctrl-C ends -f of several containers with 130, as it ends logs -f of one, and they run on', async () => {
    const ids: string[] = [];
    for (const name of ['endless-a', 'endless-b']) {
      const started = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, harness.engines.image, 'sh', '-c', `echo ${name}; while true; do sleep 1; done`]);
      assert.equal(started.code, 0, started.stderr);
      ids.push(started.stdout.trim());
    }
    const child = harness.start(['logs', '-f', ...ids]);
    const result = collect(child);
    await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
    child.kill('SIGINT');
    const { code, stderr } = await result;
    assert.deepEqual([code, stderr], [130, 'berth: interrupted\n']);
    for (const id of ids) assert.equal((await harness.client.containers.inspect(id)).State.Status, 'running');
  });

  void it('a missing container among several is refused before any line is printed, as docker refuses it', async () => {
    const id = await finishedContainer('present', 1);
    await exited([id]);
    const ours = await harness.berth(['logs', id, 'no-such-container-berth']);
    const theirs = docker(['logs', 'no-such-container-berth']);
    assert.deepEqual([ours.code, ours.stdout], [theirs.status, '']);
    assert.match(ours.stderr, /^berth: No such container: no-such-container-berth\b/);
  });
});
