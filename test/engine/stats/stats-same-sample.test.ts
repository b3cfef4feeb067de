// The figures on the very same sample: one real sample from the private dockerd (a container burning CPU and holding
// memory in /dev/shm) is served by the in-process fake engine, and the docker CLI and berth both read it from there.
// The fake also gives the faults a real engine does not produce on demand: memory figures missing (rootless Podman,
// some cgroup v1 setups) and a stream that stalls after its first sample.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { EngineClient, followStats, parseHost, statsCells, statsFigures, type StatsSample } from '../../../src/engine';
import { createCliHarness, type CliHarness } from '../cli/support';
import { jsonLine, sendJson, stallAfterHeaders, startFakeEngine, writeEngineHead, type FakeEngine } from '../../support/fakeEngine';
import { until } from '../../support/wait';

const FAKE_ID = 'feed5'.padEnd(64, '0');
const NO_MEMORY = 'bad0'.padEnd(64, '0');
const STALLING = 'deadbeef'.padEnd(64, '0');

/** `eventually` for a check that reads what is already collected. */

void describe('stats on the same sample as the docker CLI', () => {
  let harness: CliHarness;
  let fake: FakeEngine;
  let sample: StatsSample;
  let client: EngineClient;

  before(async () => {
    harness = await createCliHarness('stats-sample');
    const run = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, harness.engines.image, 'sh', '-c', 'dd if=/dev/zero of=/dev/shm/x bs=1M count=24; while :; do :; done']);
    assert.equal(run.code, 0, run.stderr);
    const id = run.stdout.trim();
    // The second sample of the stream has both cpu and precpu: a real CPU delta.
    const controller = new AbortController();
    const samples: StatsSample[] = [];
    for await (const each of harness.client.containers.stats(id, { signal: controller.signal })) {
      samples.push(each);
      if (samples.length === 2) break;
    }
    sample = { ...(samples[1] as StatsSample), id: FAKE_ID, name: '/same-sample' };
    const withoutMemory: StatsSample = { ...sample, id: NO_MEMORY, name: '/no-memory', memory_stats: {} };
    fake = await startFakeEngine([
      (request, response) => {
        const served = request.path.includes(NO_MEMORY) ? withoutMemory : sample;
        if (request.path === `/containers/${FAKE_ID}/stats` || request.path === `/containers/${NO_MEMORY}/stats`) {
          writeEngineHead(response, 200, 'application/json');
          response.end(jsonLine(served));
          return true;
        }
        if (request.path === `/containers/${FAKE_ID}/json` || request.path === `/containers/${NO_MEMORY}/json`) {
          sendJson(response, 200, { Id: served.id, Name: served.name, State: { Status: 'running', Running: true } });
          return true;
        }
        if (request.path === `/containers/${STALLING}/stats`) {
          stallAfterHeaders(response, 200, 'application/json', jsonLine({ ...sample, id: STALLING }));
          return true;
        }
        return false;
      },
    ]);
    client = new EngineClient({ endpoint: parseHost(fake.host, {}) });
  });

  after(async () => {
    await client?.close();
    await fake?.close();
    await harness?.dispose();
  });

  // Asynchronous: the fake answers from this very process, so a synchronous spawn would never get its answer.
  const dockerOnFake = async (args: readonly string[]): Promise<string> => {
    const result = await promisify(execFile)('docker', ['-H', fake.host, ...args], { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } });
    return result.stdout;
  };

  void it("berth's CPU %, memory, I/O and PIDS equal the docker CLI's on the same sample, and so does the whole table", async () => {
    const docker = JSON.parse(await dockerOnFake(['stats', '--no-stream', '--format', '{{json .}}', FAKE_ID])) as Record<string, string>;
    const cells = statsCells(statsFigures(sample));
    assert.deepEqual(cells, [docker['CPUPerc'], docker['MemUsage'], docker['MemPerc'], docker['NetIO'], docker['BlockIO'], docker['PIDs']]);
    assert.notEqual(docker['CPUPerc'], '0.00%', 'the sample shows the busy loop');
    const berth = await harness.berth(['stats', '--no-stream', FAKE_ID], { host: fake.host });
    assert.equal(berth.code, 0, berth.stderr);
    assert.equal(berth.stdout, await dockerOnFake(['stats', '--no-stream', FAKE_ID]));
  });

  void it('memory figures the engine does not report show as n/a: never NaN, never a crash', async () => {
    const berth = await harness.berth(['stats', '--no-stream', NO_MEMORY], { host: fake.host });
    assert.equal(berth.code, 0, berth.stderr);
    const row = berth.stdout.split('\n')[1] ?? '';
    assert.match(row, /n\/a \/ n\/a\s+n\/a\s/);
    assert.doesNotMatch(berth.stdout, /NaN|undefined/);
    // CPU is still there: only what is missing is n/a.
    assert.ok(row.includes(statsCells(statsFigures(sample))[0] as string), row);
  });

  void it('a stream that stalls after its first sample is dropped and opened again quietly, until the caller stops', async () => {
    const controller = new AbortController();
    const reasons: string[] = [];
    let samples = 0;
    const before = fake.seen.filter((line) => line === `GET /containers/${STALLING}/stats`).length;
    const ended = followStats(client, STALLING, {
      signal: controller.signal,
      stallMs: 300,
      onSample: () => samples++,
      onReconnect: (reason) => reasons.push(reason),
    });
    await until('two reconnects after stalls', () => reasons.length >= 2, { timeoutMs: 10_000, intervalMs: 100 });
    controller.abort();
    assert.equal(await ended, 'aborted');
    assert.deepEqual(reasons.slice(0, 2), ['no sample for 300 ms', 'no sample for 300 ms']);
    assert.ok(samples >= 3, `each opening delivers its first sample: ${samples}`);
    const opened = fake.seen.filter((line) => line === `GET /containers/${STALLING}/stats`).length - before;
    assert.ok(opened >= 3, `the stream was opened again: ${opened}`);
    await until('the stalled responses to be closed', () => fake.stalledCount === 0, { timeoutMs: 10_000, intervalMs: 100 });
  });
});
