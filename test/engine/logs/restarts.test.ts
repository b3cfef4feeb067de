// The logs follower across a restart policy on the real dockerd and Podman: a container that prints a line on each
// stream and exits 1 under `on-failure:3` runs four times, often several times between two inspects. What Show Logs
// and Open Logs in Editor show (both are sinks of this follower) must follow the engine's own order: each run's
// lines, then one "exited with status 1" line, then one "restarted" line before the next run's lines.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { EngineClient } from '../../../src/engine';
import { followContainerLogs, type LogSink } from '../../../src/logs/logFollower';
import { useEngineSuite } from '../../support/engineSuite';
import { engineTargets, loadTestEngines, uniqueName } from '../../support/engines';

const engines = loadTestEngines();

/** Numbers its runs in a file of the container's own (kept across restarts), prints one line per stream, fails. */
const CRASHING = 'n=$(cat /run-count 2>/dev/null || echo 0); n=$((n+1)); echo $n > /run-count; echo "run $n"; echo "err $n" >&2; exit 1';
const RETRIES = 3;

class Sequence implements LogSink {
  readonly entries: string[] = [];
  output(_stream: 'stdout' | 'stderr', text: string): void {
    this.entries.push(text);
  }
  notice(text: string): void {
    this.entries.push(`notice: ${text}`);
  }
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

/** The container's starts and dies as the engine's event stream tells them, in its order. */
async function engineRuns(client: EngineClient, id: string, since: number): Promise<Array<{ action: 'start' | 'die'; exitCode?: string }>> {
  const runs: Array<{ action: 'start' | 'die'; exitCode?: string }> = [];
  const reading = new AbortController();
  const timer = setTimeout(() => reading.abort(), 3000);
  try {
    for await (const event of client.system.events({ since, filters: { type: ['container'], container: [id] }, signal: reading.signal })) {
      if (event.Action === 'start') runs.push({ action: 'start' });
      else if (event.Action === 'die' || event.Action === 'died') runs.push({ action: 'die', exitCode: event.Actor.Attributes?.exitCode ?? '' });
      if (runs.filter((run) => run.action === 'die').length === RETRIES + 1) break;
    }
  } catch (error) {
    if (!reading.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  return runs;
}

/** What the follower must show for RUNS: each run's lines, its exit, and a "restarted" line before the next run. */
function expectedSequence(name: string, runs: ReadonlyArray<{ action: 'start' | 'die'; exitCode?: string }>, notStartedFirst: boolean): string[] {
  const expected = notStartedFirst ? [`notice: ${name} has not started yet; waiting for it to start…`] : [];
  let run = 0;
  for (const event of runs) {
    if (event.action === 'start') {
      run++;
      if (run > 1) expected.push(`notice: ${name} restarted`);
      expected.push(`run ${run}\n`, `err ${run}\n`);
    } else {
      expected.push(`notice: ${name} exited with status ${event.exitCode}; waiting for it to start again…`);
    }
  }
  return expected;
}

/**
 * ENTRIES with each run of lines between two notices sorted: a run's stdout and stderr lines come from two pipes that
 * the engine stamps as it reads them, so their order between the streams is the engine's choice.
 */
function canonical(entries: readonly string[]): string[] {
  const result: string[] = [];
  let lines: string[] = [];
  for (const entry of [...entries, 'notice: end']) {
    if (!entry.startsWith('notice: ')) {
      lines.push(entry);
      continue;
    }
    result.push(...lines.sort(), entry);
    lines = [];
  }
  return result.slice(0, -1);
}

for (const target of engineTargets(engines)) {
  void describe(`logs follower across a restart policy on ${target.name}`, { timeout: 300_000 }, () => {
    const suite = useEngineSuite({ host: target.host, skip: target.skip, name: `logs-restarts-${target.name}` });
    const { client } = suite;

    async function crashing(): Promise<{ id: string; name: string; since: number }> {
      const name = uniqueName('restarter');
      const since = Math.floor(Date.now() / 1000) - 1;
      const id = await suite.createContainer(['sh', '-c', CRASHING], { HostConfig: { RestartPolicy: { Name: 'on-failure', MaximumRetryCount: RETRIES } } }, name);
      return { id, name, since };
    }

    async function finished(id: string): Promise<boolean> {
      const { State } = await client.containers.inspect(id);
      return !State.Running && State.Restarting !== true && State.Status === 'exited';
    }

    void it(`followed from before its start: lines, one exit line per run and one "restarted" per restart, in the engine's order`, { skip: target.skip }, async () => {
      const { id, name, since } = await crashing();
      const shown = new Sequence();
      const following = new AbortController();
      const follower = followContainerLogs(client, id, shown, { tail: 1000, signal: following.signal, followRestarts: true });
      await until('the waiting notice', () => shown.entries.length > 0);
      await client.containers.start(id);
      const exits = (): number => shown.entries.filter((entry) => entry.startsWith(`notice: ${name} exited with status`)).length;
      await until(`${RETRIES + 1} exit lines`, async () => exits() >= RETRIES + 1 && (await finished(id)));
      // Let a late duplicate show itself if there is one.
      await delay(1000);
      following.abort();
      await follower.catch(() => undefined);
      const runs = await engineRuns(client, id, since);
      assert.equal(runs.filter((run) => run.action === 'start').length, RETRIES + 1, JSON.stringify(runs));
      assert.deepEqual(canonical(shown.entries), canonical(expectedSequence(name, runs, true)));
    });

    void it('followed from its first run on: the same order, each run\'s lines before its exit line', { skip: target.skip }, async () => {
      const { id, name, since } = await crashing();
      await client.containers.start(id);
      const shown = new Sequence();
      const following = new AbortController();
      const follower = followContainerLogs(client, id, shown, { tail: 1000, signal: following.signal, followRestarts: true });
      const exits = (): number => shown.entries.filter((entry) => entry.startsWith(`notice: ${name} exited with status`)).length;
      await until(`${RETRIES + 1} exit lines`, async () => exits() >= RETRIES + 1 && (await finished(id)));
      await delay(1000);
      following.abort();
      await follower.catch(() => undefined);
      const runs = await engineRuns(client, id, since);
      const expected = expectedSequence(name, runs, false);
      const trace = shown.entries.join('');
      // Every run's lines once, in order (the backlog brings the runs before the follower opened, without notices).
      const lines = (entries: readonly string[]): string[] => entries.filter((entry) => !entry.startsWith('notice: '));
      assert.deepEqual(lines(canonical(shown.entries)), lines(canonical(expected)), trace);
      // From its first notice on, what the follower shows is the engine's order exactly.
      const firstNotice = shown.entries.findIndex((entry) => entry.startsWith('notice: '));
      assert.ok(firstNotice > 0, trace);
      const tail = shown.entries.slice(firstNotice);
      const before = lines(shown.entries.slice(0, firstNotice)).length;
      const ordered = canonical(expected);
      const from = ordered.findIndex((_, at) => lines(ordered.slice(0, at)).length === before);
      assert.deepEqual(canonical(tail), ordered.slice(from), trace);
    });
  });
}
