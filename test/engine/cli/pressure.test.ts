/**
 * berth's output under pressure, through real pipes: a reader that stops (`| head -1`), a full device (`/dev/full`),
 * and a slow reader of 400 MB while berth's peak memory is sampled from /proc. Each case checks the exit status and
 * the engine afterwards; the broken pipe is compared with the docker CLI on the same engine.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { engineTargets, loadTestEngines } from '../../support/engines';
import { createCliHarness, type CliHarness } from './support';

/** Prints lines until SIGTERM: an endless producer that a stop ends at once. */
const ENDLESS = ['sh', '-c', 'trap "exit 0" TERM; while true; do echo line; done'];
const MEMORY_LIMIT_KB = 64 * 1024;

/** berth's peak resident set (VmHWM) so far, in kB, or undefined once it has exited. */
function peakKb(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

for (const target of engineTargets(loadTestEngines())) {
  void describe(`berth output under pressure (${target.name})`, () => {
    let harness: CliHarness;
    before(async () => {
      harness = await createCliHarness(`pressure-${target.name}`);
    });
    after(async () => {
      await harness.dispose();
    });

    const host = { host: target.host };
    const runWords = (name: string, cmd: readonly string[]): string =>
      ['run', '--rm', '--network', 'none', ...harness.labelArgs, '--name', name, harness.engines.image, ...cmd].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
    const suiteContainers = async (): Promise<number> =>
      (await harness.clientFor(target.host).containers.list({ all: true, filters: { label: [harness.labelFilter] } })).length;

    void it('| head -1: a broken pipe exits 1 with docker\'s words, and leaves no container', { skip: target.skip }, async () => {
      const result = await harness.shell(`berth ${runWords(`pipe-${target.name}-${process.pid}`, ENDLESS)} | head -1`, host);
      assert.deepEqual(
        { code: result.code, stdout: result.stdout, stderr: result.stderr },
        { code: 1, stdout: 'line\n', stderr: 'berth: write /dev/stdout: broken pipe\n' },
      );
      assert.equal(await suiteContainers(), 0);
    });

    void it('> /dev/full: a failed write exits 1 with the reason, and leaves no container', { skip: target.skip }, async () => {
      const result = await harness.shell(`berth ${runWords(`full-${target.name}-${process.pid}`, ENDLESS)} > /dev/full`, host);
      assert.deepEqual({ code: result.code, stderr: result.stderr }, { code: 1, stderr: 'berth: write /dev/stdout: no space left on device\n' });
      assert.equal(await suiteContainers(), 0);
    });

    /** Starts berth, lets its stdout fill while the reader sleeps, then drains it in bursts; samples its peak RSS. */
    const drainSlowly = async (args: string[]): Promise<{ code: number | null; received: number; peak: number }> => {
      const child = harness.start(args, host);
      const pid = child.pid as number;
      let peak = 0;
      const sample = (): void => {
        peak = Math.max(peak, peakKb(pid) ?? 0);
      };
      const sampler = setInterval(sample, 50);
      const stdout = child.stdout;
      assert.ok(stdout);
      let received = 0;
      let reads = 0;
      // The reader sleeps first (the pipe fills and stays full), then reads in short bursts with pauses.
      stdout.pause();
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const code = await new Promise<number | null>((resolve) => {
        stdout.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (++reads % 64 === 0) {
            stdout.pause();
            setTimeout(() => stdout.resume(), 5);
          }
        });
        stdout.resume();
        child.on('close', resolve);
      });
      clearInterval(sampler);
      return { code, received, peak };
    };

    void it(`a slow reader drains 400 MB of run output: every byte arrives, berth's peak memory stays under 64 MB`, { skip: target.skip }, async (context) => {
      const size = 400_000_000;
      const { code, received, peak } = await drainSlowly(['run', '--rm', '--network', 'none', ...harness.labelArgs, harness.engines.image, 'head', '-c', String(size), '/dev/zero']);
      context.diagnostic(`berth run: peak RSS ${(peak / 1024).toFixed(1)} MB for ${size} bytes`);
      assert.equal(code, 0);
      assert.equal(received, size);
      assert.ok(peak > 0, 'no sample of berth was taken');
      assert.ok(peak < MEMORY_LIMIT_KB, `berth's peak resident memory was ${Math.round(peak / 1024)} MB`);
      assert.equal(await suiteContainers(), 0);
    });

    void it(`a slow reader of a 150 MB log: every byte arrives, berth's peak memory stays under 64 MB`, { skip: target.skip }, async (context) => {
      const name = `biglog-${target.name}-${process.pid}`;
      // 150 MB in lines of 10,000 characters, so the log driver's per-line overhead stays small.
      const writer = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, '--name', name, harness.engines.image, 'sh', '-c', "head -c 150000000 /dev/zero | tr '\\0' x | fold -w 9999"], host);
      assert.equal(writer.code, 0, writer.stderr);
      assert.equal((await harness.berth(['wait', name], host)).stdout, '0\n');
      const { code, received, peak } = await drainSlowly(['logs', name]);
      context.diagnostic(`berth logs: peak RSS ${(peak / 1024).toFixed(1)} MB for ${received} bytes`);
      assert.equal(code, 0);
      assert.equal(received, 150_000_000 + Math.floor(150_000_000 / 9_999));
      assert.ok(peak < MEMORY_LIMIT_KB, `berth's peak resident memory was ${Math.round(peak / 1024)} MB`);
      await harness.clientFor(target.host).containers.remove(name, { force: true });
    });

    if (target.name === 'docker') {
      void it('docker on the same engine: the same broken pipe exits 1 too (what berth matches)', { skip: target.skip }, () => {
        const docker = `docker -H ${target.host} run --rm --network none ${harness.engines.image} sh -c 'seq 1 100000' | head -1`;
        let status = 0;
        try {
          execFileSync('bash', ['-c', `set -o pipefail; ${docker}`], { stdio: ['ignore', 'pipe', 'pipe'] });
        } catch (error) {
          status = (error as { status: number }).status;
        }
        assert.equal(status, 1);
      });
    }
  });
}
