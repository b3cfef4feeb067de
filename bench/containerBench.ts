/**
 * The setup the container benchmarks (files, changes) share: the private dockerd (or BERTH_BENCH_HOST with
 * BERTH_BENCH_IMAGE), one running busybox container that is removed at the end, a scratch folder, the docker CLI
 * spawned against the same engine, and the table that sets each contender beside the docker CLI's time.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { EngineClient } from '../src/engine';
import { execCapture } from '../src/engine/files';
import { containerSpec } from '../test/support/containerSpec';
import { loadTestEngines } from '../test/support/engines';
import { summarize, type Summary } from './stats';

export const execFileAsync = promisify(execFile);

export interface Row {
  readonly case: string;
  readonly contender: string;
  readonly summary: Summary;
}

export interface BenchContainer {
  readonly host: string;
  readonly client: EngineClient;
  /** A running container (`sleep 3600`) of the bench image. */
  readonly id: string;
  /** A fresh folder, removed at the end. */
  readonly scratch: string;
  /** The environment spawned peers get: PATH and HOME only. */
  readonly env: Record<string, string>;
  /** The docker CLI spawned against the same engine. */
  readonly docker: (args: string[]) => Promise<{ stdout: string; stderr: string }>;
}

/** Runs BODY with a started container and a scratch folder; both go afterwards, whatever BODY did. */
export async function withBenchContainer<T>(name: string, body: (bench: BenchContainer) => Promise<T>): Promise<T> {
  const host = process.env.BERTH_BENCH_HOST ?? loadTestEngines().dockerHost;
  const image = process.env.BERTH_BENCH_IMAGE ?? loadTestEngines().image;
  const client = EngineClient.fromEnvironment({ host });
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' };
  const docker = (args: string[]) => execFileAsync('docker', ['-H', host, ...args], { env, maxBuffer: 256 << 20 });
  const { Id: id } = await client.containers.create(containerSpec(image, ['sleep', '3600']));
  const scratch = mkdtempSync(join(tmpdir(), `berth-bench-${name}-`));
  try {
    await client.containers.start(id);
    return await body({ host, client, id, scratch, env, docker });
  } finally {
    await client.containers.remove(id, { force: true });
    await client.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Runs SCRIPT with `sh -c` in the container; a failing setup stops the bench with the script's stderr. */
export async function shell(client: EngineClient, id: string, script: string): Promise<void> {
  const result = await execCapture(client, id, ['sh', '-c', script]);
  if (result.exitCode !== 0) throw new Error(`setup failed: ${result.stderr.toString()}`);
}

/** Creates COUNT empty files `file-<n>.txt` in DIR of the container (numbered from FIRST). */
export function fillDirectory(client: EngineClient, id: string, dir: string, count: number, first = 0): Promise<void> {
  return shell(client, id, `mkdir -p ${dir} && cd ${dir} && i=${first}; while [ $i -lt ${first + count} ]; do : > "file-$i.txt"; i=$((i+1)); done`);
}

/** Adds a row per contender of one measured case. */
export function recordCase(rows: Row[], name: string, results: Map<string, { samples: number[] }>): void {
  for (const [contender, measurement] of results) rows.push({ case: name, contender, summary: summarize(measurement.samples) });
}

/** The Markdown table of ROWS, each with its ratio to the case's docker contender. */
export function ratioTable(rows: readonly Row[], peerHeading: string): string[] {
  const lines = [`| Case | Contender | median ms | p10–p90 ms | ratio to ${peerHeading} |`, '| --- | --- | --- | --- | --- |'];
  for (const row of rows) {
    const peer = rows.find((other) => other.case === row.case && other.contender.startsWith('docker'));
    const ratio = peer ? (row.summary.median / peer.summary.median).toFixed(2) : '—';
    lines.push(`| ${row.case} | ${row.contender} | ${row.summary.median.toFixed(1)} | ${row.summary.p10.toFixed(1)}–${row.summary.p90.toFixed(1)} | ${ratio}× |`);
  }
  return lines;
}

/** Writes bench/NAME-results.{md,json} and prints the table. */
export function writeResults(name: string, title: string, text: string, json: unknown): void {
  const out = resolve(__dirname);
  writeFileSync(join(out, `${name}-results.md`), `# ${title}\n\n${text}`);
  writeFileSync(join(out, `${name}-results.json`), `${JSON.stringify(json, null, 2)}\n`);
  console.log(text);
}

/** Runs a bench's main, setting a failing exit code on an error. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
