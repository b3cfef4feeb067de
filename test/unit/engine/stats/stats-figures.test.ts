// docker's stats arithmetic and wording on hand-made samples; the same code on real samples next to the docker CLI
// is test/engine/stats/stats-same-sample.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { binarySize, compactFigures, cpuPercent, decimalSize, goG, memoryUsage, statsCells, statsFigures, type StatsSample } from '../../../../src/engine';

const running: StatsSample = {
  read: '2026-11-23T13:47:25.779837505Z',
  cpu_stats: { cpu_usage: { total_usage: 3_000_000_000 }, system_cpu_usage: 23_112_000_000_000, online_cpus: 2 },
  precpu_stats: { cpu_usage: { total_usage: 2_000_000_000 }, system_cpu_usage: 23_110_000_000_000 },
  memory_stats: { usage: 30 * 1024 * 1024, limit: 1024 * 1024 * 1024, stats: { total_inactive_file: 10 * 1024 * 1024 } },
  pids_stats: { current: 3 },
  blkio_stats: { io_service_bytes_recursive: [{ op: 'Read', value: 1500 }, { op: 'write', value: 2_500_000 }, { op: 'Total', value: 1 }] },
};

void describe('stats figures', () => {
  void it('CPU % is (cpu delta / system delta) × online CPUs × 100, as the docker CLI computes it', () => {
    assert.equal(cpuPercent(running.cpu_stats, running.precpu_stats), (1e9 / 2e9) * 2 * 100);
    // No online_cpus: the number of per-CPU counters.
    assert.equal(cpuPercent({ ...running.cpu_stats, online_cpus: 0, cpu_usage: { total_usage: 3e9, percpu_usage: [1, 2, 3, 4] } }, running.precpu_stats), 200);
    // A delta that is not positive is 0, as with docker.
    assert.equal(cpuPercent(running.cpu_stats, running.cpu_stats), 0);
    // No counters at all: no figure.
    assert.equal(cpuPercent({}, undefined), undefined);
  });

  void it('memory leaves out the inactive page cache (cgroup v1 total_inactive_file, v2 inactive_file)', () => {
    assert.equal(memoryUsage(running.memory_stats), 20 * 1024 * 1024);
    assert.equal(memoryUsage({ usage: 100, stats: { inactive_file: 40 } }), 60);
    assert.equal(memoryUsage({ usage: 100, stats: null }), 100);
    assert.equal(memoryUsage({}), undefined);
  });

  void it("cells are worded as docker's table words them", () => {
    assert.deepEqual(statsCells(statsFigures(running)), ['100.00%', '20MiB / 1GiB', '1.95%', '0B / 0B', '1.5kB / 2.5MB', '3']);
    assert.equal(binarySize(468 * 1024), '468KiB');
    assert.equal(binarySize(21_430_272), '20.44MiB');
    assert.equal(decimalSize(999), '999B');
    assert.equal(goG(1234.5, 3), '1.23e+03');
    assert.equal(compactFigures(statsFigures(running)), '100% · 20 MiB');
  });

  void it("a row's memory never shows an exponent: docker's %.4g below 1024 of each unit", () => {
    const withMemory = (bytes: number): string => compactFigures({ ...statsFigures(running), memoryUsage: bytes });
    assert.equal(withMemory(1010 * 1024), '100% · 1010 KiB');
    assert.equal(withMemory(1023.9 * 1024), '100% · 1024 KiB');
    assert.equal(withMemory(1000), '100% · 1000 B');
    assert.equal(withMemory(1023 * 1024 * 1024), '100% · 1023 MiB');
    assert.equal(withMemory(21_430_272), '100% · 20.44 MiB');
    for (let bytes = 1; bytes < 2 ** 40; bytes = Math.ceil(bytes * 1.37)) assert.doesNotMatch(withMemory(bytes), /e[+-]/, String(bytes));
  });

  void it('missing memory figures read n/a, never NaN; a stopped container (zero time) has no figures', () => {
    const noMemory = statsFigures({ ...running, memory_stats: {} });
    assert.deepEqual(statsCells(noMemory).slice(1, 3), ['n/a / n/a', 'n/a']);
    assert.equal(compactFigures(noMemory), '100% · n/a');
    const stopped = statsFigures({ read: '0001-01-01T00:00:00Z', cpu_stats: { cpu_usage: { total_usage: 0 } } });
    assert.equal(stopped.running, false);
    assert.equal(stopped.cpuPercent, undefined);
    assert.deepEqual(statsCells(stopped), ['--', '-- / --', '--', '--', '--', '--']);
    assert.equal(compactFigures(stopped), 'n/a · n/a');
  });
});
