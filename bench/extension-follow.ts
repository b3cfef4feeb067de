/**
 * `BERTH_BENCH_ONLY=follow npm run bench:extension`: the logs editor following a container past 1,000,000 lines, in
 * the real extension host of code-server (the phase itself: extension-host-follow.ts). Writes
 * bench/logs-followed-results.md and .json. Issue 35's target: the host's event-loop delay while following ≤ 50 ms
 * at p99; the time from a new line to its text in the editor is reported at the median and p95.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { StagedExtension } from './extension-bundle';
import type { BenchEngine } from './extension-engine';
import type { FollowSample, HostPlan, LoopDelay } from './extension-protocol';
import { buildHostModule, runLaunch } from './extension-vscode';
import type { Summary } from './stats';

const FOLLOW_LAUNCH_DEADLINE_MS = 600_000;

const spread = (summary: Summary, p95: number): string => summary.samples === 0 ? 'no mark reached the document' : `${summary.median.toFixed(0)} ms (p10–p90 ${summary.p10.toFixed(0)}–${summary.p90.toFixed(0)}; p95 ${p95.toFixed(0)})`;
const delay = (loop: LoopDelay): string => `p50 ${loop.p50.toFixed(1)} ms, p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms`;

export function followMarkdown(sample: FollowSample, load: readonly number[]): string {
  return [
    '# A followed logs editor past 1,000,000 lines, in the real extension host (`BERTH_BENCH_ONLY=follow npm run bench:extension`)',
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} cores shared with other work, 1-minute load average ${load.map((value) => value.toFixed(1)).join(' → ')}. The container wrote ${sample.lines.toLocaleString('en')} lines, then a marked line every ${sample.markIntervalMs} ms; the editor follows it with every line asked for (berth.logs.tail 0) and keeps the newest ${sample.maxLines.toLocaleString('en')}. ${sample.measured} of ${sample.marks} marks came after the document had loaded (in ${(sample.loadMs / 1000).toFixed(1)} s, ${sample.lineCount.toLocaleString('en')} lines) and make the figures.`,
    '',
    '| Measure | Figure | Target |',
    '| --- | --- | --- |',
    `| a new line → its text in the editor's document (from the engine's stamp) | ${spread(sample.stampToText, sample.stampToTextP95)} | reported |`,
    `| the same from the line reaching Berth's engine client alone (the floor) | ${spread(sample.floorToText, sample.floorToTextP95)} | reported |`,
    `| the engine's stamp → the floor's stream | ${sample.stampToFloor.samples === 0 ? '—' : `${sample.stampToFloor.median.toFixed(0)} ms (p10–p90 ${sample.stampToFloor.p10.toFixed(0)}–${sample.stampToFloor.p90.toFixed(0)})`} | — |`,
    `| the extension host's event-loop delay while following | ${delay(sample.followingLoopDelay)} | ≤ 50 ms at p99: ${sample.followingLoopDelay.p99 <= 50 ? 'met' : '**not met**'} |`,
    `| the same while the 1,000,000 lines loaded | ${delay(sample.loadingLoopDelay)} | — |`,
    '',
    `Marks in the document ${sample.shownMarks} of ${sample.marks} (on the floor's stream ${sample.floorMarks}), in ${sample.documentChanges} document changes; its last lines at the end: ${sample.lastLines.map((line) => `\`${line}\``).join(', ')}.`,
    '',
  ].join('\n');
}

/** One launch of its own with the follow phase; writes the results next to the other benches'. */
export async function measureFollowed(staged: StagedExtension, engine: BenchEngine, basePlan: HostPlan, settings: Record<string, unknown>, transcript: (line: string) => void, log: (line: string) => void, repoRoot: string): Promise<string> {
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const hostModule = await buildHostModule();
  const outcome = await runLaunch({ extensionDir: staged.dir, hostModule, plan: { ...basePlan, engineHost: engine.host, phases: ['follow'] }, settings, log, transcript, deadlineMs: FOLLOW_LAUNCH_DEADLINE_MS });
  const failure = outcome.results.find((result) => result.kind === 'error');
  if (failure?.kind === 'error') throw new Error(failure.message);
  const sample = outcome.results.find((result) => result.kind === 'follow');
  if (sample?.kind !== 'follow') throw new Error(`the follow launch gave no figures (exit ${outcome.exitCode})`);
  const markdown = followMarkdown(sample, [loadBefore, loadavg()[0] ?? Number.NaN]);
  writeFileSync(join(repoRoot, 'bench', 'logs-followed-results.json'), `${JSON.stringify({ date: new Date().toISOString(), load: [loadBefore, loadavg()[0]], sample }, null, 2)}\n`);
  writeFileSync(join(repoRoot, 'bench', 'logs-followed-results.md'), markdown);
  return markdown;
}
