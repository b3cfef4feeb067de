// Live stats from the real private dockerd and Podman: a container burning CPU and one filling /dev/shm move their
// figures the right way, a container stopped while its stream is open turns into "not running" without an error,
// and `top` lists the container's own process. Bounded waits only (`eventually`), never a timing assertion.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { followStats, statsFigures, type EngineClient, type StatsFigures } from '../../../src/engine';
import { engineTargets, loadTestEngines } from '../../support/engines';
import { useEngineSuite } from '../../support/engineSuite';
import { until } from '../../support/wait';
import { sleep } from '../../support/wait';

const engines = loadTestEngines();
const MiB = 1024 * 1024;

/** Follows a container's stats into an array until `stop()`; the promise says how following ended. */
function follow(client: EngineClient, id: string): { samples: StatsFigures[]; reconnects: string[]; stop: () => void; ended: Promise<string> } {
  const controller = new AbortController();
  const samples: StatsFigures[] = [];
  const reconnects: string[] = [];
  const ended = followStats(client, id, {
    signal: controller.signal,
    onSample: (sample) => samples.push(statsFigures(sample)),
    onReconnect: (reason) => reconnects.push(reason),
  });
  return { samples, reconnects, stop: () => controller.abort(), ended };
}

/** `eventually` for a check that reads what is already collected. */

if (!engines.podmanHost) {
  void it('stats on Podman', (t) => t.skip('engines.json has no podmanHost: Podman cannot run containers on this machine'));
}

for (const target of engineTargets(engines)) {
  void describe(`stats on ${target.name}`, () => {
    const suite = useEngineSuite({ host: target.host, name: `stats-${target.name}` });
    const { client } = suite;

    void it('a container burning CPU shows more CPU than an idle one, and memory grows as it fills /dev/shm', async () => {
      const burner = await suite.createContainer(['sh', '-c', 'while :; do :; done']);
      const idle = await suite.createContainer(['sleep', '600']);
      // Waits for a file that does not exist yet, then writes 48 MiB into the tmpfs: memory measured before and after.
      const filler = await suite.createContainer(['sh', '-c', 'while [ ! -e /tmp/go ]; do sleep 0.1; done; dd if=/dev/zero of=/dev/shm/fill bs=1M count=48; sleep 600']);
      for (const id of [burner, idle, filler]) await client.containers.start(id);
      const hot = follow(client, burner);
      const cold = follow(client, idle);
      const filling = follow(client, filler);
      try {
        // CPU % needs a sample with a cpu delta (a first sample's precpu may be empty; Podman 4 samples every 5 s).
        await until('the busy loop to show CPU use', () => (hot.samples.at(-1)?.cpuPercent ?? 0) > 5, { timeoutMs: 40_000, intervalMs: 100 });
        await until('samples of the others', () => cold.samples.length >= 2 && filling.samples.length >= 1, { timeoutMs: 40_000, intervalMs: 100 });
        const hotCpu = hot.samples.at(-1)?.cpuPercent ?? Number.NaN;
        const coldCpu = cold.samples.at(-1)?.cpuPercent ?? Number.NaN;
        assert.ok(hotCpu > coldCpu, `burning ${hotCpu}% should be above idle ${coldCpu}%`);
        const before = filling.samples.at(-1)?.memoryUsage;
        assert.ok(before !== undefined, `${target.name} reports memory`);
        const exec = await client.exec.create(filler, { cmd: ['touch', '/tmp/go'] });
        const socket = await client.exec.startAttached(exec.Id, { tty: false });
        socket.resume();
        await until('memory to grow by the 48 MiB written to /dev/shm', () => {
          const now = filling.samples.at(-1)?.memoryUsage ?? 0;
          return now - before >= 40 * MiB;
        }, { timeoutMs: 40_000, intervalMs: 100 });
        for (const figures of [...hot.samples, ...cold.samples, ...filling.samples]) {
          for (const value of [figures.cpuPercent, figures.memoryUsage, figures.memoryPercent, figures.pids]) {
            assert.ok(value === undefined || Number.isFinite(value), `no NaN: ${JSON.stringify(figures)}`);
          }
        }
        socket.destroy();
      } finally {
        for (const each of [hot, cold, filling]) each.stop();
      }
      assert.deepEqual(await Promise.all([hot.ended, cold.ended, filling.ended]), ['aborted', 'aborted', 'aborted']);
    });

    void it('a container stopped while its stream is open becomes "not running", with no error; removed, the follow ends as gone', async () => {
      const id = await suite.createContainer(['sleep', '600']);
      await client.containers.start(id);
      const followed = follow(client, id);
      await until('a first sample', () => followed.samples.length > 0, { timeoutMs: 40_000, intervalMs: 100 });
      assert.equal(followed.samples[0]?.running, true);
      await client.containers.stop(id, { timeoutSeconds: 0 });
      await client.containers.remove(id, { force: true });
      // dockerd goes on sending zeroed samples until the container is gone; Podman ends the stream. Either way the
      // follow ends as 'gone' once the engine no longer knows the container, never with an error.
      const end = await Promise.race([followed.ended, until('the follow to end', () => false, { timeoutMs: 40_000, intervalMs: 100 }).then(() => 'still following')]);
      followed.stop();
      assert.equal(end, 'gone');
      const after = followed.samples.slice(1).filter((figures) => !figures.running);
      for (const figures of after) assert.equal(figures.cpuPercent, undefined, 'a stopped container has no CPU figure, not 0 or NaN');
    });

    void it("top lists the container's own processes with ps's titles", async () => {
      const id = await suite.createContainer(['sleep', '600']);
      await client.containers.start(id);
      // Right after the start, ps may still see the runtime's `runc init` in the container's place: ask again until
      // the container's own process shows (or 10 s pass, which fails).
      let top = await client.containers.top(id);
      for (let tries = 0; tries < 50 && !(top.Processes ?? []).some((row) => row.join(' ').includes('sleep')); tries++) {
        await sleep(200);
        top = await client.containers.top(id);
      }
      // dockerd runs the host's ps -ef (one title per column); Podman 4 the container's busybox ps (one column in all).
      assert.match(top.Titles.join(' '), /\bPID\b/);
      assert.ok((top.Processes ?? []).some((row) => row.join(' ').includes('sleep')), JSON.stringify(top.Processes));
    });
  });
}
