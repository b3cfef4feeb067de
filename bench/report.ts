/** The benchmark report: markdown tables of medians, p10–p90 spreads and ratios, and the targets met or missed. */
import { writeFileSync } from 'node:fs';
import type { Summary } from './stats';

export interface LatencyResult {
  readonly scenario: string;
  readonly peer: string;
  /** Milliseconds per call. */
  readonly summary: Summary;
  /** This process's CPU time per call (for the docker CLI: only spawning and reading it, not the child's own). */
  readonly cpuMsPerCall: number;
  /** Median over rounds of this client's round median divided by the floor's (1 for the floor itself). */
  readonly pairedFloorRatio: number;
  readonly floor: boolean;
}

export interface ThroughputResult {
  readonly scenario: string;
  readonly reader: string;
  /** MB/s (10^6 bytes per second) per run. */
  readonly summary: Summary;
  /** Median CPU time (user + system) of the benchmark process per run: the reader's own cost, whatever the engine's pace. */
  readonly cpuMs: number;
  readonly floor: boolean;
}

export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
}

export interface BenchReport {
  readonly date: string;
  readonly machine: Record<string, string>;
  readonly latency: LatencyResult[];
  readonly throughput: ThroughputResult[];
  readonly targets: TargetCheck[];
  readonly notes: string[];
}

const ms = (value: number): string => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(3));
const mbps = (value: number): string => value.toFixed(value >= 100 ? 0 : 1);

function floorOf<T extends { scenario: string; floor: boolean }>(rows: readonly T[], scenario: string): T | undefined {
  return rows.find((row) => row.scenario === scenario && row.floor);
}

export function latencyTable(rows: readonly LatencyResult[]): string {
  const lines = [
    '| call | client | median (ms) | p10–p90 (ms) | × raw floor | × floor, paired by round | client CPU per call (ms) | samples |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    const floor = floorOf(rows, row.scenario);
    const ratio = floor ? `${(row.summary.median / floor.summary.median).toFixed(2)}×` : 'n/a';
    lines.push(`| ${row.scenario} | ${row.peer} | ${ms(row.summary.median)} | ${ms(row.summary.p10)}–${ms(row.summary.p90)} | ${ratio} | ${row.pairedFloorRatio.toFixed(2)}× | ${ms(row.cpuMsPerCall)} | ${row.summary.samples} |`);
  }
  return lines.join('\n');
}

export function throughputTable(rows: readonly ThroughputResult[]): string {
  const lines = [
    '| stream | reader | median (MB/s) | p10–p90 (MB/s) | % of floor | client CPU per run (ms) | runs |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    const floor = floorOf(rows, row.scenario);
    const share = floor ? `${((row.summary.median / floor.summary.median) * 100).toFixed(0)}%` : 'n/a';
    lines.push(`| ${row.scenario} | ${row.reader} | ${mbps(row.summary.median)} | ${mbps(row.summary.p10)}–${mbps(row.summary.p90)} | ${share} | ${row.cpuMs.toFixed(0)} | ${row.summary.samples} |`);
  }
  return lines.join('\n');
}

export function targetsTable(targets: readonly TargetCheck[]): string {
  return ['| target | measured | met |', '| --- | --- | --- |', ...targets.map((check) => `| ${check.target} | ${check.measured} | ${check.met ? 'yes' : '**no**'} |`)].join('\n');
}

export function renderMarkdown(report: BenchReport): string {
  const machine = Object.entries(report.machine)
    .map(([key, value]) => `- ${key}: ${value}`)
    .join('\n');
  return [
    '# Berth benchmark results',
    '',
    `Measured ${report.date} by \`npm run bench\` (bench/run.ts). Lower latency and higher throughput are better.`,
    '',
    '## Machine',
    machine,
    '',
    '## Small calls and listing',
    latencyTable(report.latency),
    '',
    '## Log streaming',
    throughputTable(report.throughput),
    '',
    '## Targets',
    targetsTable(report.targets),
    '',
    '## Notes',
    ...report.notes.map((note) => `- ${note}`),
    '',
  ].join('\n');
}

export interface ResultPage {
  readonly title: string;
  /** Paragraphs before the table: what was measured, where, against what. */
  readonly intro: readonly string[];
  /** The table's header cells. */
  readonly columns: readonly string[];
  /** The table's rows, each already a `| … |` line. */
  readonly rows: readonly string[];
}

/** A benchmark's result page as markdown: the title, the paragraphs, then the table. */
export function resultPage(page: ResultPage): string {
  return [`# ${page.title}`, '', ...page.intro.flatMap((paragraph) => [paragraph, '']), `| ${page.columns.join(' | ')} |`, `|${' --- |'.repeat(page.columns.length)}`, ...page.rows, ''].join('\n');
}

/** Writes the page to FILE and prints it, as every benchmark reports its figures. */
export function publishResultPage(file: string, page: ResultPage): void {
  const markdown = resultPage(page);
  writeFileSync(file, markdown);
  process.stdout.write(markdown);
}
