// berth stats and berth top next to docker on the same private dockerd, and their bad-input rows. CPU and memory
// move between two calls, so the live table is compared column by column where the figures are stable (ids, names,
// limits, PIDS); the figures themselves are compared on one and the same sample in stats-same-sample.test.ts.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { expectedMessage } from '../engine/bad-input-cases';
import { createCliHarness, type CliHarness } from '../cli/support';
import { sleep } from '../../support/wait';

const execFileAsync = promisify(execFile);

/** Splits a table as docker's tabwriter prints it: cells are separated by at least 3 spaces (or 2 after a wide cell). */
function cells(line: string): string[] {
  return line.trim().split(/ {2,}/);
}

void describe('berth stats and top next to docker', () => {
  let harness: CliHarness;
  const ids: string[] = [];
  before(async () => {
    harness = await createCliHarness('stats');
    for (const cmd of [['sleep', '600'], ['sh', '-c', 'sleep 600 & sleep 600 & wait']]) {
      const run = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, harness.engines.image, ...cmd]);
      assert.equal(run.code, 0, run.stderr);
      ids.push(run.stdout.trim());
    }
  });
  after(async () => {
    await harness.dispose();
  });

  const docker = async (args: readonly string[]): Promise<string> =>
    (await execFileAsync('docker', ['-H', harness.engines.dockerHost, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } })).stdout;

  void it('stats --no-stream: the same header, rows in the same order, the same ids, names, memory limits and PIDS', async () => {
    const berth = await harness.berth(['stats', '--no-stream', ...ids]);
    assert.equal(berth.code, 0, berth.stderr);
    const theirs = (await docker(['stats', '--no-stream', ...ids])).trimEnd().split('\n');
    const ours = berth.stdout.trimEnd().split('\n');
    assert.equal(ours[0], theirs[0]);
    assert.equal(ours.length, theirs.length);
    for (let index = 1; index < ours.length; index++) {
      const [mine, docker_] = [cells(ours[index] ?? ''), cells(theirs[index] ?? '')];
      assert.deepEqual([mine[0], mine[1], mine[3]?.split(' / ')[1], mine[7]], [docker_[0], docker_[1], docker_[3]?.split(' / ')[1], docker_[7]]);
      assert.match(mine[2] ?? '', /^\d+\.\d\d%$/);
    }
    assert.equal(cells(ours[2] ?? '')[7], '3', 'sh and its two sleeps');
  });

  void it('stats redraws the table in place until Ctrl-C, then exits 0', async () => {
    const child = harness.start(['stats', ids[0] as string]);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (let attempt = 0; attempt < 200 && output.split('CONTAINER ID').length < 3; attempt++) await sleep(100);
    child.kill('SIGINT');
    assert.equal(await exited, 0);
    const tables = output.split('CONTAINER ID').slice(1);
    assert.ok(tables.length >= 2, `two tables drawn: ${output}`);
    for (const table of tables) assert.match(table, new RegExp(`\\n${(ids[0] as string).slice(0, 12)} `));
  });

  void it("top prints docker's columns and the same processes", async () => {
    const id = ids[1] as string;
    const berth = await harness.berth(['top', id]);
    assert.equal(berth.code, 0, berth.stderr);
    const theirs = await docker(['top', id]);
    const pids = (text: string): string[] => text.trimEnd().split('\n').slice(1).map((line) => cells(line)[1] ?? '').sort();
    assert.equal(berth.stdout.split('\n')[0], theirs.split('\n')[0]);
    assert.deepEqual(pids(berth.stdout), pids(theirs));
    assert.equal(pids(berth.stdout).length, 3);
    const custom = await harness.berth(['top', id, '-o', 'pid,comm']);
    assert.equal(custom.stdout, await docker(['top', id, '-o', 'pid,comm']));
  });

  void it('bad input: an unknown container, and top of a stopped one, get the engine\'s words and what to do', async () => {
    const unknown = await harness.berth(['stats', '--no-stream', 'no-such-container']);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, `berth: ${expectedMessage('stats-unknown')}\n`);
    const stopped = ids[0] as string;
    await harness.client.containers.stop(stopped, { timeoutSeconds: 0 });
    const top = await harness.berth(['top', stopped]);
    assert.equal(top.code, 1);
    assert.equal(top.stderr, `berth: ${expectedMessage('top-stopped', { id: stopped })}\n`);
  });
});
