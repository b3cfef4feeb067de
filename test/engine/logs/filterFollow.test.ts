// The logs filter on a followed log against the real dockerd and Podman: across a restart only the matching lines
// arrive, none lost or repeated, with the restart said; the filter changed mid-stream takes effect on the next line
// and the stream goes on; a time range (since/until) is read once and ends.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FilteredSink, LineFilter } from '../../../src/logs/lineFilter';
import { followContainerLogs, type LogSink } from '../../../src/logs/logFollower';
import { useEngineSuite } from '../../support/engineSuite';
import { engineTargets, loadTestEngines, uniqueName } from '../../support/engines';
import { until } from '../../support/wait';

const engines = loadTestEngines();

class Collected implements LogSink {
  readonly lines: string[] = [];
  readonly notices: string[] = [];
  output(_stream: 'stdout' | 'stderr', text: string): void {
    this.lines.push(text);
  }
  notice(text: string): void {
    this.notices.push(text);
  }
}

function filterOf(text: string, regex = false): LineFilter {
  const made = LineFilter.create({ text, regex, caseSensitive: true, invert: false });
  assert.ok(made instanceof LineFilter);
  return made;
}

for (const target of engineTargets(engines)) {
  void describe(`filtered logs follower on ${target.name}`, { timeout: 300_000 }, () => {
    const suite = useEngineSuite({ host: target.host, skip: target.skip, name: `logs-filter-${target.name}` });
    const { client } = suite;

    void it('keeps only matching lines across a restart, each once, and says the restart', { skip: target.skip }, async () => {
      // Each run numbers its lines with a fresh id (busybox's date has no %N, and a restart fits in one second), so
      // the lines of the two runs differ.
      const script = 'run=$(cat /proc/sys/kernel/random/uuid); i=0; while [ $i -lt 30 ]; do echo "keep $run $i"; echo "drop $run $i"; echo "keep-err $run $i" >&2; i=$((i+1)); done; echo "keep ready"; sleep 600';
      const name = uniqueName('logs-filter');
      const id = await suite.createContainer(['sh', '-c', script], {}, name);
      await client.containers.start(id);
      const shown = new Collected();
      const filtered = new FilteredSink(shown, filterOf('^keep', true));
      const following = new AbortController();
      const follower = followContainerLogs(client, id, filtered, { tail: 'all', signal: following.signal, followRestarts: true });
      const ready = (): number => shown.lines.filter((line) => line === 'keep ready\n').length;
      await until('the first run', () => ready() === 1, { timeoutMs: 120_000 });
      await client.containers.restart(id, { timeoutSeconds: 0 });
      await until('the second run', () => ready() === 2, { timeoutMs: 120_000 });
      following.abort();
      await follower.catch(() => undefined);
      assert.ok(shown.lines.every((line) => line.startsWith('keep')), shown.lines.filter((line) => !line.startsWith('keep')).join(''));
      const keptOut = shown.lines.filter((line) => /^keep \S+ \d+\n$/.test(line));
      const keptErr = shown.lines.filter((line) => line.startsWith('keep-err'));
      assert.equal(keptOut.length, 60, 'thirty stdout lines of each run');
      assert.equal(new Set(keptOut).size, 60, 'none repeated');
      assert.equal(keptErr.length, 60);
      assert.equal(shown.notices.filter((text) => text === `${name} restarted`).length, 1, shown.notices.join('\n'));
      assert.equal(filtered.kept, 122);
      assert.ok(filtered.read >= 182, `${filtered.read} lines read`);
    });

    void it('takes a new filter on the next line and keeps the stream', { skip: target.skip }, async () => {
      const script = 'i=0; while [ $i -lt 200 ]; do echo "alpha $i"; echo "beta $i"; i=$((i+1)); sleep 0.05; done; sleep 600';
      const id = await suite.createContainer(['sh', '-c', script], {}, uniqueName('logs-refilter'));
      await client.containers.start(id);
      const shown = new Collected();
      const filtered = new FilteredSink(shown, filterOf('alpha'));
      const following = new AbortController();
      const follower = followContainerLogs(client, id, filtered, { tail: 'all', signal: following.signal, followRestarts: true });
      await until('some alpha lines', () => shown.lines.length >= 5, { timeoutMs: 120_000 });
      filtered.filter = filterOf('beta');
      const switchedAt = shown.lines.length;
      await until('the last beta line', () => shown.lines.includes('beta 199\n'), { timeoutMs: 120_000 });
      following.abort();
      await follower.catch(() => undefined);
      assert.ok(shown.lines.slice(0, switchedAt).every((line) => line.startsWith('alpha')));
      const after = shown.lines.slice(switchedAt);
      assert.ok(after.every((line) => line.startsWith('beta')), after.filter((line) => !line.startsWith('beta')).join(''));
      const firstBeta = Number(/\d+/.exec(after[0] ?? '')?.[0]);
      assert.deepEqual(after, Array.from({ length: 200 - firstBeta }, (_, index) => `beta ${firstBeta + index}\n`), 'no line lost after the change');
    });

    void it('reads a closed time range once and ends, as docker logs --since --until', { skip: target.skip }, async () => {
      const id = await suite.createContainer(['sh', '-c', 'echo early; sleep 2; echo inside; sleep 2; echo late; sleep 600'], {}, uniqueName('logs-range'));
      await client.containers.start(id);
      const stamps: string[] = [];
      const seen = new Collected();
      const probe = new AbortController();
      const probing = followContainerLogs(client, id, { output: (stream, text, stamp) => { seen.output(stream, text); if (stamp) stamps.push(`${text.trim()} ${stamp}`); }, notice: () => undefined }, { tail: 'all', signal: probe.signal, followRestarts: false });
      await until('the late line', () => seen.lines.includes('late\n'), { timeoutMs: 120_000 });
      probe.abort();
      await probing.catch(() => undefined);
      const stampOf = (text: string): number => Date.parse((stamps.find((entry) => entry.startsWith(`${text} `)) ?? '').split(' ')[1] ?? '') / 1000;
      const since = Math.floor(stampOf('inside'));
      const endBefore = Math.floor(stampOf('late'));
      assert.ok(since > stampOf('early') && endBefore > stampOf('inside'), stamps.join('\n'));
      const ranged = new Collected();
      await followContainerLogs(client, id, ranged, { tail: 'all', since, until: endBefore, signal: new AbortController().signal, followRestarts: true });
      assert.deepEqual(ranged.lines, ['inside\n']);
    });
  });
}
