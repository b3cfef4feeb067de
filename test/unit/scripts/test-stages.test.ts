// scripts/lib/test-stages.sh's per-stage minimum: a stage reporting fewer tests than recorded fails, run through bash.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';

/** Sources the stage library, records one stage's counts, and prints the summary; the exit status and output. */
function summaryOf(stage: string, passed: number, failed: number, skipped: number): { status: number; output: string } {
  const script = `source scripts/lib/test-stages.sh; add_counts ${stage} ${passed} ${failed} ${skipped} detail 1; print_summary 1`;
  try {
    return { status: 0, output: execFileSync('bash', ['-c', script], { encoding: 'utf8' }) };
  } catch (error) {
    const failure = error as { status: number; stdout: string };
    return { status: failure.status, output: failure.stdout };
  }
}

void describe('per-stage minimum test counts', () => {
  void it('fails a stage whose tests fell below its minimum, naming the minimum', () => {
    const { status, output } = summaryOf('engine', 200, 0, 0);
    assert.equal(status, 1);
    assert.match(output, /engine: 200 tests ran, fewer than the recorded minimum of 395/);
    assert.match(output, /200 passed, 1 failed, 0 skipped$/m);
  });

  void it('counts skipped tests as present, and passes a stage at its minimum', () => {
    const { status, output } = summaryOf('engine', 360, 0, 35);
    assert.equal(status, 0, output);
    assert.match(output, /360 passed, 0 failed, 35 skipped$/m);
  });

  void it('has no minimum for a stage it does not know', () => {
    assert.equal(summaryOf('other', 1, 0, 0).status, 0);
  });
});
