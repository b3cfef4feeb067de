/**
 * `npm run bench:changes`: a container's changes (docker diff) with 5,000 changed paths, on the private dockerd (or
 * BERTH_BENCH_HOST with BERTH_BENCH_IMAGE), interleaved in one run. Writes bench/changes-results.{json,md}.
 * - Berth's client reading the whole list (what the Changes row does), and `berth diff` spawned, against
 *   `docker diff` spawned. Goal <= 1.0x.
 * - The first rows: how long until the first batch is decoded, against the whole read, and how many batches the
 *   answer came in (more than one: rows are shown before all are read).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { EngineClient } from '../src/engine';
import { execCapture } from '../src/engine/containerFiles';
import { containerSpec } from '../test/support/containerSpec';
import { loadTestEngines } from '../test/support/engines';
import { measureInterleaved, type Contender } from './measure';
import { elapsedMs, summarize, type Summary } from './stats';

const execFileAsync = promisify(execFile);
const ROUNDS = 5;
const PATHS = 5000;

interface Row {
  readonly case: string;
  readonly contender: string;
  readonly summary: Summary;
}

async function main(): Promise<void> {
  const host = process.env.BERTH_BENCH_HOST ?? loadTestEngines().dockerHost;
  const image = process.env.BERTH_BENCH_IMAGE ?? loadTestEngines().image;
  const client = EngineClient.fromEnvironment({ host });
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' };
  const scratch = mkdtempSync(join(tmpdir(), 'berth-bench-changes-'));
  await execFileAsync(process.execPath, [resolve(__dirname, '..', 'esbuild.js'), `--cli-outdir=${scratch}`]);
  const cli = join(scratch, 'cli.js');
  const { Id: id } = await client.createContainer(containerSpec(image, ['sleep', '3600']));
  const rows: Row[] = [];
  try {
    await client.startContainer(id);
    const setup = await execCapture(client, id, ['sh', '-c', `mkdir -p /data && cd /data && i=1; while [ $i -lt ${PATHS} ]; do : > "file-$i.txt"; i=$((i+1)); done`]);
    if (setup.exitCode !== 0) throw new Error(`setup failed: ${setup.stderr.toString()}`);
    let listed = 0;
    const firstBatchMs: number[] = [];
    const wholeMs: number[] = [];
    const batches: number[] = [];
    const readAll = async (): Promise<void> => {
      const start = process.hrtime.bigint();
      let count = 0;
      let batchCount = 0;
      for await (const batch of client.containerChanges(id)) {
        if (batchCount === 0) firstBatchMs.push(elapsedMs(start));
        batchCount++;
        count += batch.length;
      }
      wholeMs.push(elapsedMs(start));
      batches.push(batchCount);
      listed = count;
    };
    const contenders: Contender[] = [
      { name: 'Berth, client (the Changes row)', run: readAll, samples: 10, warmup: 1 },
      { name: 'berth diff (spawned)', run: () => execFileAsync(process.execPath, [cli, '--host', host, 'diff', id], { env, maxBuffer: 64 << 20 }), samples: 10, warmup: 1 },
      { name: 'docker diff (spawned)', run: () => execFileAsync('docker', ['-H', host, 'diff', id], { env, maxBuffer: 64 << 20 }), samples: 10, warmup: 1 },
    ];
    const results = await measureInterleaved(contenders, ROUNDS);
    for (const [contender, measurement] of results) rows.push({ case: `${listed} changed paths`, contender, summary: summarize(measurement.samples) });
    report(rows, summarize(firstBatchMs), summarize(wholeMs), batches);
  } finally {
    await client.removeContainer(id, { force: true });
    await client.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function report(rows: readonly Row[], first: Summary, whole: Summary, batches: readonly number[]): void {
  const lines = ['| Case | Contender | median ms | p10–p90 ms | ratio to docker diff |', '| --- | --- | --- | --- | --- |'];
  for (const row of rows) {
    const peer = rows.find((other) => other.case === row.case && other.contender.startsWith('docker'));
    const ratio = peer ? (row.summary.median / peer.summary.median).toFixed(2) : '—';
    lines.push(`| ${row.case} | ${row.contender} | ${row.summary.median.toFixed(1)} | ${row.summary.p10.toFixed(1)}–${row.summary.p90.toFixed(1)} | ${ratio}× |`);
  }
  const fewest = Math.min(...batches);
  lines.push('', `First batch decoded after ${first.median.toFixed(1)} ms (median), the whole list after ${whole.median.toFixed(1)} ms; the answer came in ${fewest}–${Math.max(...batches)} batches.`);
  const text = `${lines.join('\n')}\n`;
  const out = resolve(__dirname);
  writeFileSync(join(out, 'changes-results.md'), `# Container changes: Berth against docker diff\n\n${text}`);
  writeFileSync(join(out, 'changes-results.json'), `${JSON.stringify({ rows, firstBatch: first, whole, batches }, null, 2)}\n`);
  console.log(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
