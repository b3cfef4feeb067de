/**
 * `berth run` under real signals, on dockerd and on Podman: SIGTERM/SIGHUP/SIGQUIT reach the container and berth
 * exits with its status; Ctrl-C stops it and shows its last words; --rm is the engine's AutoRemove, so nothing is
 * left even when berth is killed outright. Each case checks the exit status and the engine afterwards.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { printed } from '../../support/childOutput';
import { engineTargets, loadTestEngines } from '../../support/engines';
import { collect, createCliHarness, eventually, type CliHarness } from './support';

/**
 * The container is still there and not yet stopped: docker shows it running until the kill; Podman shows `stopping`
 * (Running false) from the moment the stop request arrives.
 */
const stopping = (state: { Running: boolean; Status: string }): boolean => state.Running || state.Status === 'stopping';

/** Whether the engine has sent the container NAME its stop signal (a `kill` event with signal 15) since SINCE. */
async function termSentBy(client: CliHarness['client'], name: string, since: number): Promise<boolean> {
  for await (const event of client.system.events({ since, until: (Date.now() / 1000).toFixed(3), filters: { container: [name], event: ['kill'] } })) {
    if (event.Actor.Attributes?.['signal'] === '15') return true;
  }
  return false;
}

/** A shell that prints `ready`, then answers SIGNAL by printing its name and exiting with STATUS. */
const trapping = (signal: string, status: number): string[] => ['sh', '-c', `trap "echo got-${signal}; exit ${status}" ${signal}; echo ready; while true; do sleep 0.1; done`];

for (const target of engineTargets(loadTestEngines())) {
  void describe(`berth run under signals (${target.name})`, { skip: target.skip }, () => {
    let harness: CliHarness;
    before(async () => {
      harness = await createCliHarness(`signals-${target.name}`);
    });
    after(async () => {
      await harness.dispose();
    });

    const host = { host: target.host };
    const run = (args: string[]): string[] => ['run', '--network', 'none', ...harness.labelArgs, ...args];
    const client = (): CliHarness['client'] => harness.clientFor(target.host);
    const termSent = (name: string, since: number): Promise<boolean> => termSentBy(client(), name, since);
    const left = async (name: string): Promise<string[]> =>
      (await client().containers.list({ all: true, filters: { name: [name] } })).map((container) => container.State);

    for (const [signal, status] of [
      ['TERM', 7],
      ['HUP', 9],
      ['QUIT', 11],
    ] as const) {
      void it(`SIG${signal} goes to the container; berth exits with its status; --rm leaves nothing`, async () => {
        const name = `sig-${signal.toLowerCase()}-${target.name}-${process.pid}`;
        const child = harness.start(run(['--rm', '--name', name, harness.engines.image, ...trapping(signal, status)]), host);
        const result = collect(child);
        await printed(child, 'ready\n');
        child.kill(`SIG${signal}`);
        const { code, stdout, stderr } = await result;
        assert.deepEqual({ code, stdout, stderr }, { code: status, stdout: `ready\ngot-${signal}\n`, stderr: '' });
        assert.deepEqual(await left(name), []);
      });
    }

    void it('SIGTERM without --rm: the container has exited (not running) with the status berth reports', async () => {
      const name = `sig-kept-${target.name}-${process.pid}`;
      const child = harness.start(run(['--name', name, harness.engines.image, ...trapping('TERM', 5)]), host);
      const result = collect(child);
      await printed(child, 'ready\n');
      child.kill('SIGTERM');
      assert.equal((await result).code, 5);
      const inspect = await client().containers.inspect(name);
      assert.deepEqual([inspect.State.Running, inspect.State.ExitCode], [false, 5]);
      await client().containers.remove(name, { force: true });
    });

    void it("Ctrl-C stops the container and keeps printing its last words until it exits, then exits 130", async () => {
      const name = `sig-int-${target.name}-${process.pid}`;
      const script = 'trap "echo last-words; echo bye >&2; exit 0" TERM; echo ready; while true; do sleep 0.1; done';
      const child = harness.start(run(['--rm', '--name', name, harness.engines.image, 'sh', '-c', script]), host);
      const result = collect(child);
      await printed(child, 'ready\n');
      child.kill('SIGINT');
      const { code, stdout, stderr } = await result;
      assert.deepEqual({ code, stdout, stderr }, { code: 130, stdout: 'ready\nlast-words\n', stderr: 'bye\nberth: interrupted\n' });
      assert.deepEqual(await left(name), []);
    });

    void it('killed outright (SIGKILL), berth leaves the --rm container to the engine, which removes it on exit', async () => {
      const name = `sig-kill-${target.name}-${process.pid}`;
      const child = harness.start(run(['--rm', '--name', name, harness.engines.image, 'sh', '-c', 'echo ready; sleep 2']), host);
      const result = collect(child);
      await printed(child, 'ready\n');
      child.kill('SIGKILL');
      assert.equal((await result).code, null);
      await eventually('the engine removed the container once it exited', async () => (await left(name)).length === 0, 600);
    });

    /**
     * Runs a --rm container that ignores SIGTERM (so a stop lasts until the kill), presses Ctrl-C once, and returns
     * once the engine shows the stop under way.
     */
    const stopBegun = async (name: string): Promise<{ child: ChildProcess; result: ReturnType<typeof collect> }> => {
      const child = harness.start(run(['--rm', '--name', name, harness.engines.image, 'sh', '-c', 'trap "" TERM; echo ready; while true; do sleep 0.1; done']), host);
      const result = collect(child);
      await printed(child, 'ready\n');
      const since = Math.floor(Date.now() / 1000) - 1;
      child.kill('SIGINT');
      // dockerd shows the container running until the kill, so there its SIGTERM event says the stop request arrived
      // (a second Ctrl-C before berth sent it would leave the container running, and the case would test nothing).
      await eventually('the stop has begun', async () => stopping((await client().containers.inspect(name)).State) && (target.name !== 'docker' || (await termSent(name, since))), 50);
      return { child, result };
    };

    void it('a double Ctrl-C leaves at once; the engine still stops and removes the container', async () => {
      const name = `sig-int2-${target.name}-${process.pid}`;
      const { child, result } = await stopBegun(name);
      child.kill('SIGINT');
      assert.equal((await result).code, 130);
      await eventually('the engine stopped and removed the container', async () => (await left(name)).length === 0, 600);
    });

    void it('a container removed with force while Ctrl-C stops it: berth ends (no hang) and says what happened', async () => {
      const name = `sig-gone-${target.name}-${process.pid}`;
      const { result } = await stopBegun(name);
      await client().containers.remove(name, { force: true });
      // Podman never answers the run's exit wait after this removal (dockerd answers it with the kill's status); berth
      // must not wait for it for ever. Either way the run was interrupted, and berth says so.
      const { code, stdout, stderr } = await result;
      assert.deepEqual({ code, stdout, stderr }, { code: 130, stdout: 'ready\n', stderr: 'berth: interrupted\n' });
      assert.deepEqual(await left(name), []);
    });
  });
}
